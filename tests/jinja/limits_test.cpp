// No template can hang, exhaust memory or overflow the stack: nesting in the source, recursion
// at run time, work, output, strings and lists are bounded, each with an error naming its limit.
#include <gtest/gtest.h>

#include <chrono>

#include "jinja/chat_template.h"
#include "tests/jinja/test_support.h"

namespace {

using halogen::jinja::Limits;
using halogen::jinja::testing::error_of;
using halogen::jinja::testing::render;
using json = nlohmann::ordered_json;

std::string repeat(const std::string &s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

TEST(JinjaLimits, DeepNestingInTheSourceIsAnError) {
    const std::string deep_parens = "{{ " + repeat("(", 20000) + "1" + repeat(")", 20000) + " }}";
    EXPECT_TRUE(contains(error_of(deep_parens), "nests deeper than 128 levels")) << error_of(deep_parens);
    const std::string deep_ifs = repeat("{% if true %}", 20000) + repeat("{% endif %}", 20000);
    EXPECT_TRUE(contains(error_of(deep_ifs), "nests deeper than 128 levels"));
    const std::string long_chain = "{{ x" + repeat(" | trim", 20000) + " }}";
    EXPECT_TRUE(contains(error_of(long_chain), "nests deeper than 128 levels"));
    EXPECT_TRUE(contains(error_of("{{ " + repeat("not ", 20000) + "x }}"), "nests deeper"));
    EXPECT_TRUE(contains(error_of("{{ " + repeat("- ", 20000) + "1 }}"), "nests deeper"));
    EXPECT_TRUE(contains(error_of("{{ " + repeat("[", 20000) + repeat("]", 20000) + " }}"), "nests deeper"));
    EXPECT_TRUE(contains(error_of("{{ x" + repeat(".a", 20000) + " }}"), "nests deeper"));
    EXPECT_TRUE(contains(error_of("{{ 1" + repeat(" + 1", 20000) + " }}"), "nests deeper"));
    // Within the limit, nesting works.
    EXPECT_EQ(render("{{ " + repeat("(", 50) + "7" + repeat(")", 50) + " }}"), "7");
}

TEST(JinjaLimits, RecursionAtRunTimeIsAnError) {
    EXPECT_TRUE(contains(error_of("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}"), "recurses deeper than 400 levels"));
    EXPECT_TRUE(contains(error_of("{% macro f(n) %}{{ f(n + 1) ~ f(n + 2) }}{% endmacro %}{{ f(0) }}"), "recurses deeper"));
    EXPECT_EQ(render("{% macro f(n) %}{% if n %}{{ n }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(30) | length }}"), "51");
}

TEST(JinjaLimits, WorkIsBoundedSoNothingHangs) {
    // The default limit of 5M steps is a few seconds of work; the same bound, lower, keeps the test quick.
    EXPECT_EQ(Limits{}.max_steps, 5'000'000);
    Limits limits;
    limits.max_steps = 100'000;
    const auto start = std::chrono::steady_clock::now();
    const std::string cubic = "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}"
                              "{% endfor %}{% endfor %}{% endfor %}";
    EXPECT_EQ(error_of(cubic, {}, limits), "line 1: the render took more than 100000 steps (the limit; a loop that does not end?)");
    // Exponential macro calls within the depth limit still end at the step limit.
    EXPECT_TRUE(contains(error_of("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}",
                                  {}, limits), "took more than 100000 steps"));
    // So do long strings built again and again (a step per 64 bytes).
    EXPECT_TRUE(contains(error_of("{% for i in range(100000) %}{% set s = 'x' * 100000 %}{% endfor %}", {}, limits),
                         "took more than 100000 steps"));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 20.0);   // well under a second in a normal build; far from hanging
}

TEST(JinjaLimits, OutputStringsAndListsAreBounded) {
    EXPECT_TRUE(contains(error_of("{% for a in range(100000) %}{{ 'x' * 1000 }}{% endfor %}"), "output grew past 16777216 bytes"));
    EXPECT_TRUE(contains(error_of("{{ 'x' * 100000000000 }}"), "a string longer than 16777216 bytes"));
    EXPECT_TRUE(contains(error_of("{{ ('x' * 1000000) * 1000 }}"), "a string longer than"));
    EXPECT_TRUE(contains(error_of("{{ [1] * 100000000000 }}"), "a list longer than 1048576 items"));
    EXPECT_TRUE(contains(error_of("{{ range(100000000000) | length }}"), "a list longer than"));
    EXPECT_TRUE(contains(error_of("{{ 'ab' | replace('', 'x' * 10000000) }}"), "a string longer than"));
    Limits small;
    small.max_output_bytes = 10;
    EXPECT_EQ(error_of("{{ 'abcdefghijk' }}", {}, small), "line 1: the output grew past 10 bytes (the limit)");
    EXPECT_EQ(render("{{ 'abcdefghij' }}", {}, small), "abcdefghij");
}

TEST(JinjaLimits, NamespacesCannotHoldThemselvesOrGrowDeep) {
    EXPECT_EQ(error_of("{% set ns = namespace() %}{% set ns.me = ns %}"),
              "line 1: a namespace cannot hold another namespace ('ns.me')");
    EXPECT_EQ(error_of("{% set ns = namespace() %}{% set ns.l = [1, [ns]] %}"),
              "line 1: a namespace cannot hold another namespace ('ns.l')");
    EXPECT_EQ(error_of("{% set a = namespace() %}{% set b = namespace(x=a) %}"), "line 1: a namespace cannot hold another namespace");
    EXPECT_TRUE(contains(error_of("{% set ns = namespace(x=[]) %}{% for i in range(100000) %}{% set ns.x = [ns.x] %}{% endfor %}"),
                         "nested at most 128 levels"));
    EXPECT_TRUE(contains(error_of("{% set ns = namespace(x=[]) %}{% for i in range(100000) %}{% set ns.x = {'k': ns.x} %}{% endfor %}"),
                         "nested at most 128 levels"));
}

TEST(JinjaLimits, DeepJsonInputIsAnError) {
    json deep = json::array();
    for (int i = 0; i < 200; ++i) deep = json::array({deep});
    try {
        halogen::jinja::ChatOptions options;
        options.extra["deep"] = deep;
        halogen::jinja::render_chat("{{ deep | length }}", json::array(), options);
        FAIL() << "no exception";
    } catch (const halogen::jinja::TemplateError &e) {
        EXPECT_TRUE(contains(e.what(), "the JSON input nests deeper than 128 levels")) << e.what();
    }
}

}  // namespace

