// The parser's state and its grammar functions, shared by parse_statements.cpp and
// parse_expressions.cpp (internal to jinja/).
#pragma once

#include <string>
#include <vector>

#include "jinja/ast.h"
#include "jinja/lexer.h"
#include "jinja/limits.h"

namespace halogen::jinja {

class Parser {
public:
    Parser(std::vector<Token> tokens, const Limits &limits) : tokens_(std::move(tokens)), limits_(limits) {}
    Body parse_template();

private:
    friend class Nesting;

    // Statements (parse_statements.cpp).
    struct Opened { std::string tag; int line; };
    std::string parse_body(Body &into, const std::vector<std::string> &ends, const Opened &opened);
    std::string parse_nodes(Body &into, const std::vector<std::string> &ends, const Opened &opened);
    void parse_statement(Body &into);
    NodePtr parse_for(int line);
    NodePtr parse_if(int line);
    NodePtr parse_set(int line);
    NodePtr parse_macro(int line);
    void expect_block_end(const char *tag);

    // Expressions (parse_expressions.cpp).
    ExprPtr parse_tuple(bool with_condexpr, bool explicit_parentheses, const char *extra_end = nullptr);
    ExprPtr parse_expression(bool with_condexpr = true);
    ExprPtr parse_condexpr();
    ExprPtr parse_or();
    ExprPtr parse_and();
    ExprPtr parse_not();
    ExprPtr parse_compare();
    ExprPtr parse_math1();
    ExprPtr parse_concat();
    ExprPtr parse_math2();
    ExprPtr parse_pow();
    ExprPtr parse_unary(bool with_filter);
    ExprPtr parse_primary();
    ExprPtr parse_postfix(ExprPtr node);
    ExprPtr parse_filter_expr(ExprPtr node);
    ExprPtr parse_subscript(ExprPtr node);
    ExprPtr parse_call(ExprPtr callee);
    void parse_call_args(Expr &into);
    ExprPtr make(Expr::Kind kind, int line, std::vector<ExprPtr> children = {});
    ExprPtr finish(ExprPtr e);   // depth from the children, bounded

    // Tokens.
    const Token &cur() const { return tokens_[pos_]; }
    const Token &peek(size_t n = 1) const { return tokens_[std::min(pos_ + n, tokens_.size() - 1)]; }
    void next() { if (pos_ + 1 < tokens_.size()) ++pos_; }
    bool is_op(const char *op) const { return cur().kind == TokenKind::Operator && cur().text == op; }
    bool is_name(const char *name) const { return cur().kind == TokenKind::Name && cur().text == name; }
    bool skip_op(const char *op);
    bool skip_name(const char *name);
    void expect_op(const char *op, const char *context);
    std::string expect_name(const char *context);
    [[noreturn]] void fail(const std::string &what) const;
    [[noreturn]] void fail_expected(const std::string &what) const;

    std::vector<Token> tokens_;
    size_t pos_ = 0;
    const Limits &limits_;
    int nesting_ = 0;
    int loop_depth_ = 0;
    std::vector<Opened> open_;   // the tags whose bodies are being parsed, innermost last
};

// Counts one level of recursion in the parser and fails past Limits::max_nesting.
class Nesting {
public:
    explicit Nesting(Parser &p);
    ~Nesting() { --p_.nesting_; }
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;

private:
    Parser &p_;
};

}  // namespace halogen::jinja
