// Greedy shrinking of a failing case: while the failure persists under the same strategy, drop
// extra outputs, replace a node by one of its operands or by a fresh input of its shape, shrink
// constant extents and the bound values of symbolic dims. The result is a small graph in the JSON
// of formats/graph_json.h, ready to replay and to paste into a regression test.
#pragma once

#include <functional>
#include <string>

#include "tests/fuzz/runner.h"

namespace halogen::fuzz {

// The smallest case found that still fails under `s`, after at most `max_checks` runs.
FuzzCase shrink_case(const FuzzCase &c, const Strategy &s, int max_checks = 300,
                     const std::function<void(const std::string &)> &log = {});

}  // namespace halogen::fuzz