namespace {

TEST(JinjaLimits, ComparisonsAndSearchesCountTheirWork) {
    // An empty sequence repeated a huge number of times is empty at once.
    EXPECT_EQ(render("{{ ('' * 9223372036854775807) | length }}{{ ([] * 9223372036854775807) | length }}"), "00");
    Limits limits;
    limits.max_steps = 1'000'000;
    // Searching a long string again and again is counted by the bytes scanned: without that, this
    // loop would be a few thousand steps.
    EXPECT_TRUE(contains(error_of("{% set s = 'a' * 200000 %}{% for i in range(1000) %}{% if ('a' * 20 ~ 'b') in s %}"
                                  "{% endif %}{% endfor %}", {}, limits), "took more than 1000000 steps"));
    // So is comparing long lists again and again, by the items compared.
    EXPECT_TRUE(contains(error_of("{% set a = range(50000) | list %}{% set b = range(50000) | list %}"
                                  "{% for i in range(1000) %}{% if a == b %}{% endif %}{% endfor %}", {}, limits),
                         "took more than 1000000 steps"));
    EXPECT_EQ(render("{% set a = range(100000) | list %}{% for i in range(3) %}{{ a == a }}{% endfor %}", {}, limits),
              "TrueTrueTrue");
}

}  // namespace
