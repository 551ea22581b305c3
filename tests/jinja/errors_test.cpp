// Constructs outside the supported subset are TemplateErrors naming the construct and the line;
// raise_exception carries the template's message; syntax errors name where they are.
#include <gtest/gtest.h>

#include "jinja/chat_template.h"
#include "tests/jinja/test_support.h"

namespace {

using halogen::jinja::TemplateRaised;
using halogen::jinja::testing::error_of;
using halogen::jinja::testing::render;
using json = nlohmann::ordered_json;

TEST(JinjaErrors, UnsupportedFilterIsNamedWithItsLine) {
    EXPECT_EQ(error_of("a\nb\n{{ text | wordwrap }}"), "line 3: the filter 'wordwrap' is not supported");
    EXPECT_EQ(error_of("{{ x | format(1) }}"), "line 1: the filter 'format' is not supported");
    EXPECT_EQ(error_of("{{ x | frobnicate }}"), "line 1: no filter named 'frobnicate'");
    // Named when the template is parsed, even in a branch that never runs.
    EXPECT_EQ(error_of("{% if false %}\n{{ x | sort }}{% endif %}"), "line 2: the filter 'sort' is not supported");
    EXPECT_EQ(error_of("{{ [1] | map('wordcount') | list }}"), "line 1: the filter 'wordcount' is not supported");
}

TEST(JinjaErrors, UnsupportedTagsAreNamed) {
    for (const char *tag : {"include", "extends", "import", "from", "call", "filter", "with", "autoescape", "block"})
        EXPECT_EQ(error_of(std::string("x\n{% ") + tag + " 'a' %}"), std::string("line 2: the tag '") + tag + "' is not supported");
    EXPECT_EQ(error_of("{% frobnicate %}"), "line 1: unknown tag 'frobnicate'");
    EXPECT_EQ(error_of("{% for x in xs recursive %}{% endfor %}"), "line 1: recursive for loops are not supported");
    EXPECT_EQ(error_of("{% set x | upper %}a{% endset %}"), "line 1: filters on a block 'set' are not supported");
}

TEST(JinjaErrors, UnsupportedTestsMethodsAndFunctionsAreNamed) {
    EXPECT_EQ(error_of("{{ 3 is prime }}"), "line 1: no test named 'prime'");
    EXPECT_EQ(error_of("{{ 'a {}'.format(1) }}"), "line 1: the string method 'format' is not supported");
    EXPECT_EQ(error_of("{{ xs.append(1) }}", {{"xs", json::array()}}), "line 1: the list method 'append' is not supported");
    EXPECT_EQ(error_of("{{ d.update({}) }}", {{"d", json::object()}}),
              "line 1: the dict method 'update' is not supported (templates cannot change a dict)");
    EXPECT_EQ(error_of("{% set c = cycler('a') %}"), "line 1: the function 'cycler' is not supported");
    EXPECT_EQ(error_of("{{ '%s' % 1 }}"), "line 1: printf-style string formatting ('...' % value) is not supported");
    EXPECT_EQ(error_of("{{ f(*xs) }}"), "line 1: *args and **kwargs in a call are not supported");
    EXPECT_EQ(error_of("{{ x[1, 2] }}"), "line 1: a tuple subscript (x[a, b]) is not supported");
}

TEST(JinjaErrors, RaiseExceptionCarriesTheTemplatesMessage) {
    const std::string tmpl = "{% for m in messages %}\n{% if m.role == 'tool' %}\n"
                             "{{ raise_exception('no tools here, turn ' ~ loop.index) }}\n{% endif %}{% endfor %}";
    try {
        halogen::jinja::render_chat(tmpl, json::array({{{"role", "user"}, {"content", "a"}}, {{"role", "tool"}, {"content", "b"}}}));
        FAIL() << "no exception";
    } catch (const TemplateRaised &e) {
        EXPECT_EQ(e.message(), "no tools here, turn 2");
        EXPECT_EQ(e.line(), 3);
        EXPECT_STREQ(e.what(), "line 3: raise_exception: no tools here, turn 2");
    }
    // From inside a macro, too; and a TemplateRaised is a halogen::Error.
    try {
        render("{% macro check(x) %}{% if not x %}{{ raise_exception('empty') }}{% endif %}{% endmacro %}{{ check('') }}");
        FAIL() << "no exception";
    } catch (const halogen::Error &e) {
        EXPECT_STREQ(e.what(), "line 1: raise_exception: empty");
    }
}

TEST(JinjaErrors, SyntaxErrorsNameWhereTheyAre) {
    EXPECT_EQ(error_of("a\n{% for x in xs %}\n{{ x }}"), "line 2: the 'for' tag is not closed (no 'endfor' before the end of the template)");
    EXPECT_EQ(error_of("{% for x in xs %}\n{% if x %}\n{% endfor %}"), "line 3: unexpected 'endfor' (the innermost open tag is the 'if' on line 2)");
    EXPECT_EQ(error_of("{% endif %}"), "line 1: unexpected 'endif' (no open tag that it closes or continues)");
    EXPECT_EQ(error_of("x\n\n{{ 1 + }}"), "line 3: expected an expression, got end of print statement ('}}')");
    EXPECT_EQ(error_of("{{ (1 + 2 }}"), "line 1: unexpected '}', expected ')'");
    EXPECT_EQ(error_of("{{ a ! b }}"), "line 1: unexpected character '!' in a tag");
    EXPECT_EQ(error_of("{{ 'open }}"), "line 1: a string literal is not closed");
    EXPECT_EQ(error_of("ok\n{# never closed"), "line 2: the comment opened here is not closed (no '#}')");
    EXPECT_EQ(error_of("{{ x "), "line 1: the '{{' tag opened here is not closed");
    EXPECT_EQ(error_of("{% break %}"), "line 1: 'break' outside a for loop");
    EXPECT_EQ(error_of("{% for x in xs %}{% macro m() %}{% continue %}{% endmacro %}{% endfor %}"), "line 1: 'continue' outside a for loop");
    EXPECT_EQ(error_of("a\nb \xff\xfe"), "line 2: the template is not valid UTF-8 (byte 4)");
    EXPECT_EQ(error_of("{{ 99999999999999999999 }}"), "line 1: the integer literal 99999999999999999999 does not fit in 64 bits");
}

TEST(JinjaErrors, RuntimeErrorsNameTheValueAndLine) {
    EXPECT_EQ(error_of("\n{{ nothing.role }}"), "line 2: 'nothing' is undefined");
    EXPECT_EQ(error_of("{{ m.a.b }}", {{"m", json::object()}}), "line 1: 'dict object' has no attribute 'a'");
    EXPECT_EQ(error_of("{{ 'a' + 1 }}"), "line 1: can only concatenate str (not \"int\") to str");
    EXPECT_EQ(error_of("{{ 1 // 0 }}"), "line 1: integer division or modulo by zero");
    EXPECT_EQ(error_of("{{ 9223372036854775807 + 1 }}"), "line 1: the integer result of '+' does not fit in 64 bits");
    EXPECT_EQ(error_of("{% set x = 1 %}{% set x.y = 2 %}"), "line 1: cannot assign the attribute 'y' of 'x', which is not a namespace");
    EXPECT_EQ(error_of("{{ [1] | tojson }}{{ nothing | tojson }}"), "line 1: Object of type Undefined is not JSON serializable");
    EXPECT_EQ(error_of("{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}"), "line 1: the macro 'm' takes at most 1 argument(s), got 2");
    EXPECT_EQ(error_of("{{ 'a'.upper }}"), "line 1: the function str.upper cannot be printed (call it)");
    // Every message is one line.
    for (const char *t : {"{{ x | wordwrap }}", "{% for %}", "{{ 1 < 'a' }}", "{{ range(1, 2, 0) }}"}) {
        const std::string e = error_of(t);
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_EQ(e.rfind("line 1: ", 0), 0u) << e;
    }
}

}  // namespace
