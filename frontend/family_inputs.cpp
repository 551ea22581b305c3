// Deterministic inputs for a family at a user's shape (family_inputs.h).
#include "frontend/family_inputs.h"

#include <random>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

std::shared_ptr<Array> shared_floats(std::vector<int64_t> shape, uint32_t seed, float lo = -1, float hi = 1) {
    return std::make_shared<Array>(random_floats(std::move(shape), seed, lo, hi));
}

int64_t product(const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

}  // namespace

Array random_floats(std::vector<int64_t> shape, uint32_t seed, float lo, float hi) {
    Array a(DType::Float32, std::move(shape));
    float *p = a.data<float>();
    uint32_t s = seed * 2654435761u + 1;
    const float scale = (hi - lo) / float(1 << 24);
    for (int64_t k = 0; k < a.size(); ++k) {
        s = s * 1664525u + 1013904223u;   // a linear congruential step; the top 24 bits are used
        p[k] = lo + float(s >> 8) * scale;
    }
    return a;
}

Array random_ids(int64_t T, int64_t ids_max, uint32_t seed) {
    Array ids(DType::Int32, {T});
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> pick(0, int32_t(ids_max - 1));
    for (int64_t t = 0; t < T; ++t) ids.data<int32_t>()[t] = pick(rng);
    return ids;
}

FamilyInputs embedding_inputs(const std::shared_ptr<Array> &table, int64_t T, int64_t ids_max) {
    const int64_t V = table->shape().at(0), D = table->shape().at(1);
    if (ids_max < 1 || ids_max > V) throw ShapeError(fmt::format("embedding: ids bound {} must be in [1, {}]", ids_max, V));
    FamilyInputs f;
    f.inputs.emplace("ids", std::make_shared<Array>(random_ids(T, ids_max, uint32_t(V + T))));
    f.inputs.emplace("weight", table);
    f.out_shape = {T, D};
    return f;
}

FamilyInputs norm_inputs(const std::string &op, const std::vector<int64_t> &shape) {
    FamilyInputs f;
    const int64_t total = product(shape);
    if (op == "layernorm" || op == "rmsnorm") {
        if (shape.empty()) throw ShapeError(fmt::format("{}: needs a shape [..., D], got {}", op, dims_str(shape)));
        const int64_t D = shape.back(), R = D ? total / D : 0;
        f.inputs.emplace("x", shared_floats({R, D}, 1));
        f.inputs.emplace("weight", shared_floats({D}, 2));
        if (op == "layernorm") f.inputs.emplace("bias", shared_floats({D}, 3));
        f.out_shape = {R, D};
        return f;
    }
    if (op != "batchnorm" && op != "groupnorm") {
        throw Error(fmt::format("norm: unknown op '{}' (known: layernorm, rmsnorm, batchnorm, groupnorm)", op));
    }
    if (shape.size() < 2) throw ShapeError(fmt::format("{}: needs a shape N x C x spatial..., got {}", op, dims_str(shape)));
    const int64_t N = shape[0], C = shape[1], S = N * C != 0 ? total / (N * C) : 0;
    std::vector<int64_t> channels = {C};
    if (op == "groupnorm") {   // the family's layout: channels split into 32 groups
        if (C % 32 != 0) throw ShapeError(fmt::format("groupnorm: C = {} is not a multiple of 32 groups", C));
        channels = {32, C / 32};
    }
    std::vector<int64_t> xs = {N};
    xs.insert(xs.end(), channels.begin(), channels.end());
    xs.push_back(S);
    f.inputs.emplace("x", shared_floats(xs, 1));
    f.inputs.emplace("weight", shared_floats(channels, 2));
    f.inputs.emplace("bias", shared_floats(channels, 3));
    if (op == "batchnorm") {
        f.inputs.emplace("mean", shared_floats(channels, 4));
        f.inputs.emplace("var", shared_floats(channels, 5, 0.5f, 2.0f));
    }
    f.out_shape = xs;
    return f;
}

FamilyInputs conv_inputs(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride,
                         int64_t pad) {
    if (x.size() < 3 || kernel.size() != x.size() - 1 || stride < 1 || pad < 0) {
        throw ShapeError(fmt::format("conv: needs x [N, C, L1..Ln], kernel [K, R1..Rn], stride >= 1, pad >= 0; got x {}, "
                                     "kernel {}, stride {}, pad {}", dims_str(x), dims_str(kernel), stride, pad));
    }
    FamilyInputs f;
    std::vector<int64_t> w = {kernel[0], x[1]};
    w.insert(w.end(), kernel.begin() + 1, kernel.end());
    f.inputs.emplace("x", shared_floats(x, 1));
    f.inputs.emplace("weight", shared_floats(w, 2));
    f.inputs.emplace("bias", shared_floats({kernel[0]}, 3));
    f.out_shape = {x[0], kernel[0]};
    for (std::size_t a = 2; a < x.size(); ++a) f.out_shape.push_back((x[a] + 2 * pad - kernel[a - 1]) / stride + 1);
    return f;
}

}  // namespace halogen
