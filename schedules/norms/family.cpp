// The norms' graphs, layouts and cases (norms.h). Each kernel takes the caller's tensor viewed
// with the axes it does not care about collapsed (LayerNorm on 8x512x4096 runs as [4096, 4096]),
// as Halide's hannk app does with buffer descriptors.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/batch_norm.h"
#include "frontend/nn/group_norm.h"
#include "frontend/nn/layer_norm.h"
#include "frontend/nn/rms_norm.h"
#include "frontend/primitives.h"
#include "frontend/random_arrays.h"
#include "schedules/case_args.h"
#include "schedules/norms/norms.h"

namespace halogen::norms {

namespace {

constexpr int64_t kGroups = 32;   // GroupNorm's group count
const DType F = DType::Float32;

int64_t product(const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

bool row_norm_family(const std::string &family) { return family == "layernorm" || family == "rmsnorm"; }

// `shape` of the caller's x; every other input is per column (row norms) or per channel. `eps`
// (NaN: the family's default) and `groups` (GroupNorm) are the call's parameters.
Case make_case(const std::string &family, const std::vector<int64_t> &shape, double eps, int64_t groups) {
    const bool row_norm = row_norm_family(family);
    if (shape.size() < (row_norm ? 1u : 2u)) {
        throw ShapeError(fmt::format("{}: needs a shape {}, got [{}]", family, row_norm ? "[..., D]" : "N x C x spatial...",
                                     shape_label(shape)));
    }
    if (family == "groupnorm" && (groups < 1 || shape[1] % groups != 0)) {
        throw ShapeError(fmt::format("groupnorm: C = {} is not a multiple of {} groups", shape[1], groups));
    }
    Case c;
    c.family = family;
    c.label = shape_label(shape);
    if (!std::isnan(eps)) c.label += fmt::format(",eps={}", eps);
    if (family == "groupnorm" && groups != kGroups) c.label += fmt::format(",groups={}", groups);
    const double total = double(product(shape));
    c.bytes = 2.0 * total * 4;
    c.interpreter_work = 12.0 * total;
    c.work = [total](const Variant &) { return si_number(total) + " elems"; };
    // A sixteenth of the rows (row norms) or of the spatial extent, over the same memory.
    c.probe = [shape, row_norm](const CaseInputs &in, const Variant &) {
        const std::size_t axis = row_norm ? 0 : 2;
        std::vector<int64_t> small = shape;
        if (axis < small.size()) small[axis] = std::max<int64_t>(1, small[axis] / 16);
        Probe p;
        p.refs = in.refs;
        p.dims = in.dims;
        p.refs.at("x").shape = small;
        p.out_shape = small;
        p.scale = double(product(shape)) / double(std::max<int64_t>(1, product(small)));
        return p;
    };
    c.make = [family, shape, row_norm, eps, groups] {
        const std::vector<int64_t> per = {row_norm ? shape.back() : shape[1]};
        CaseInputs in;
        auto add = [&](const char *name, std::vector<int64_t> s, uint32_t seed, float lo = -1, float hi = 1) {
            auto a = std::make_shared<Array>(random_floats(std::move(s), seed, lo, hi));
            in.refs.emplace(name, a->ref());
            in.owners.push_back(a);
        };
        add("x", shape, 1);
        add("weight", per, 2);
        if (family != "rmsnorm") add("bias", per, 3);
        if (family == "batchnorm") {
            add("mean", per, 4);
            add("var", per, 5, 0.5f, 2.0f);
        }
        if (!std::isnan(eps)) add("eps", {}, 0, float(eps), float(eps));
        if (family == "groupnorm") in.dims["G"] = groups;
        in.out_shape = shape;
        return in;
    };
    return c;
}

Family norm_family(const std::string &name, const std::string &op, const Tensor &out,
                   const std::vector<std::pair<std::string, std::string>> &layouts, Bindings typical, double eps,
                   const std::string &notes) {
    Family f;
    f.name = name;
    f.home = "norms";
    f.op = op;
    f.contract = Contract(name, Graph({out}), layouts);
    f.contract.with_default("eps", eps);
    f.parameters.push_back({"eps", "eps", fmt::format("the epsilon added to the variance (default {})", eps)});
    f.typical = std::move(typical);
    f.notes = notes;
    f.options = {{"shape", "x's shape, e.g. 8x512x4096 ([..., D]) or 8x256x56x56 (N x C x spatial...)"},
                 {"eps", "the epsilon added to the variance (default: the family's)"}};
    if (name == "groupnorm") f.options.push_back({"groups", "the group count G, dividing C (default 32)"});
    const bool row_norm = row_norm_family(name);
    const std::vector<int64_t> shape = row_norm ? std::vector<int64_t>{8, 512, 4096} : std::vector<int64_t>{8, 256, 56, 56};
    f.cases = [name, shape](const CaseArgs &args) {
        return std::vector<Case>{make_case(name, arg_shape(args, "shape", shape), arg_double(args, "eps", NAN),
                                           arg_int(args, "groups", kGroups))};
    };
    f.compare_cases = {{{"shape", shape_label(shape)}}};
    f.tiny_case = {{"shape", row_norm ? "2x8" : "1x32x2"}};
    return f;
}

}  // namespace

Tensor eps() { return input("eps", F, {}); }

Family layernorm() {
    const Dim R = Dim::sym("R"), D = Dim::sym("D");
    Tensor out = nn::layer_norm(input("x", F, {R, D}), 1, input("weight", F, {D}), input("bias", F, {D}), eps());
    return norm_family("layernorm", nn::ops::kLayerNorm, out,
                       {{"x", "[*R, D]"}, {"weight", ""}, {"bias", ""}, {"eps", ""}, {"out", "[*R, D]"}},
                       {{"R", 4096}, {"D", 4096}}, 1e-5, "over the last axis");
}

Family rmsnorm() {
    const Dim R = Dim::sym("R"), D = Dim::sym("D");
    Tensor out = nn::rms_norm(input("x", F, {R, D}), input("weight", F, {D}), eps());
    return norm_family("rmsnorm", nn::ops::kRmsNorm, out,
                       {{"x", "[*R, D]"}, {"weight", ""}, {"eps", ""}, {"out", "[*R, D]"}},
                       {{"R", 4096}, {"D", 4096}}, 1e-6, "over the last axis");
}

Family batchnorm() {
    const Dim N = Dim::sym("N"), C = Dim::sym("C"), S = Dim::sym("S");
    auto c = [&](const char *n) { return input(n, F, {C}); };
    Tensor out = nn::batch_norm_inference(input("x", F, {N, C, S}), c("mean"), c("var"), c("weight"), c("bias"), eps());
    return norm_family("batchnorm", nn::ops::kBatchNormInference, out,
                       {{"x", "[N, C, *S]"}, {"mean", ""}, {"var", ""}, {"weight", ""}, {"bias", ""}, {"eps", ""},
                        {"out", "[N, C, *S]"}},
                       {{"N", 8}, {"C", 256}, {"S", 3136}}, 1e-5, "inference, running mean and var");
}

Family groupnorm() {
    // The kernel takes the channels split into [32, C/32] as it takes the spatial axes collapsed (a
    // free view of a dense buffer): in that layout the statistics fuse into the normalization's
    // kernel even with C symbolic (frontend/nn/group_norm.h).
    const Dim N = Dim::sym("N"), G = Dim::sym("G"), CG = Dim::sym("CG"), S = Dim::sym("S");
    Tensor out = nn::group_norm_grouped(input("x", F, {N, G, CG, S}), input("weight", F, {G, CG}),
                                        input("bias", F, {G, CG}), eps());
    Family f = norm_family("groupnorm", nn::ops::kGroupNorm, out,
                           {{"x", "[N, G*CG, *S]"}, {"weight", "[G*CG]"}, {"bias", "[G*CG]"}, {"eps", ""},
                            {"out", "[N, G*CG, *S]"}},
                           {{"N", 8}, {"G", kGroups}, {"CG", 8}, {"S", 3136}}, 1e-5, "G groups (--groups, default 32)");
    f.contract.with_parameter("G", kGroups);
    f.parameters.push_back({"groups", "G", "GroupNorm's group count G, which must divide the channels (default 32)"});
    return f;
}

}  // namespace halogen::norms
