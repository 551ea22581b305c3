// Applying a model's chat template (`chat_template` of tokenizer_config.json, or the GGUF key
// tokenizer.chat_template) to a conversation, as Hugging Face's apply_chat_template renders it:
// the variables `messages`, `add_generation_prompt`, `bos_token`, `eos_token`, plus any extra
// ones (`tools`, `date_string`, ...). Errors are TemplateError; raise_exception() in the template
// is a TemplateRaised carrying its message.
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "jinja/limits.h"
#include "jinja/template_error.h"

namespace halogen::jinja {

struct ChatMessage {
    std::string role;
    std::string content;
};

struct ChatOptions {
    bool add_generation_prompt = false;
    std::string bos_token;
    std::string eos_token;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();   // more variables: tools, date_string, ...
    std::optional<std::tm> now;   // the date strftime_now() formats; the current local time when absent
    Limits limits;
};

std::string render_chat(std::string_view template_text, const std::vector<ChatMessage> &messages,
                        const ChatOptions &options = {});
// Messages as JSON objects (role, content, and whatever else the template reads: tool_calls, ...).
std::string render_chat(std::string_view template_text, const nlohmann::ordered_json &messages,
                        const ChatOptions &options = {});

}  // namespace halogen::jinja
