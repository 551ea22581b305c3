// Values to and from JSON. from_json turns a chat request's messages, tools and extra variables
// (nlohmann::ordered_json, so that keys keep their order, as Python's dicts do) into template
// values; to_json writes a value as Python's json.dumps does, which is what the `tojson` filter
// of Hugging Face's chat templates calls: ensure_ascii off by default, ", " and ": " separators
// ("," and ": " with an indent), keys in insertion order unless sort_keys.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "jinja/limits.h"
#include "jinja/value.h"

namespace halogen::jinja {

Value from_json(const nlohmann::ordered_json &j, const Limits &limits = {});

struct JsonStyle {
    std::optional<std::string> indent;   // none: one line
    std::optional<std::string> item_separator, key_separator;
    bool sort_keys = false;
    bool ensure_ascii = false;
};

std::string to_json(const Value &v, const JsonStyle &style, const Limits &limits);

}  // namespace halogen::jinja
