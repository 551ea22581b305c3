// The conv families' graphs and cases (conv.h).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/conv.h"
#include "frontend/primitives.h"
#include "frontend/random_arrays.h"
#include "schedules/case_args.h"
#include "schedules/conv/conv.h"

namespace halogen::conv {

namespace {

const DType F = DType::Float32;
const char *const kSpatial[] = {"L1", "L2", "L3"};

Family conv_family(int rank, const Tensor &x, const Tensor &w, const Tensor &bias, const nn::ConvOptions &o);

// x [N, C, L..], weight [K, C, R..], bias [K]; for `jit`, every extent constant.
Family build(int rank, const Shape &xs, const Shape &ws, const Dim &K, const nn::ConvOptions &o) {
    return conv_family(rank, input("x", F, xs), input("weight", F, ws), input("bias", F, {K}), o);
}

void check_geometry(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride, int64_t pad) {
    if (x.size() < 3 || x.size() > 5 || kernel.size() != x.size() - 1 || stride < 1 || pad < 0) {
        throw ShapeError(fmt::format("conv: needs x [N, C, L1..Ln] (n = 1..3), kernel [K, R1..Rn], stride >= 1, "
                                     "pad >= 0; got x {}, kernel {}, stride {}, pad {}",
                                     dims_str(x), dims_str(kernel), stride, pad));
    }
}

Case make_case(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride, int64_t pad) {
    check_geometry(x, kernel, stride, pad);
    const int rank = int(x.size()) - 2;
    bool shipped = stride == 1 && pad == 1;
    for (std::size_t a = 1; a < kernel.size(); ++a) shipped = shipped && kernel[a] == 3;
    Case c;
    c.family = fmt::format("conv{}d", rank);
    c.label = fmt::format("{},k={}{}", shape_label(x), shape_label(kernel),
                          shipped ? "" : fmt::format(",stride={},pad={}", stride, pad));
    if (!shipped) c.jit = geometry(x, kernel, stride, pad);
    std::vector<int64_t> out = {x[0], kernel[0]};
    for (std::size_t a = 2; a < x.size(); ++a) {
        const int64_t o = (x[a] + 2 * pad - kernel[a - 1]) / stride + 1;
        if (x[a] + 2 * pad < kernel[a - 1]) {
            throw ShapeError(fmt::format("conv: window {} larger than x {} padded by {}", dims_str(kernel), dims_str(x), pad));
        }
        out.push_back(o);
    }
    double in = 1, points = 1, window = double(x[1]);
    for (int64_t e : x) in *= double(e);
    for (int64_t e : out) points *= double(e);
    for (std::size_t a = 1; a < kernel.size(); ++a) window *= double(kernel[a]);
    c.flops = 2 * points * window;
    c.bytes = 4 * (in + points + double(kernel[0]) * window);   // x, out and the weights, once each
    c.interpreter_work = 4 * points * window;                   // windows and products are materialized
    c.tolerance = 1e-3 * std::sqrt(window);
    const double flops = c.flops;
    c.work = [flops](const Variant &) { return si_number(flops) + " FLOP"; };
    // An eighth of the first spatial axis (at least one window), over the same memory.
    c.probe = [x, kernel, out, stride, pad](const CaseInputs &in, const Variant &) {
        std::vector<int64_t> xs = x, os = out;
        xs[2] = std::max(kernel[1], x[2] / 8);
        os[2] = (xs[2] + 2 * pad - kernel[1]) / stride + 1;
        Probe p;
        p.refs = in.refs;
        p.refs.at("x").shape = xs;
        p.out_shape = os;
        p.scale = double(out[2]) / double(std::max<int64_t>(1, os[2]));
        return p;
    };
    c.make = [x, kernel, out] {
        std::vector<int64_t> w = {kernel[0], x[1]};
        w.insert(w.end(), kernel.begin() + 1, kernel.end());
        CaseInputs in;
        auto add = [&](const char *name, std::vector<int64_t> s, uint32_t seed) {
            auto a = std::make_shared<Array>(random_floats(std::move(s), seed));
            in.refs.emplace(name, a->ref());
            in.owners.push_back(a);
        };
        add("x", x, 1);
        add("weight", w, 2);
        add("bias", {kernel[0]}, 3);
        in.out_shape = out;
        return in;
    };
    return c;
}

Family conv_family(int rank, const Tensor &x, const Tensor &w, const Tensor &bias, const nn::ConvOptions &o) {
    Family f;
    f.name = fmt::format("conv{}d", rank);
    f.home = "conv";
    f.op = nn::ops::kConv;
    f.contract = Contract(f.name, Graph({nn::conv(x, w, bias, o)}), {{"x", ""}, {"weight", ""}, {"bias", ""}});
    f.notes = "AOT: 3-wide windows, stride 1, padding 1; another window, --stride or --pad is JIT-compiled";
    f.options = {{"shape", "x's shape N x C x L1..Ln, e.g. 1x64x56x56"},
                 {"kernel", "K x R1..Rn: output channels, window (default C x 3..)"},
                 {"stride", "stride on every spatial axis (default 1; other than 1 JIT-compiles)"},
                 {"pad", "zero padding on every spatial axis (default 1)"}};
    f.parameters = {{"stride", "", "stride on every spatial axis (default 1; another JIT-compiles)"},
                    {"pad", "", "zero padding on every spatial axis (default 1; another JIT-compiles)"}};
    f.other_geometry = [](const std::map<std::string, std::vector<int64_t>> &shapes,
                          const CaseArgs &params) -> std::shared_ptr<const Family> {
        const std::vector<int64_t> &x = shapes.at("x"), &w = shapes.at("weight");
        const int64_t stride = arg_int(params, "stride", 1), pad = arg_int(params, "pad", 1);
        bool shipped = stride == 1 && pad == 1 && w.size() == x.size();
        for (std::size_t a = 2; shipped && a < w.size(); ++a) shipped = w[a] == 3;
        if (shipped) return nullptr;
        if (w.size() != x.size() || x.size() < 3) return nullptr;   // the contract names what is wrong
        std::vector<int64_t> kernel = {w[0]};
        kernel.insert(kernel.end(), w.begin() + 2, w.end());
        return geometry(x, kernel, stride, pad);
    };
    f.cases = [rank](const CaseArgs &args) {
        std::vector<int64_t> x = arg_shape(args, "shape", {});
        if (x.empty()) throw ShapeError("conv: --shape N x C x L1..Ln is needed with --kernel, --stride or --pad");
        if (int(x.size()) != rank + 2) return std::vector<Case>{};   // another conv family's shape
        std::vector<int64_t> k = {x[1]};
        k.insert(k.end(), rank, 3);
        k = arg_shape(args, "kernel", k);
        return std::vector<Case>{make_case(x, k, arg_int(args, "stride", 1), arg_int(args, "pad", 1))};
    };
    return f;
}

Family shipped(int rank) {
    const Dim N = Dim::sym("N"), C = Dim::sym("C"), K = Dim::sym("K");
    Shape xs = {N, C}, ws = {K, C};
    for (int k = 0; k < rank; ++k) {
        xs.push_back(Dim::sym(kSpatial[k]));
        ws.push_back(3);
    }
    nn::ConvOptions o{std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1), std::vector<int64_t>(rank, 1), 1};
    Family f = build(rank, xs, ws, K, o);
    f.typical = {{"N", 8}, {"C", 256}, {"K", 256}, {"L1", 1024}};
    if (rank == 2) f.typical = {{"N", 1}, {"C", 64}, {"K", 64}, {"L1", 56}, {"L2", 56}};
    if (rank == 3) f.typical = {{"N", 1}, {"C", 32}, {"K", 32}, {"L1", 16}, {"L2", 56}, {"L3", 56}};
    // compare's: a layer of each rank's typical network, as the AOT kernels take it (3-wide
    // windows, stride 1, padding 1).
    const char *const shapes[] = {"8x256x1024", "1x64x56x56", "1x32x16x56x56"};
    f.compare_cases = {{{"shape", shapes[rank - 1]}}};
    std::string tiny = "1x2", kernel = "2";
    for (int k = 0; k < rank; ++k) tiny += "x4", kernel += "x3";
    f.tiny_case = {{"shape", tiny}, {"kernel", kernel}};
    return f;
}

}  // namespace

Family conv1d() { return shipped(1); }
Family conv2d() { return shipped(2); }
Family conv3d() { return shipped(3); }

std::shared_ptr<const Family> geometry(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel,
                                       int64_t stride, int64_t pad) {
    check_geometry(x, kernel, stride, pad);
    const int rank = int(x.size()) - 2;
    Shape xs, ws = {kernel[0], x[1]};
    for (int64_t e : x) xs.push_back(e);
    for (int k = 1; k <= rank; ++k) ws.push_back(kernel[k]);
    nn::ConvOptions o{std::vector<int64_t>(rank, stride), std::vector<int64_t>(rank, pad), std::vector<int64_t>(rank, 1), 1};
    auto f = std::make_shared<Family>(build(rank, xs, ws, kernel[0], o));
    f->notes = fmt::format("stride {}, padding {}", stride, pad);
    f->typical = {};
    return f;
}

}  // namespace halogen::conv
