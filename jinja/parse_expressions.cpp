// The expression half of the parser (parser.h): Jinja's grammar, loosest binding first:
// `a if c else b`, or, and, not, comparisons (chained; in, not in), + -, ~, * / // %, **,
// unary - +, then a primary with its postfixes (.attr, [index], [a:b:c], (call)) and its
// filters (| name(args)) and tests (is [not] name args).
#include "jinja/filters.h"
#include "jinja/parser_state.h"
#include "jinja/template_error.h"
#include "jinja/value_tests.h"

namespace halogen::jinja {

ExprPtr Parser::finish(ExprPtr e) {
    int depth = 0;
    auto deeper = [&](const ExprPtr &c) {
        if (c) depth = std::max(depth, c->depth);
    };
    for (const auto &c : e->children) deeper(c);
    for (const auto &kw : e->keywords) deeper(kw.second);
    deeper(e->start);
    deeper(e->stop);
    deeper(e->step);
    e->depth = depth + 1;
    if (e->depth > limits_.max_nesting)
        throw TemplateError(e->line, "the expression nests deeper than " + std::to_string(limits_.max_nesting) +
                                         " levels (the limit)");
    return e;
}

ExprPtr Parser::make(Expr::Kind kind, int line, std::vector<ExprPtr> children) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->line = line;
    e->children = std::move(children);
    return finish(std::move(e));
}

ExprPtr Parser::parse_tuple(bool with_condexpr, bool explicit_parentheses, const char *extra_end) {
    const int line = cur().line;
    std::vector<ExprPtr> items;
    bool is_tuple = false;
    for (;;) {
        if (!items.empty()) expect_op(",", "between the items of a tuple");
        const bool end = cur().kind == TokenKind::VariableEnd || cur().kind == TokenKind::BlockEnd || is_op(")") ||
                         (extra_end && is_name(extra_end));
        if (end) break;
        items.push_back(parse_expression(with_condexpr));
        if (!is_op(",")) break;
        is_tuple = true;
    }
    if (!is_tuple) {
        if (!items.empty()) return std::move(items[0]);
        if (!explicit_parentheses) fail_expected("an expression");
    }
    return make(Expr::Kind::Tuple, line, std::move(items));
}

ExprPtr Parser::parse_expression(bool with_condexpr) {
    Nesting nest(*this);
    return with_condexpr ? parse_condexpr() : parse_or();
}

ExprPtr Parser::parse_condexpr() {
    const int line = cur().line;
    ExprPtr expr = parse_or();
    while (skip_name("if")) {
        std::vector<ExprPtr> parts;
        parts.push_back(parse_or());
        parts.push_back(std::move(expr));
        if (skip_name("else")) parts.push_back(parse_condexpr());
        expr = make(Expr::Kind::Conditional, line, std::move(parts));
    }
    return expr;
}

ExprPtr Parser::parse_or() {
    ExprPtr left = parse_and();
    while (is_name("or")) {
        const int line = cur().line;
        next();
        std::vector<ExprPtr> parts;
        parts.push_back(std::move(left));
        parts.push_back(parse_and());
        left = make(Expr::Kind::Or, line, std::move(parts));
    }
    return left;
}

ExprPtr Parser::parse_and() {
    ExprPtr left = parse_not();
    while (is_name("and")) {
        const int line = cur().line;
        next();
        std::vector<ExprPtr> parts;
        parts.push_back(std::move(left));
        parts.push_back(parse_not());
        left = make(Expr::Kind::And, line, std::move(parts));
    }
    return left;
}

ExprPtr Parser::parse_not() {
    if (is_name("not")) {
        Nesting nest(*this);
        const int line = cur().line;
        next();
        std::vector<ExprPtr> parts;
        parts.push_back(parse_not());
        return make(Expr::Kind::Not, line, std::move(parts));
    }
    return parse_compare();
}

ExprPtr Parser::parse_compare() {
    const int line = cur().line;
    ExprPtr first = parse_math1();
    std::vector<ExprPtr> parts;
    std::vector<std::string> ops;
    for (;;) {
        std::string op;
        if (cur().kind == TokenKind::Operator &&
            (cur().text == "==" || cur().text == "!=" || cur().text == "<" || cur().text == "<=" ||
             cur().text == ">" || cur().text == ">=")) {
            op = cur().text;
            next();
        } else if (is_name("in")) {
            op = "in";
            next();
        } else if (is_name("not") && peek().kind == TokenKind::Name && peek().text == "in") {
            op = "not in";
            next();
            next();
        } else {
            break;
        }
        if (parts.empty()) parts.push_back(std::move(first));
        parts.push_back(parse_math1());
        ops.push_back(op);
    }
    if (ops.empty()) return first;
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Compare;
    e->line = line;
    e->children = std::move(parts);
    e->compare_ops = std::move(ops);
    return finish(std::move(e));
}

