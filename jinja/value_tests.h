// The tests (`value is [not] name(args)`) of chat templates, as Jinja defines them: defined,
// undefined, none, boolean, true, false, integer, float, number, string, mapping, iterable,
// sequence, callable, sameas, equalto (eq, ==), ne (!=), lt (lessthan, <), le (<=), gt
// (greaterthan, >), ge (>=), in, odd, even, divisibleby, lower, upper, filter, test, escaped.
// Any other name is a TemplateError when the template is parsed.
#pragma once

#include <string>

#include "jinja/evaluator.h"
#include "jinja/value.h"

namespace halogen::jinja {

bool is_test(const std::string &name);
std::string unknown_test_message(const std::string &name);

bool run_test(const std::string &name, const Value &input, const CallArgs &args, Evaluator &ev);

}  // namespace halogen::jinja
