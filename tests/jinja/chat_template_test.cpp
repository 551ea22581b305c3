// render_chat, the entry the CLI and the tokenizer call: the variables a template is given (as
// Hugging Face's apply_chat_template gives them), plain and JSON messages alike, key order kept,
// the date from the options, and one parse rendering any number of times independently.
#include <gtest/gtest.h>

#include "jinja/chat_template.h"
#include "tests/jinja/test_support.h"

namespace {

using halogen::jinja::ChatMessage;
using halogen::jinja::ChatOptions;
using halogen::jinja::render_chat;
using json = nlohmann::ordered_json;

const char *const kChatML =
    "{{ bos_token }}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

TEST(ChatTemplate, GivesTheVariablesHuggingFaceGives) {
    ChatOptions options;
    options.bos_token = "<s>";
    options.add_generation_prompt = true;
    const std::string out = render_chat(kChatML, std::vector<ChatMessage>{{"system", "Be brief."}, {"user", "Hi"}}, options);
    EXPECT_EQ(out, "<s><|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    options.add_generation_prompt = false;
    EXPECT_EQ(render_chat(kChatML, std::vector<ChatMessage>{{"user", "Hi"}}, options), "<s><|im_start|>user\nHi<|im_end|>\n");
    EXPECT_EQ(render_chat("{{ eos_token }}|{{ bos_token }}|{{ add_generation_prompt }}", json::array(), {}), "||False");
}

TEST(ChatTemplate, PlainAndJsonMessagesRenderAlike) {
    const std::vector<ChatMessage> plain = {{"user", "é \"q\""}, {"assistant", "ok"}};
    const json as_json = json::array({{{"role", "user"}, {"content", "é \"q\""}}, {{"role", "assistant"}, {"content", "ok"}}});
    EXPECT_EQ(render_chat(kChatML, plain), render_chat(kChatML, as_json));
}

TEST(ChatTemplate, ToolsKeepTheirKeyOrderInTojson) {
    ChatOptions options;
    options.extra["tools"] = json::array({{{"name", "f"}, {"z", 1}, {"a", {{"y", true}, {"b", nullptr}}}}});
    // json.dumps keeps insertion order: what Python prints for the same dicts.
    EXPECT_EQ(render_chat("{{ tools | tojson }}", json::array(), options), R"([{"name": "f", "z": 1, "a": {"y": true, "b": null}}])");
}

TEST(ChatTemplate, StrftimeNowFormatsTheGivenDate) {
    ChatOptions options;
    std::tm day{};
    day.tm_year = 2025 - 1900;
    day.tm_mon = 0;
    day.tm_mday = 5;
    options.now = day;
    EXPECT_EQ(render_chat("{{ strftime_now('%d %b %Y') }}", json::array(), options), "05 Jan 2025");
    // Without a date it formats today: a four-digit year at least.
    EXPECT_EQ(render_chat("{{ strftime_now('%Y') | length }}", json::array()), "4");
}

TEST(ChatTemplate, OneParseRendersIndependently) {
    const halogen::jinja::Template t("{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}{% endfor %}{{ ns.n }}");
    halogen::jinja::Variables vars;
    vars["xs"] = halogen::jinja::from_json(json::array({1, 2, 3}));
    EXPECT_EQ(t.render(vars), "6");
    EXPECT_EQ(t.render(vars), "6");
}

TEST(ChatTemplate, BadRequestsAreTemplateErrors) {
    EXPECT_THROW(render_chat(kChatML, json::object()), halogen::jinja::TemplateError);
    ChatOptions options;
    options.extra = json::array();
    EXPECT_THROW(render_chat(kChatML, json::array(), options), halogen::jinja::TemplateError);
    EXPECT_THROW(render_chat("{% for %}", json::array()), halogen::Error);
}

}  // namespace