ExprPtr Parser::parse_math1() {
    ExprPtr left = parse_concat();
    while (is_op("+") || is_op("-")) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Binary;
        e->line = cur().line;
        e->op = is_op("+") ? BinaryOp::Add : BinaryOp::Sub;
        next();
        e->children.push_back(std::move(left));
        e->children.push_back(parse_concat());
        left = finish(std::move(e));
    }
    return left;
}

ExprPtr Parser::parse_concat() {
    ExprPtr left = parse_math2();
    while (is_op("~")) {
        const int line = cur().line;
        next();
        std::vector<ExprPtr> parts;
        parts.push_back(std::move(left));
        parts.push_back(parse_math2());
        left = make(Expr::Kind::Concat, line, std::move(parts));
    }
    return left;
}

ExprPtr Parser::parse_math2() {
    ExprPtr left = parse_pow();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Binary;
        e->line = cur().line;
        e->op = is_op("*") ? BinaryOp::Mul : is_op("/") ? BinaryOp::Div : is_op("//") ? BinaryOp::FloorDiv : BinaryOp::Mod;
        next();
        e->children.push_back(std::move(left));
        e->children.push_back(parse_pow());
        left = finish(std::move(e));
    }
    return left;
}

ExprPtr Parser::parse_pow() {
    ExprPtr left = parse_unary(true);
    while (is_op("**")) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Binary;
        e->line = cur().line;
        e->op = BinaryOp::Pow;
        next();
        e->children.push_back(std::move(left));
        e->children.push_back(parse_unary(true));
        left = finish(std::move(e));
    }
    return left;
}

ExprPtr Parser::parse_unary(bool with_filter) {
    ExprPtr node;
    if (is_op("-") || is_op("+")) {
        Nesting nest(*this);
        const int line = cur().line;
        const bool minus = is_op("-");
        next();
        std::vector<ExprPtr> parts;
        parts.push_back(parse_unary(false));
        node = make(minus ? Expr::Kind::Neg : Expr::Kind::Pos, line, std::move(parts));
    } else {
        node = parse_primary();
    }
    node = parse_postfix(std::move(node));
    if (with_filter) node = parse_filter_expr(std::move(node));
    return node;
}

ExprPtr Parser::parse_primary() {
    const Token &t = cur();
    auto literal = [&](Value v) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Literal;
        e->line = t.line;
        e->literal = std::move(v);
        return e;
    };
    switch (t.kind) {
    case TokenKind::Name: {
        ExprPtr e;
        if (t.text == "true" || t.text == "True") e = literal(Value::boolean(true));
        else if (t.text == "false" || t.text == "False") e = literal(Value::boolean(false));
        else if (t.text == "none" || t.text == "None") e = literal(Value::none());
        else {
            e = std::make_unique<Expr>();
            e->kind = Expr::Kind::Name;
            e->line = t.line;
            e->name = t.text;
        }
        next();
        return e;
    }
    case TokenKind::String: {
        std::string s;
        const int line = t.line;
        while (cur().kind == TokenKind::String) {
            s += cur().text;
            next();
        }
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Literal;
        e->line = line;
        e->literal = Value::string(std::move(s));
        return e;
    }
    case TokenKind::Integer: {
        auto e = literal(Value::integer(t.integer));
        next();
        return e;
    }
    case TokenKind::Float: {
        auto e = literal(Value::number(t.number));
        next();
        return e;
    }
    default: break;
    }
    const int line = t.line;
    if (skip_op("(")) {
        ExprPtr e = parse_tuple(true, true);
        expect_op(")", "to close '('");
        return e;
    }
    if (skip_op("[")) {
        std::vector<ExprPtr> items;
        while (!is_op("]")) {
            if (!items.empty()) expect_op(",", "between the items of a list");
            if (is_op("]")) break;
            items.push_back(parse_expression());
        }
        next();
        return make(Expr::Kind::List, line, std::move(items));
    }
    if (skip_op("{")) {
        std::vector<ExprPtr> items;
        while (!is_op("}")) {
            if (!items.empty()) expect_op(",", "between the items of a dict");
            if (is_op("}")) break;
            items.push_back(parse_expression());
            expect_op(":", "between a dict's key and value");
            items.push_back(parse_expression());
        }
        next();
        return make(Expr::Kind::Dict, line, std::move(items));
    }
    fail_expected("an expression");
}

