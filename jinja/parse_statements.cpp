// The statement half of the parser (parser.h): text, output and the tags chat templates use.
#include <algorithm>

#include "jinja/parser.h"
#include "jinja/parser_state.h"
#include "jinja/template_error.h"

namespace halogen::jinja {

namespace {

// Jinja's own tags that this engine does not take (each gets "the tag 'X' is not supported").
const char *const kUnsupportedTags[] = {"block", "extends", "include", "import", "from", "call", "filter",
                                        "with", "autoescape", "do", "trans", "pluralize", "print"};

}  // namespace

Body parse(std::string_view source, const Limits &limits) { return Parser(tokenize(source), limits).parse_template(); }

Nesting::Nesting(Parser &p) : p_(p) {
    if (++p_.nesting_ > p_.limits_.max_nesting) {
        --p_.nesting_;
        p_.fail("the template nests deeper than " + std::to_string(p_.limits_.max_nesting) + " levels (the limit)");
    }
}

void Parser::fail(const std::string &what) const { throw TemplateError(cur().line, what); }

void Parser::fail_expected(const std::string &what) const {
    std::string got = describe(cur());
    if (cur().kind == TokenKind::Name || cur().kind == TokenKind::Operator) got += " '" + cur().text + "'";
    fail("expected " + what + ", got " + got);
}

bool Parser::skip_op(const char *op) {
    if (!is_op(op)) return false;
    next();
    return true;
}

bool Parser::skip_name(const char *name) {
    if (!is_name(name)) return false;
    next();
    return true;
}

void Parser::expect_op(const char *op, const char *context) {
    if (!skip_op(op)) fail_expected(std::string("'") + op + "' " + context);
}

std::string Parser::expect_name(const char *context) {
    if (cur().kind != TokenKind::Name) fail_expected(std::string("a name ") + context);
    std::string name = cur().text;
    next();
    return name;
}

void Parser::expect_block_end(const char *tag) {
    if (cur().kind != TokenKind::BlockEnd) fail_expected(std::string("the end of the '") + tag + "' tag ('%}')");
    next();
}

Body Parser::parse_template() {
    Body body;
    parse_body(body, {}, {"", 0});
    return body;
}

// Parses nodes into `into` until a tag named in `ends` (returned, and consumed up to its name) or
// the end of the template (returns "", an error if `ends` is not empty).
std::string Parser::parse_body(Body &into, const std::vector<std::string> &ends, const Opened &opened) {
    Nesting nest(*this);
    if (!ends.empty()) open_.push_back(opened);
    const std::string end = parse_nodes(into, ends, opened);
    if (!ends.empty()) open_.pop_back();
    return end;
}

std::string Parser::parse_nodes(Body &into, const std::vector<std::string> &ends, const Opened &opened) {
    for (;;) {
        const Token &t = cur();
        switch (t.kind) {
        case TokenKind::End:
            if (!ends.empty())
                throw TemplateError(opened.line, "the '" + opened.tag + "' tag is not closed (no '" + ends.back() +
                                                      "' before the end of the template)");
            return "";
        case TokenKind::Text: {
            auto node = std::make_unique<Node>();
            node->kind = Node::Kind::Text;
            node->line = t.line;
            node->text = t.text;
            into.push_back(std::move(node));
            next();
            break;
        }
        case TokenKind::VariableBegin: {
            auto node = std::make_unique<Node>();
            node->kind = Node::Kind::Output;
            node->line = t.line;
            next();
            node->expr = parse_tuple(true, false);
            if (cur().kind != TokenKind::VariableEnd) fail_expected("the end of the print statement ('}}')");
            next();
            into.push_back(std::move(node));
            break;
        }
        case TokenKind::BlockBegin: {
            const Token &tag = peek();
            if (tag.kind == TokenKind::Name && std::find(ends.begin(), ends.end(), tag.text) != ends.end()) {
                next();
                next();
                return tag.text;
            }
            parse_statement(into);
            break;
        }
        default: fail_expected("template text or a tag");
        }
    }
}

void Parser::parse_statement(Body &into) {
    next();   // {%
    const int line = cur().line;
    if (cur().kind != TokenKind::Name) fail_expected("a tag name after '{%'");
    const std::string tag = cur().text;
    next();
    if (tag == "for") return into.push_back(parse_for(line));
    if (tag == "if") return into.push_back(parse_if(line));
    if (tag == "set") return into.push_back(parse_set(line));
    if (tag == "macro") return into.push_back(parse_macro(line));
    if (tag == "break" || tag == "continue") {
        if (loop_depth_ == 0) throw TemplateError(line, "'" + tag + "' outside a for loop");
        auto node = std::make_unique<Node>();
        node->kind = tag == "break" ? Node::Kind::Break : Node::Kind::Continue;
        node->line = line;
        expect_block_end(tag.c_str());
        return into.push_back(std::move(node));
    }
    if (tag == "generation") {   // Hugging Face's marker of assistant text: its body, as a call block
        auto node = std::make_unique<Node>();
        node->kind = Node::Kind::Scoped;
        node->line = line;
        expect_block_end("generation");
        const int loops = loop_depth_;
        loop_depth_ = 0;
        parse_body(node->body, {"endgeneration"}, {"generation", line});
        loop_depth_ = loops;
        expect_block_end("endgeneration");
        return into.push_back(std::move(node));
    }
    for (const char *unsupported : kUnsupportedTags)
        if (tag == unsupported) throw TemplateError(line, "the tag '" + tag + "' is not supported");
    if (tag.rfind("end", 0) == 0 || tag == "else" || tag == "elif") {
        if (open_.empty()) throw TemplateError(line, "unexpected '" + tag + "' (no open tag that it closes or continues)");
        throw TemplateError(line, "unexpected '" + tag + "' (the innermost open tag is the '" + open_.back().tag +
                                      "' on line " + std::to_string(open_.back().line) + ")");
    }
    throw TemplateError(line, "unknown tag '" + tag + "'");
}

NodePtr Parser::parse_for(int line) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::For;
    node->line = line;
    const bool parenthesized = skip_op("(");
    do node->targets.push_back(expect_name("as the for loop's target"));
    while (skip_op(","));
    if (parenthesized) expect_op(")", "after the for loop's targets");
    if (!skip_name("in")) fail_expected("'in' after the for loop's target");
    node->expr = parse_tuple(false, false, "recursive");
    if (skip_name("if")) node->filter = parse_expression();
    if (is_name("recursive")) fail("recursive for loops are not supported");
    expect_block_end("for");
    ++loop_depth_;
    std::string end = parse_body(node->body, {"else", "endfor"}, {"for", line});
    --loop_depth_;
    if (end == "else") {
        expect_block_end("else");
        parse_body(node->else_body, {"endfor"}, {"for", line});
    }
    expect_block_end("endfor");
    return node;
}

