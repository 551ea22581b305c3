// render_chat (chat_template.h): a conversation into the variables HF gives a chat template.
#include "jinja/chat_template.h"

#include "jinja/json_values.h"
#include "jinja/template.h"

namespace halogen::jinja {

std::string render_chat(std::string_view template_text, const std::vector<ChatMessage> &messages,
                        const ChatOptions &options) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const ChatMessage &m : messages) list.push_back({{"role", m.role}, {"content", m.content}});
    return render_chat(template_text, list, options);
}

std::string render_chat(std::string_view template_text, const nlohmann::ordered_json &messages,
                        const ChatOptions &options) {
    if (!messages.is_array()) throw TemplateError(0, "render_chat: the messages must be a JSON array");
    if (!options.extra.is_object()) throw TemplateError(0, "render_chat: the extra variables must be a JSON object");
    const Template tmpl(template_text, options.limits);
    Variables vars;
    for (const auto &[key, value] : options.extra.items()) vars[key] = from_json(value, options.limits);
    vars["messages"] = from_json(messages, options.limits);
    vars["add_generation_prompt"] = Value::boolean(options.add_generation_prompt);
    vars["bos_token"] = Value::string(options.bos_token);
    vars["eos_token"] = Value::string(options.eos_token);
    RenderOptions render_options;
    render_options.now = options.now;
    return tmpl.render(vars, render_options);
}

}  // namespace halogen::jinja
