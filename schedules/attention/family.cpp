// The attention family's graph, layouts and cases (attention.h). By default Llama-3.2-1B's shape:
// H = 32 query heads over G = 8 KV heads of D = 64, a decode step (T = 1) over a cache of 1024
// positions.
#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/attention.h"
#include "frontend/primitives.h"
#include "frontend/random_arrays.h"
#include "schedules/attention/attention.h"
#include "schedules/case_args.h"
#include "schedules/dram_copies.h"

namespace halogen::attention {

namespace {

const DType F = DType::Float32;

struct Shape {
    int64_t T, S, H, G, D;
    int64_t p0() const { return S - T; }
    // Query-key pairs the causal mask leaves: query t sees p0 + t + 1 keys.
    double visible_pairs() const { return double(T) * double(p0() + 1) + double(T) * double(T - 1) / 2; }
};

void check(const Shape &s) {
    if (s.T < 1 || s.S < s.T || s.G < 1 || s.H < 1 || s.D < 1 || s.H % s.G != 0) {
        throw ShapeError(fmt::format("attention: needs 1 <= T <= S and H a multiple of G, got T={}, S={}, H={}, G={}, D={}",
                                     s.T, s.S, s.H, s.G, s.D));
    }
}

// The cache from DRAM (`dram`): the case cycles through dram_copies() of k and v, and its label
// says so; otherwise every call reads the same cache, which stays cached when it fits.
Case make_case(const Shape &s, bool dram) {
    check(s);
    Case c;
    c.family = "attention";
    c.label = fmt::format("T={},S={},H={},G={},D={}", s.T, s.S, s.H, s.G, s.D);
    const double cache_bytes = 4.0 * 2.0 * double(s.S * s.G * s.D);
    const int64_t copies = dram ? dram_copies(cache_bytes) : 1;
    if (dram) c.label += ",dram";
    // Two multiply-adds per visible pair and head dim (q.k, p.v); the masked half is not counted.
    c.flops = 4.0 * s.visible_pairs() * double(s.H) * double(s.D);
    c.bytes = 4.0 * (2.0 * double(s.S * s.G * s.D) + 2.0 * double(s.T * s.H * s.D));
    c.interpreter_work = 6.0 * double(s.T) * double(s.S) * double(s.H) * double(s.D);
    // Outputs are averages of values in [-1, 1); a float32 kernel differs from the reference by
    // ulps of the sums (~1e-7 at these sizes); a dropped or extra key moves an output by ~1/S.
    c.tolerance = 2e-5;
    const double flops = c.flops, bytes = c.bytes;
    c.work = [flops, bytes](const Variant &) { return si_number(flops) + "FLOP " + si_number(bytes) + "B"; };
    // A smaller call over the same memory, which `halogen compare --budget` and perf time first: an
    // eighth of the queries and of the positions before them (at least one query), scaled by the
    // query-key pairs the causal mask leaves.
    c.probe = [s](const CaseInputs &in, const Variant &) {
        Shape small = s;
        small.T = std::max<int64_t>(1, s.T / 8);
        small.S = small.T + s.p0() / 8;
        Probe p;
        p.refs = in.refs;
        p.refs.at("q").shape = {small.T, s.H, s.D};
        p.refs.at("k").shape = {s.G, small.S, s.D};
        p.refs.at("v").shape = {s.G, small.S, s.D};
        p.out_shape = {small.T, s.H * s.D};
        p.scale = s.visible_pairs() / small.visible_pairs();
        return p;
    };
    c.make = [s, copies] {
        CaseInputs in;
        auto add = [&](const char *name, std::vector<int64_t> shape, uint32_t seed) {
            auto a = std::make_shared<Array>(random_floats(std::move(shape), seed));
            in.refs.emplace(name, a->ref());
            in.owners.push_back(a);
            return a;
        };
        add("q", {s.T, s.H, s.D}, 1);
        const std::shared_ptr<Array> k = add("k", {s.G, s.S, s.D}, 2), v = add("v", {s.G, s.S, s.D}, 3);
        in.out_shape = {s.T, s.H * s.D};
        for (int64_t copy = 0; copies > 1 && copy < copies; ++copy) {
            in.buffer_sets.push_back(in.refs);
            if (copy == 0) continue;
            for (const auto &[name, from] : {std::pair{"k", k}, std::pair{"v", v}}) {
                auto a = std::make_shared<Array>(*from);   // the same values in memory of its own
                in.buffer_sets.back().at(name) = a->ref();
                in.owners.push_back(a);
            }
        }
        return in;
    };
    return c;
}

// The case of compare's flags, its cache from DRAM or not.
std::vector<Case> cases(const CaseArgs &args, bool dram) {
    Shape s;
    s.T = arg_int(args, "t", 1);
    const int64_t start = arg_int(args, "start", -1);
    s.S = arg_int(args, "s", start >= 0 ? start + s.T : 1024);
    if (start >= 0 && start != s.S - s.T) {
        throw ShapeError(fmt::format("attention: --start {} with --t {} needs --s {}, got {}", start, s.T, start + s.T, s.S));
    }
    s.H = arg_int(args, "heads", 32);
    s.G = arg_int(args, "kv-heads", 8);
    s.D = arg_int(args, "head-dim", 64);
    return {make_case(s, dram)};
}

}  // namespace

Family family() {
    const Dim T = Dim::sym("T"), S = Dim::sym("S"), G = Dim::sym("G"), R = Dim::sym("R"), D = Dim::sym("D");
    Tensor out = nn::attention(input("q", F, {T, G, R, D}), input("k", F, {G, S, D}), input("v", F, {G, S, D}));
    Family f;
    f.name = "attention";
    f.home = "attention";
    f.op = nn::ops::kAttention;
    f.contract = Contract("attention", Graph({out}),
                          {{"k", "[G, S, D]"}, {"v", "[G, S, D]"}, {"q", "[T, G*R, D]"}, {"out", "[T, G*R*D]"}});
    f.typical = {{"T", 2048}, {"S", 2048}, {"G", 8}, {"R", 4}, {"D", 64}};
    f.notes = "causal, grouped-query; the queries sit at the cache's last T positions (p0 = S - T)";
    f.options = {{"t", "query tokens T (default 1)"},
                 {"s", "cache positions S >= T (default start + T, or 1024)"},
                 {"start", "the first query's position p0 = S - T (default S - T)"},
                 {"heads", "query heads H (default 32)"},
                 {"kv-heads", "KV heads G, dividing H (default 8)"},
                 {"head-dim", "head dim D (default 64)"}};
    f.cases = [](const CaseArgs &args) { return cases(args, false); };
    f.dram_cases = [](const CaseArgs &args) { return cases(args, true); };
    // A decode step, and 77 queries at position 223 of small odd extents.
    f.compare_cases = {{}, {{"t", "77"}, {"s", "300"}, {"heads", "12"}, {"kv-heads", "4"}}};
    f.tiny_case = {{"t", "3"}, {"s", "5"}, {"heads", "6"}, {"kv-heads", "2"}, {"head-dim", "16"}};
    return f;
}

}  // namespace halogen::attention