NodePtr Parser::parse_if(int line) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::If;
    node->line = line;
    for (;;) {
        ExprPtr cond = parse_tuple(false, false);
        expect_block_end("if");
        Body body;
        const std::string end = parse_body(body, {"elif", "else", "endif"}, {"if", line});
        node->branches.emplace_back(std::move(cond), std::move(body));
        if (end == "elif") continue;
        if (end == "else") {
            expect_block_end("else");
            parse_body(node->else_body, {"endif"}, {"if", line});
        }
        expect_block_end("endif");
        return node;
    }
}

NodePtr Parser::parse_set(int line) {
    auto node = std::make_unique<Node>();
    node->line = line;
    node->targets.push_back(expect_name("after 'set'"));
    if (skip_op(".")) {
        node->kind = Node::Kind::SetAttr;
        node->targets.push_back(expect_name("after '.' in 'set'"));
    } else {
        node->kind = Node::Kind::Set;
        while (skip_op(",")) node->targets.push_back(expect_name("in the names to unpack"));
    }
    if (skip_op("=")) {
        node->expr = parse_tuple(true, false);
        expect_block_end("set");
        return node;
    }
    if (node->kind != Node::Kind::Set || node->targets.size() != 1) fail_expected("'=' in 'set'");
    if (is_op("|")) fail("filters on a block 'set' are not supported");
    expect_block_end("set");
    node->kind = Node::Kind::SetBlock;
    parse_body(node->body, {"endset"}, {"set", line});
    expect_block_end("endset");
    return node;
}

NodePtr Parser::parse_macro(int line) {
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::Macro;
    node->line = line;
    node->targets.push_back(expect_name("after 'macro'"));
    expect_op("(", "after the macro's name");
    while (!is_op(")")) {
        if (!node->params.empty()) expect_op(",", "between the macro's parameters");
        if (is_op(")")) break;
        node->params.push_back(expect_name("as a macro parameter"));
        node->defaults.push_back(skip_op("=") ? parse_expression() : nullptr);
        if (!node->defaults.back() && node->defaults.size() > 1 && node->defaults[node->defaults.size() - 2])
            fail("the macro parameter '" + node->params.back() + "' has no default but follows one that has");
    }
    next();
    expect_block_end("macro");
    const int loops = loop_depth_;
    loop_depth_ = 0;
    parse_body(node->body, {"endmacro"}, {"macro", line});
    loop_depth_ = loops;
    expect_block_end("endmacro");
    return node;
}

}  // namespace halogen::jinja
