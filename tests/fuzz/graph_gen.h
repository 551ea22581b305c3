// The fuzzer's graph generator: from a seed, a random well-formed graph over the primitive ops
// (elementwise chains, broadcasts, permuted / sliced / padded / reshaped / windowed views,
// reductions on random axes, one-hot `sum_v where(eq(index_components, e), f, 0)` patterns,
// symbolic dims bound at run time, odd extents 1, 3, 7, 30, 33, 129).
//
// A case is written in the JSON format of formats/graph_json.h (plus "bindings" and "seed", which
// graph_from_json ignores), so every graph the fuzzer runs can be printed, replayed and shrunk.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "frontend/halogen.h"

namespace halogen::fuzz {

struct FuzzCase {
    nlohmann::json doc;          // {"nodes": [...], "outputs": [...], "bindings": {...}, "seed": s}
    Bindings bindings;           // run-time values of the symbolic dims
    uint32_t seed = 0;
    int one_hot_patterns = 0;    // how many one-hot reductions the generator wrote
};

// The same seed always gives the same case.
FuzzCase generate_case(uint32_t seed);

// The graph a case describes (through graph_from_json); Error if it is not well formed.
Graph build_graph(const nlohmann::json &doc);
// `doc` without the nodes no output depends on.
nlohmann::json prune_unreachable(const nlohmann::json &doc);
// A case read back from its JSON (bindings and the inputs' seed from "bindings" and "seed").
FuzzCase case_from_json(const nlohmann::json &doc);

}  // namespace halogen::fuzz
