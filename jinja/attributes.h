// `obj.name` and `obj[key]` as Jinja resolves them (attribute first for `.`, item first for
// `[]`), and the methods templates call on strings (strip, lstrip, rstrip, split, rsplit,
// startswith, endswith, upper, lower, title, capitalize, replace, find, count, join,
// removeprefix, removesuffix) and dicts (items, keys, values, get). A Python method this engine
// does not have is a TemplateError naming it; a missing key or attribute is undefined.
#pragma once

#include <string>

#include "jinja/limits.h"
#include "jinja/value.h"

namespace halogen::jinja {

Value get_attr(const Value &obj, const std::string &name, const Limits &limits);
Value get_item(const Value &obj, const Value &key, const Limits &limits);

}  // namespace halogen::jinja
