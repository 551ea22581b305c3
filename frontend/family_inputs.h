// Deterministic inputs for a family at a user's shape, laid out as the family's kernels take them
// (frontend/families.cpp): the same bytes in `halogen compare` and in the perf/ benchmarks.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/array.h"

namespace halogen {

// Shared: a 2 GiB embedding table is made once and never copied.
using SharedInputs = std::map<std::string, std::shared_ptr<Array>>;

struct FamilyInputs {
    SharedInputs inputs;              // by the family's input names
    std::vector<int64_t> out_shape;   // the family's output layout
};

// float32 values in [lo, hi), from a fast generator (a 2 GiB table must not take minutes).
Array random_floats(std::vector<int64_t> shape, uint32_t seed, float lo = -1, float hi = 1);
// int32 ids [T], uniform in [0, ids_max).
Array random_ids(int64_t T, int64_t ids_max, uint32_t seed);

// Embedding: ids [T] in [0, ids_max) next to `table` [V, D].
FamilyInputs embedding_inputs(const std::shared_ptr<Array> &table, int64_t T, int64_t ids_max);
// layernorm / rmsnorm: `shape` [..., D] with the leading axes collapsed to R.
// batchnorm / groupnorm: `shape` [N, C, spatial...] with the spatial axes collapsed to S;
// groupnorm splits C into its 32 groups. ShapeError when the shape does not fit the op.
FamilyInputs norm_inputs(const std::string &op, const std::vector<int64_t> &shape);
// conv: x [N, C, L1..Ln], `kernel` [K, R1..Rn] (weight [K, C, R1..Rn], bias [K]) and the output
// extents for `stride` and `pad`.
FamilyInputs conv_inputs(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride = 1,
                         int64_t pad = 1);

}  // namespace halogen
