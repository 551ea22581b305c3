// libFuzzer target for the chat-template engine (jinja/): each input is template text, parsed
// and rendered with a fixed chat context (messages of every role, tool calls, tools, unicode,
// numbers) under tight limits. The contract checked:
//   - every input either renders or throws a TemplateError; any other exception aborts;
//   - a TemplateError's message names a line ("line N: ...") and, unless it is the template's
//     own raise_exception text, is one line;
//   - a template renders the same text twice (no state leaks between renders).
// Built two ways: with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz_jinja.sh, and
// with the project's own toolchain plus replay_main.cpp (ctest jinja_fuzz.replay_corpus), which
// feeds every file of tests/jinja_fuzz/corpus/ through this function.
#include <cstdint>
#include <exception>
#include <string>
#include <typeinfo>

#include <nlohmann/json.hpp>

#include "jinja/json_values.h"
#include "jinja/template.h"
#include "tests/jinja_fuzz/jinja_fuzz_target.h"
#include "tests/support/fuzz_target.h"

namespace {

int64_t g_rendered = 0, g_rejected = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { halogen::fuzz::crash("jinja_fuzz", what, detail); }

const char *const kContext = R"({
  "messages": [
    {"role": "system", "content": "  Be brief. Ünïcödé 😀 \"q\" 'a'\n"},
    {"role": "user", "content": "<tool_response>x</tool_response>"},
    {"role": "assistant", "content": "<think>\nr\n</think>\n\nok", "tool_calls": [
      {"id": "call12345", "type": "function", "function": {"name": "add", "arguments": {"a": 1, "b": 2.5}}}]},
    {"role": "tool", "tool_call_id": "call12345", "content": "3.5"},
    {"role": "user", "content": ""}
  ],
  "tools": [{"type": "function", "function": {"name": "add", "description": "Adds",
             "parameters": {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]}}}],
  "add_generation_prompt": true, "bos_token": "<s>", "eos_token": "</s>",
  "n": 7, "f": -2.5, "big": 9223372036854775807, "nothing_here": null, "flags": [true, false],
  "nested": {"a": {"b": [1, [2, [3, {"c": "d"}]]]}}
})";

const halogen::jinja::Variables &context() {
    static const halogen::jinja::Variables vars = [] {
        halogen::jinja::Variables v;
        const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(kContext);
        for (const auto &[key, value] : parsed.items())
            v[key] = halogen::jinja::from_json(value);
        return v;
    }();
    return vars;
}

// Tight bounds: every input ends in well under a second, even under the sanitizers.
halogen::jinja::Limits limits() {
    halogen::jinja::Limits l;
    l.max_output_bytes = 1 << 16;
    l.max_string_bytes = 1 << 16;
    l.max_list_items = 1 << 12;
    l.max_steps = 20'000;
    l.max_nesting = 64;
    l.max_call_depth = 200;
    return l;
}

}  // namespace

namespace halogen::jinja_fuzz {
int64_t rendered() { return g_rendered; }
int64_t rejected() { return g_rejected; }
}  // namespace halogen::jinja_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    halogen::jinja::RenderOptions options;
    std::tm day{};
    day.tm_year = 124;
    day.tm_mon = 6;
    day.tm_mday = 26;
    options.now = day;
    try {
        const halogen::jinja::Template tmpl(text, limits());
        const std::string first = tmpl.render(context(), options);
        const std::string second = tmpl.render(context(), options);
        if (first != second) crash("two renders of one template differ", first.substr(0, 200) + " | " + second.substr(0, 200));
        ++g_rendered;
    } catch (const halogen::jinja::TemplateRaised &e) {
        ++g_rejected;
        if (std::string(e.what()).rfind("line ", 0) != 0) crash("raise_exception's error names no line", e.what());
    } catch (const halogen::jinja::TemplateError &e) {
        ++g_rejected;
        const std::string msg = e.what();
        if (msg.rfind("line ", 0) != 0 || msg.find('\n') != std::string::npos || e.detail().empty())
            crash("TemplateError message is not one line naming a line", msg);
    } catch (const std::exception &e) {
        crash("exception other than TemplateError", std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", "(unknown type)");
    }
    return 0;
}
