// Embedding: out[t..., d] = sum_v where(ids[t...] == v, W[v, d], 0).
// Built as: ids -> [..., 1, 1]; arange(V) -> [V, 1]; eq broadcasts to a one-hot [..., V, 1];
// where(one_hot, W [V, D], 0) broadcasts to [..., V, D]; sum over the vocabulary axis (-2), so D
// stays innermost. `where` selects rather than multiplies: NaN/Inf in rows no id picks never leak.
// Named for schedules: the comparison "embedding_one_hot", the sum "embedding_sum".
#include "frontend/nn/embedding.h"

#include <fmt/format.h>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen::nn {

Tensor embedding(const Tensor &ids, const Tensor &weight) {
    if (ids.dtype() != DType::Int32) {
        throw DTypeError(fmt::format("embedding: ids must be int32, got {} of shape {}", dtype_name(ids.dtype()),
                                     shape_str(ids.shape())));
    }
    if (weight.rank() != 2) {
        throw ShapeError(fmt::format("embedding: weight must be [V, D], got {} (ids {})", shape_str(weight.shape()),
                                     shape_str(ids.shape())));
    }
    const Dim &V = weight.shape()[0];
    Shape id_shape = ids.shape();
    id_shape.push_back(1);
    id_shape.push_back(1);
    // one_hot [..., V, 1], total [..., 1, D]
    Tensor one_hot = named(eq(reshape(ids, id_shape), reshape(arange(V), {V, 1})), names::kEmbeddingOneHot);
    Tensor zero = weight.dtype() == DType::Int32 ? iconst(0) : fconst(0);
    Tensor total = named(reduce_sum(where(one_hot, weight, zero), {-2}), names::kEmbeddingSum);
    Shape out = ids.shape();
    out.push_back(weight.shape()[1]);
    return reshape(total, out);                                                                           // [..., D]
}

}  // namespace halogen::nn
