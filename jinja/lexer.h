// Template text to tokens, with the whitespace rules Hugging Face renders chat templates with:
// trim_blocks (the first newline after a block or comment tag is dropped) and lstrip_blocks
// (spaces and tabs from the start of a line up to a block or comment tag are dropped), `{%-` /
// `-%}` (and the same for `{{ }}` and `{# #}`) stripping all whitespace on that side, `{%+` /
// `+%}` turning the two rules off for one tag. Newlines are normalized to "\n" and one trailing
// newline is dropped, as Jinja does. `{% raw %}...{% endraw %}` becomes text. Comments vanish.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace halogen::jinja {

enum class TokenKind {
    Text,            // template text, after whitespace control
    VariableBegin,   // {{
    VariableEnd,     // }}
    BlockBegin,      // {%
    BlockEnd,        // %}
    Name,
    String,          // text holds the unescaped value
    Integer,
    Float,
    Operator,        // text holds the operator: + - * / // % ** ~ == != < <= > >= = . : | , ; ( ) [ ] { }
    End,
};

struct Token {
    TokenKind kind;
    std::string text;
    int line;
    int64_t integer = 0;
    double number = 0;
};

// Throws TemplateError on text that is not valid UTF-8, an unclosed tag, comment, string or raw
// block, a character no token starts with, or unbalanced brackets.
std::vector<Token> tokenize(std::string_view source);

const char *describe(const Token &t);   // for messages: "end of print statement", "name", ...

}  // namespace halogen::jinja