ExprPtr Parser::parse_postfix(ExprPtr node) {
    for (;;) {
        if (is_op(".") || is_op("[")) node = parse_subscript(std::move(node));
        else if (is_op("(")) node = parse_call(std::move(node));
        else return node;
    }
}

ExprPtr Parser::parse_subscript(ExprPtr node) {
    const int line = cur().line;
    if (skip_op(".")) {
        if (cur().kind == TokenKind::Name) {
            auto e = std::make_unique<Expr>();
            e->kind = Expr::Kind::Attr;
            e->line = line;
            e->name = cur().text;
            e->children.push_back(std::move(node));
            next();
            return finish(std::move(e));
        }
        if (cur().kind == TokenKind::Integer) {
            auto index = std::make_unique<Expr>();
            index->kind = Expr::Kind::Literal;
            index->line = line;
            index->literal = Value::integer(cur().integer);
            next();
            std::vector<ExprPtr> parts;
            parts.push_back(std::move(node));
            parts.push_back(std::move(index));
            return make(Expr::Kind::Item, line, std::move(parts));
        }
        fail_expected("a name after '.'");
    }
    next();   // [
    auto e = std::make_unique<Expr>();
    e->line = line;
    e->children.push_back(std::move(node));
    ExprPtr first;
    if (!is_op(":")) {
        first = parse_expression();
        if (!is_op(":")) {
            if (is_op(",")) fail("a tuple subscript (x[a, b]) is not supported");
            expect_op("]", "to close '['");
            e->kind = Expr::Kind::Item;
            e->children.push_back(std::move(first));
            return finish(std::move(e));
        }
    }
    next();   // the first ':'
    e->kind = Expr::Kind::Slice;
    e->start = std::move(first);
    if (!is_op(":") && !is_op("]")) e->stop = parse_expression();
    if (skip_op(":") && !is_op("]")) e->step = parse_expression();
    expect_op("]", "to close the slice");
    return finish(std::move(e));
}

void Parser::parse_call_args(Expr &into) {
    expect_op("(", "to open the arguments");
    bool first = true;
    while (!is_op(")")) {
        if (!first) {
            expect_op(",", "between arguments");
            if (is_op(")")) break;
        }
        first = false;
        if (is_op("*") || is_op("**")) fail("*args and **kwargs in a call are not supported");
        if (cur().kind == TokenKind::Name && peek().kind == TokenKind::Operator && peek().text == "=") {
            std::string key = cur().text;
            next();
            next();
            into.keywords.emplace_back(std::move(key), parse_expression());
        } else {
            if (!into.keywords.empty()) fail("a positional argument follows a keyword argument");
            into.children.push_back(parse_expression());
        }
    }
    next();
}

ExprPtr Parser::parse_call(ExprPtr callee) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Call;
    e->line = cur().line;
    e->children.push_back(std::move(callee));
    parse_call_args(*e);
    return finish(std::move(e));
}

ExprPtr Parser::parse_filter_expr(ExprPtr node) {
    for (;;) {
        if (is_op("|")) {
            const int line = cur().line;
            next();
            std::string name = expect_name("after '|'");
            while (skip_op(".")) name += "." + expect_name("in a filter's name");
            if (!is_filter(name)) throw TemplateError(line, unknown_filter_message(name));
            auto e = std::make_unique<Expr>();
            e->kind = Expr::Kind::Filter;
            e->line = line;
            e->name = name;
            e->children.push_back(std::move(node));
            if (is_op("(")) parse_call_args(*e);
            node = finish(std::move(e));
        } else if (is_name("is")) {
            const int line = cur().line;
            next();
            auto e = std::make_unique<Expr>();
            e->kind = Expr::Kind::Test;
            e->line = line;
            e->negated = skip_name("not");
            e->name = expect_name("after 'is'");
            while (skip_op(".")) e->name += "." + expect_name("in a test's name");
            if (!is_test(e->name)) throw TemplateError(line, unknown_test_message(e->name));
            e->children.push_back(std::move(node));
            if (is_op("(")) {
                parse_call_args(*e);
            } else {
                const TokenKind k = cur().kind;
                const bool arg = k == TokenKind::Name || k == TokenKind::String || k == TokenKind::Integer ||
                                 k == TokenKind::Float || is_op("[") || is_op("{");
                if (arg && !is_name("else") && !is_name("or") && !is_name("and")) {
                    if (is_name("is")) fail("a test's argument cannot be another test");
                    e->children.push_back(parse_postfix(parse_primary()));
                }
            }
            node = finish(std::move(e));
        } else if (is_op("(")) {
            node = parse_call(std::move(node));
        } else {
            return node;
        }
    }
}

}  // namespace halogen::jinja
