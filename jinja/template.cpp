// Parsing once, rendering many times (template.h).
#include "jinja/template.h"

#include "jinja/parser.h"

namespace halogen::jinja {

Template::Template(std::string_view source, const Limits &limits)
    : limits_(limits), body_(std::make_shared<const Body>(parse(source, limits_))) {}

std::string Template::render(const Variables &variables, const RenderOptions &options) const {
    Evaluator evaluator(limits_, variables, options);
    return evaluator.render(*body_);
}

}  // namespace halogen::jinja
