// Tokens to the template tree (ast.h): the statements `if`/`elif`/`else`, `for` (with `else`,
// tuple targets and an `if` filter), `set` (a name, names to unpack, a namespace attribute, or a
// block), `macro`, `break`/`continue`, `generation` (Hugging Face's marker, rendered as its
// body), and Jinja's expression grammar with its precedences. Anything else is a TemplateError
// naming the construct and its line: "line 3: the tag 'include' is not supported".
#pragma once

#include <string_view>

#include "jinja/ast.h"
#include "jinja/limits.h"

namespace halogen::jinja {

Body parse(std::string_view source, const Limits &limits);

}  // namespace halogen::jinja
