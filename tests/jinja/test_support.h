// Helpers the jinja tests share: render a template with JSON variables, and the message of the
// TemplateError a render throws.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "jinja/json_values.h"
#include "jinja/template.h"

namespace halogen::jinja::testing {

inline std::string render(const std::string &text, const nlohmann::ordered_json &vars = nlohmann::ordered_json::object(),
                          const Limits &limits = {}) {
    Variables v;
    for (const auto &[key, value] : vars.items()) v[key] = from_json(value);
    return Template(text, limits).render(v);
}

// The message of the TemplateError that parsing or rendering throws; "(no error)" if none.
inline std::string error_of(const std::string &text, const nlohmann::ordered_json &vars = nlohmann::ordered_json::object(),
                            const Limits &limits = {}) {
    try {
        render(text, vars, limits);
    } catch (const TemplateError &e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace halogen::jinja::testing
