// Python's str methods that chat templates call ("x.strip()", "x.split('</think>')", ...),
// working on code points, and the text operations the filters share with them.
#pragma once

#include <string>
#include <string_view>

#include "jinja/evaluator.h"
#include "jinja/value.h"

namespace halogen::jinja {

bool is_string_method(const std::string &name);
Value call_string_method(const std::string &s, const std::string &name, const CallArgs &args, Evaluator &ev);

enum class StripSide { Both, Left, Right };
// str.strip(chars): whitespace when chars is none.
std::string py_strip(const std::string &s, const Value &chars, StripSide side);
std::string py_upper(std::string_view s);
std::string py_lower(std::string_view s);
std::string py_capitalize(std::string_view s);
std::string py_title(std::string_view s);   // str.title()
// str.replace(old, new, count); count < 0: all.
std::string py_replace(const std::string &s, const std::string &old, const std::string &repl, int64_t count,
                       const Limits &limits);

}  // namespace halogen::jinja
