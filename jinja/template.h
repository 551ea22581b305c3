// A Jinja template as Hugging Face renders chat templates (trim_blocks and lstrip_blocks on, no
// autoescape, an immutable sandbox, loop controls, raise_exception and strftime_now): parsed once,
// rendered with variables. The supported subset is in docs/chat_templates.md; anything outside
// it, and any error while rendering, is a TemplateError naming the construct and the line.
//
//     Template t("{% for m in messages %}{{ m.role }}: {{ m.content | trim }}\n{% endfor %}");
//     std::string text = t.render({{"messages", from_json(messages_json)}});
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "jinja/evaluator.h"
#include "jinja/limits.h"
#include "jinja/template_error.h"
#include "jinja/value.h"

namespace halogen::jinja {

class Template {
public:
    explicit Template(std::string_view source, const Limits &limits = {});
    std::string render(const Variables &variables, const RenderOptions &options = {}) const;

private:
    Limits limits_;
    std::shared_ptr<const Body> body_;
};

}  // namespace halogen::jinja
