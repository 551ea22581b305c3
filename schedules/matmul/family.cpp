// The matmul families' graphs, layouts and cases (matmul.h). Every graph is nn::linear, on the
// weights as given ([N, K]) or on packed panels seen as [N, K] again (nn::unpack_panels); the
// packing families are nn::pack_panels. A case is M tokens through a K -> N projection, by default
// Llama-3.2-1B's MLP up projection (K = 2048, N = 8192) at one token.
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/linear.h"
#include "frontend/primitives.h"
#include "frontend/views.h"
#include "frontend/random_arrays.h"
#include "schedules/case_args.h"
#include "schedules/dram_copies.h"
#include "schedules/matmul/matmul.h"

namespace halogen::matmuls {

namespace {

const DType F = DType::Float32;
constexpr int64_t kLlamaDim = 2048, kLlamaHidden = 8192;

enum class Kind { Plain, Bias, Pack, Packed };

struct Spec {
    std::string name;
    Kind kind;
    DType weight = F;   // the weights' element type (the packing's output too)
};

// Weights [N, K] or panels [N/32, K, 32] of random values in [-1, 1), made once while something
// holds them: the cases of one shape share them (the lm_head is 1 GiB in float32). Copy k > 0 holds
// the same values in memory of its own.
std::shared_ptr<Array> weights(const std::vector<int64_t> &shape, DType t, int64_t copy = 0) {
    static std::recursive_mutex mutex;
    static std::map<std::tuple<std::vector<int64_t>, DType, int64_t>, std::weak_ptr<Array>> made;
    std::lock_guard<std::recursive_mutex> lock(mutex);
    std::shared_ptr<Array> w = made[{shape, t, copy}].lock();
    if (w) return w;
    if (copy > 0) {
        w = std::make_shared<Array>(*weights(shape, t));
    } else if (shape.size() == 3) {   // panels: the weights [N, K] of the same shape, packed
        const int64_t P = shape[0], K = shape[1], N = P * kPanelRows;
        const std::shared_ptr<Array> rows = weights({N, K}, t);
        w = std::make_shared<Array>(t, shape);
        const std::size_t e = dtype_size(t);
        const auto *from = static_cast<const uint8_t *>(rows->ref().data);
        auto *to = static_cast<uint8_t *>(w->ref().data);
        for (int64_t n = 0; n < N; ++n) {
            for (int64_t k = 0; k < K; ++k) {
                std::memcpy(to + ((n / kPanelRows * K + k) * kPanelRows + n % kPanelRows) * e, from + (n * K + k) * e, e);
            }
        }
    } else if (t == F) {
        w = std::make_shared<Array>(random_floats(shape, 2));
    } else {
        const Array f = random_floats(shape, 2);
        w = std::make_shared<Array>(t, shape);
        for (int64_t k = 0; k < f.size(); ++k) w->set(k, f.data<float>()[k]);
    }
    made[{shape, t, copy}] = w;
    return w;
}

// The largest |error| a correct float32 kernel may show on inputs in [-1, 1): the K products summed
// in another order differ by some ulps of partial sums that grow as sqrt(K), over about sqrt(K)
// roundings (typically 4e-5 at K = 2048): 1e-6 * K leaves a margin of 10 or more, and is still
// below the size of one product (0.25 on average), which a kernel that drops one would miss by.
double tolerance(int64_t K) { return 1e-6 * double(K) + 1e-5; }

// Weights from DRAM (`dram`): the case cycles through dram_copies() of them, and its label says so;
// otherwise every call reads the same weights, which stay cached when they fit.
Case make_case(const Spec &s, int64_t M, int64_t K, int64_t N, bool dram) {
    const bool panels = s.kind == Kind::Pack || s.kind == Kind::Packed;
    if (panels && N % kPanelRows != 0) {
        throw ShapeError(fmt::format("{}: N = {} is not a multiple of {} (the rows of a panel)", s.name, N, kPanelRows));
    }
    Case c;
    c.family = s.name;
    c.label = s.kind == Kind::Pack ? fmt::format("K={},N={}", K, N) : fmt::format("M={},K={},N={}", M, K, N);
    const double wbytes = double(N) * double(K) * double(dtype_size(s.weight));
    const int64_t copies = dram ? dram_copies(wbytes) : 1;
    if (dram) c.label += ",dram";
    if (s.kind == Kind::Pack) {
        c.bytes = 2 * wbytes;
        c.interpreter_work = 3.0 * double(N) * double(K);
        c.tolerance = 0;   // a copy
        c.work = [N, K](const Variant &) { return si_number(double(N) * double(K)) + " copies"; };
    } else {
        c.flops = 2.0 * double(M) * double(N) * double(K);
        c.bytes = wbytes + 4.0 * (double(M) * double(K) + double(M) * double(N) + (s.kind == Kind::Bias ? double(N) : 0));
        c.interpreter_work = 3.0 * double(M) * double(N) * double(K);
        c.tolerance = tolerance(K);
        const double flops = c.flops, bytes = c.bytes;
        c.work = [flops, bytes](const Variant &) { return si_number(flops) + "FLOP " + si_number(bytes) + "B"; };
    }
    const std::string weight_name = s.kind == Kind::Packed ? "packed" : "weight";
    // A sixteenth of the weight rows (whole panels), over the same memory.
    c.probe = [=](const CaseInputs &in, const Variant &) {
        const int64_t n = std::max<int64_t>(kPanelRows, N / 16 / kPanelRows * kPanelRows);
        Probe p;
        p.refs = in.refs;
        p.dims = in.dims;
        BufferRef &w = p.refs.at(weight_name);
        if (s.kind == Kind::Packed) w.shape[0] = n / kPanelRows;
        else w.shape[0] = std::min(n, N);
        if (s.kind == Kind::Bias) p.refs.at("bias").shape[0] = std::min(n, N);
        p.out_shape = in.out_shape;
        if (s.kind == Kind::Pack) p.out_shape[0] = n / kPanelRows;
        else p.out_shape[1] = std::min(n, N);
        p.scale = double(N) / double(std::min(n, N));
        return p;
    };
    c.make = [=] {
        CaseInputs in;
        auto add = [&](const std::string &name, std::shared_ptr<Array> a) {
            in.refs.emplace(name, a->ref());
            in.owners.push_back(std::move(a));
        };
        if (s.kind == Kind::Pack) {
            add("weight", weights({N, K}, s.weight));
            in.out_shape = {N / kPanelRows, K, kPanelRows};
            return in;
        }
        add("x", std::make_shared<Array>(random_floats({M, K}, 1)));
        const std::vector<int64_t> shape = s.kind == Kind::Packed ? std::vector<int64_t>{N / kPanelRows, K, kPanelRows}
                                                                  : std::vector<int64_t>{N, K};
        add(weight_name, weights(shape, s.weight));
        if (s.kind == Kind::Bias) add("bias", std::make_shared<Array>(random_floats({N}, 3)));
        in.out_shape = {M, N};
        for (int64_t k = 0; copies > 1 && k < copies; ++k) {
            std::shared_ptr<Array> w = weights(shape, s.weight, k);
            in.buffer_sets.push_back(in.refs);
            in.buffer_sets.back().at(weight_name) = w->ref();
            in.owners.push_back(std::move(w));
        }
        return in;
    };
    return c;
}

Family make_family(const Spec &s) {
    const Dim M = Dim::sym("M"), K = Dim::sym("K"), N = Dim::sym("N"), P = Dim::sym("P");
    Family f;
    f.name = s.name;
    f.home = "matmul";
    f.op = s.kind == Kind::Pack ? nn::ops::kPackPanels : nn::ops::kLinear;
    Tensor x = input("x", F, {M, K});
    switch (s.kind) {
    case Kind::Plain:
        f.contract = Contract(s.name, Graph({nn::linear(x, input("weight", s.weight, {N, K}))}),
                              {{"x", "[*M, K]"}, {"weight", ""}, {"out", "[*M, N]"}});
        f.notes = "y = x W^T, W [N, K] as checkpoints store it";
        break;
    case Kind::Bias:
        f.contract = Contract(s.name, Graph({nn::linear(x, input("weight", s.weight, {N, K}), input("bias", F, {N}))}),
                              {{"x", "[*M, K]"}, {"weight", ""}, {"bias", ""}, {"out", "[*M, N]"}});
        f.notes = "y = x W^T + b, W [N, K] as checkpoints store it";
        break;
    case Kind::Pack:
        // The kernel takes W [32*P, K] as [P, 32, K] (a free view of the caller's buffer, as
        // GroupNorm takes its channels): an AOT kernel reads every symbolic dim off an axis.
        f.contract = Contract(s.name,
                              Graph({nn::pack_panels(reshape(input("weight", s.weight, {P, kPanelRows, K}), {P * kPanelRows, K}),
                                                     kPanelRows)}),
                              {{"weight", "[32*P, K]"}, {"out", "[P, K, 32]"}});
        f.notes = "packs W [N, K] into panels of 32 rows, once per weight; N must be a multiple of 32";
        break;
    case Kind::Packed:
        f.contract = Contract(s.name, Graph({nn::linear(x, nn::unpack_panels(input("packed", s.weight, {P, K, kPanelRows})))}),
                              {{"x", "[*M, K]"}, {"packed", "[P, K, 32]"}, {"out", "[*M, 32*P]"}});
        f.notes = fmt::format("y = x W^T, W packed by {} (N = 32*P)", s.weight == F ? "matmul_pack" : "matmul_pack_bf16");
        break;
    }
    if (s.weight == DType::BFloat16) f.notes += "; bfloat16 weights, float32 arithmetic";
    f.typical = {{"M", 128}, {"K", kLlamaDim}, {"N", kLlamaDim}, {"P", kLlamaDim / kPanelRows}};
    f.options = {{"m", "tokens M (default 1)"},
                 {"k", "input features K (default 2048)"},
                 {"n", "output features N (default 8192; a multiple of 32 for the packed families)"}};
    auto cases = [s](const CaseArgs &args, bool dram) {
        return std::vector<Case>{make_case(s, arg_int(args, "m", 1), arg_int(args, "k", kLlamaDim),
                                           arg_int(args, "n", kLlamaHidden), dram)};
    };
    f.cases = [cases](const CaseArgs &args) { return cases(args, false); };
    if (s.kind != Kind::Pack) f.dram_cases = [cases](const CaseArgs &args) { return cases(args, true); };
    // The MLP's up projection of one token; the packing of its weights, or the square attention
    // projection of a prefill's 128 tokens.
    const std::string D = std::to_string(kLlamaDim), H = std::to_string(kLlamaHidden);
    if (s.kind == Kind::Pack) {
        f.compare_cases = {{{"k", D}, {"n", H}}};
        f.tiny_case = {{"k", "5"}, {"n", std::to_string(2 * kPanelRows)}};
    } else {
        f.compare_cases = {{{"m", "1"}, {"k", D}, {"n", H}}, {{"m", "128"}, {"k", D}, {"n", D}}};
        f.tiny_case = {{"m", "3"}, {"k", "5"}, {"n", s.kind == Kind::Packed ? std::to_string(kPanelRows) : "7"}};
    }
    return f;
}

}  // namespace

Family matmul() { return make_family({"matmul", Kind::Plain}); }
Family linear() { return make_family({"linear", Kind::Bias}); }
Family pack() { return make_family({"matmul_pack", Kind::Pack}); }
Family pack_bf16() { return make_family({"matmul_pack_bf16", Kind::Pack, DType::BFloat16}); }
Family packed() { return make_family({"matmul_packed", Kind::Packed}); }
Family packed_bf16() { return make_family({"matmul_packed_bf16", Kind::Packed, DType::BFloat16}); }

}  // namespace halogen::matmuls
