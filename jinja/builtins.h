// The functions every template can call: namespace(...), raise_exception(message) (a
// TemplateRaised), strftime_now(format) (the date given in RenderOptions, so that renders are
// repeatable), range(...), dict(...). Jinja's cycler, joiner and lipsum are named as not
// supported when called.
#pragma once

#include "jinja/evaluator.h"

namespace halogen::jinja {

Variables builtin_functions();

}  // namespace halogen::jinja
