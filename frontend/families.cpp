// Family graphs, written with the nn layer.
#include "frontend/families.h"

#include <fmt/format.h>

#include "frontend/array.h"
#include "frontend/errors.h"
#include "frontend/nn/nn.h"
#include "frontend/primitives.h"

namespace halogen {

namespace {

const DType F = DType::Float32, I = DType::Int32;
constexpr int64_t kGroups = 32;   // GroupNorm's group count

Family embedding() {
    const Dim T = Dim::sym("T"), V = Dim::sym("V"), D = Dim::sym("D");
    Tensor out = nn::embedding(input("ids", I, {T}), input("weight", F, {V, D}));
    return {"embedding", Graph({out}), {"ids", "weight"},
            {{"T", {"ids", 0}}, {"V", {"weight", 0}}, {"D", {"weight", 1}}},
            "ids int32 [T], weight float32 [V, D] -> out [T, D]; an id outside [0, V) gives a zero row"};
}

Family row_norm(const std::string &name) {
    const Dim R = Dim::sym("R"), D = Dim::sym("D");
    Tensor x = input("x", F, {R, D}), w = input("weight", F, {D});
    if (name == "layernorm") {
        Tensor out = nn::layer_norm(x, 1, w, input("bias", F, {D}));
        return {name, Graph({out}), {"x", "weight", "bias"}, {{"R", {"x", 0}}, {"D", {"x", 1}}},
                "x [R, D] (leading axes collapsed), weight [D], bias [D] -> out [R, D]"};
    }
    Tensor out = nn::rms_norm(x, w);
    return {name, Graph({out}), {"x", "weight"}, {{"R", {"x", 0}}, {"D", {"x", 1}}},
            "x [R, D] (leading axes collapsed), weight [D] -> out [R, D]"};
}

Family channel_norm(const std::string &name) {
    const Dim N = Dim::sym("N"), S = Dim::sym("S");
    if (name == "batchnorm") {
        const Dim C = Dim::sym("C");
        auto c = [&](const char *n) { return input(n, F, {C}); };
        Tensor out = nn::batch_norm_inference(input("x", F, {N, C, S}), c("mean"), c("var"), c("weight"), c("bias"));
        return {name, Graph({out}), {"x", "mean", "var", "weight", "bias"},
                {{"N", {"x", 0}}, {"C", {"x", 1}}, {"S", {"x", 2}}},
                "x [N, C, S] (spatial axes collapsed), mean, var, weight, bias [C] -> out [N, C, S]"};
    }
    // The caller splits C into [32, C/32] as it collapses the spatial axes (a free view of a dense
    // buffer): in that layout the statistics fuse into the normalization's kernel (nn/group_norm.h).
    const Dim G = Dim(kGroups), CG = Dim::sym("CG");
    Tensor out = nn::group_norm_grouped(input("x", F, {N, G, CG, S}), input("weight", F, {G, CG}),
                                        input("bias", F, {G, CG}));
    return {name, Graph({out}), {"x", "weight", "bias"},
            {{"N", {"x", 0}}, {"CG", {"x", 2}}, {"S", {"x", 3}}},
            "x [N, 32, C/32, S] (channels split into 32 groups, spatial axes collapsed), weight, bias [32, C/32] "
            "-> out [N, 32, C/32, S]"};
}

Family conv(int rank) {
    const Dim N = Dim::sym("N"), C = Dim::sym("C"), K = Dim::sym("K");
    Shape xs = {N, C}, ws = {K, C};
    std::map<std::string, DimSource> dims = {{"N", {"x", 0}}, {"C", {"x", 1}}, {"K", {"weight", 0}}};
    const char *names[] = {"L1", "L2", "L3"};
    for (int k = 0; k < rank; ++k) {
        xs.push_back(Dim::sym(names[k]));
        ws.push_back(3);
        dims[names[k]] = {"x", 2 + k};
    }
    nn::ConvOptions o{std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1), 1};
    Tensor out = nn::conv(input("x", F, xs), input("weight", F, ws), input("bias", F, {K}), o);
    return {fmt::format("conv{}d", rank), Graph({out}), {"x", "weight", "bias"}, dims,
            fmt::format("x [N, C, L1..L{0}], weight [K, C, 3 x{0}], bias [K] -> out [N, K, L1..L{0}]; stride 1, pad 1", rank)};
}

}  // namespace

const std::vector<std::string> &family_names() {
    static const std::vector<std::string> names = {"embedding", "layernorm", "rmsnorm", "batchnorm",
                                                   "groupnorm", "conv1d",    "conv2d",  "conv3d"};
    return names;
}

Family make_family(const std::string &name) {
    if (name == "embedding") return embedding();
    if (name == "layernorm" || name == "rmsnorm") return row_norm(name);
    if (name == "batchnorm" || name == "groupnorm") return channel_norm(name);
    if (name == "conv1d") return conv(1);
    if (name == "conv2d") return conv(2);
    if (name == "conv3d") return conv(3);
    throw Error(fmt::format("family: unknown family '{}' (known: {})", name, fmt::join(family_names(), ", ")));
}

Family make_conv_family(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride, int64_t pad) {
    const int rank = int(x.size()) - 2;
    if (rank < 1 || rank > 3 || int(kernel.size()) != rank + 1 || stride < 1 || pad < 0) {
        throw ShapeError(fmt::format("conv: needs x [N, C, L1..Ln] (n = 1..3), kernel [K, R1..Rn], stride >= 1, pad >= 0; "
                                     "got x {}, kernel {}, stride {}, pad {}",
                                     dims_str(x), dims_str(kernel), stride, pad));
    }
    Shape xs, ws = {kernel[0], x[1]};
    for (int64_t e : x) xs.push_back(e);
    for (int k = 1; k <= rank; ++k) ws.push_back(kernel[k]);
    nn::ConvOptions o{std::vector<int64_t>(rank, stride), std::vector<int64_t>(rank, pad), std::vector<int64_t>(rank, 1), 1};
    Tensor out = nn::conv(input("x", F, xs), input("weight", F, ws), input("bias", F, {kernel[0]}), o);
    return {fmt::format("conv{}d", rank), Graph({out}), {"x", "weight", "bias"}, {},
            fmt::format("x {}, weight {}, bias [{}] -> out {}; stride {}, pad {}", dims_str(x), shape_str(ws), kernel[0],
                        shape_str(out.shape()), stride, pad)};
}

Bindings bind_family(const Family &f, const std::map<std::string, std::vector<int64_t>> &input_shapes) {
    Bindings b;
    for (const auto &[sym, src] : f.dims) {
        auto it = input_shapes.find(src.input);
        if (it == input_shapes.end()) throw BufferError(fmt::format("{}: input '{}' is missing", f.name, src.input));
        const auto &shape = it->second;
        if (int(shape.size()) <= src.axis) {
            throw BufferError(fmt::format("{}: input '{}' has shape {}, needs at least {} axes ({})", f.name,
                                          src.input, dims_str(shape), src.axis + 1, f.contract));
        }
        b[sym] = shape[src.axis];
    }
    return b;
}

}  // namespace halogen
