// What Python does with values, as far as chat templates reach: truth, equality and ordering,
// str() and repr() (floats printed as Python prints them), arithmetic with Python's rules
// (floor division, the sign of %, str + str, list * int), lengths, iteration and slices.
// Every failure is a TemplateError with line 0 that the evaluator fills in; every string and
// list built is checked against the limits given.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "jinja/limits.h"
#include "jinja/value.h"

namespace halogen::jinja {

bool truthy(const Value &v);
bool equals(const Value &a, const Value &b);
// How Python orders a and b: -1, 0, 1, or 2 for unordered (a NaN); a TypeError for kinds Python
// does not order ("'<' not supported between instances of 'int' and 'str'").
int order(const Value &a, const Value &b, const char *op);
// `item in container`: a substring, a list item, a dict key.
bool contains(const Value &container, const Value &item);
// Throws the undefined value's error: "'x' is undefined".
[[noreturn]] void fail_undefined(const Value &v);

std::string py_float_repr(double d);
std::string to_str(const Value &v, const Limits &limits);    // str(v); "" for undefined
std::string repr(const Value &v, const Limits &limits);      // repr(v)

enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Mod, Pow };
const char *op_text(BinaryOp op);
Value binary(BinaryOp op, const Value &a, const Value &b, const Limits &limits);
Value negate(const Value &v);
Value unary_plus(const Value &v);

int64_t length(const Value &v);     // len(v): code points of a string, items, keys; 0 for undefined
List iterate(const Value &v);       // the items a for loop visits: chars, list items, dict keys
Value slice(const Value &v, const std::optional<int64_t> &start, const std::optional<int64_t> &stop,
            const std::optional<int64_t> &step);
Value index(const Value &v, int64_t i);   // v[i] of a list or string; undefined when out of range

// Where `needle` first occurs in `text` at or after `from` (npos if nowhere), in time linear in
// the text's length (Boyer-Moore for long needles), so that no search in a template is quadratic.
size_t find_text(std::string_view text, std::string_view needle, size_t from = 0);

// Work done inside comparisons and searches (items compared, 64-byte blocks scanned), which the
// evaluator adds to its step count: count_work adds, take_work returns the total and resets it.
void count_work(int64_t units);
int64_t take_work();

// Throws when a string or list would pass the limits.
void check_string_size(size_t bytes, const Limits &limits);
void check_list_size(size_t items, const Limits &limits);

}  // namespace halogen::jinja
