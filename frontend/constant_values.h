// The nodes of a graph whose value is known without any input: a const (not a symbolic dim's
// value), and an elementwise op or a view (not a pad) of known values. Every element of such a
// node holds the same value, folded exactly as the reference interpreter computes it.
// Lowering needs them because a constant Inf or NaN is the one float value its fast-math code
// cannot take (halide_gen/compiler/lower.cpp); the fuzzer counts the graphs that have one.
#pragma once

#include <unordered_map>

#include "frontend/graph.h"

namespace halogen {

std::unordered_map<const Node *, double> constant_values(const Graph &g);

// Whether some node of `g` is a constant Inf or NaN.
bool has_non_finite_constant(const Graph &g);

}  // namespace halogen
