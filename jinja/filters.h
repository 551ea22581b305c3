// The filters (`value | name(args)`) of chat templates, as Jinja and Hugging Face define them:
// abs, attr, capitalize, count, default (d), first, float, int, items, join, last, length, list,
// lower, map, reject, rejectattr, replace, reverse, safe, select, selectattr, string, sum, title,
// tojson (Hugging Face's: json.dumps with ensure_ascii off), trim, unique, upper.
// Any other name is a TemplateError when the template is parsed.
#pragma once

#include <string>

#include "jinja/evaluator.h"
#include "jinja/value.h"

namespace halogen::jinja {

bool is_filter(const std::string &name);
// "the filter 'wordwrap' is not supported" for Jinja's other filters, "no filter named 'x'" else.
std::string unknown_filter_message(const std::string &name);

Value apply_filter(const std::string &name, const Value &input, const CallArgs &args, Evaluator &ev, int line);

// An item's attribute as map/selectattr/join/sum/unique read it: "a.b" or "0" walks into dicts
// and lists; missing gives undefined.
Value attribute_of(const Value &item, const std::string &path, const Limits &limits);
std::string attribute_path(const Value &attribute, Evaluator &ev);   // an attribute= argument as a path

}  // namespace halogen::jinja
