// The attention family (schedules/attention/): every registered variant, the AOT kernel the build
// made of it, on the caller's layouts (q [T, H, D], k and v [G, S, D] -> out [T, H*D]) against
//   - a direct double-precision loop, on shapes with T = 1 and T > 1, p0 = 0 and p0 > 0, S odd
//     (a multiple of no tile), H/G in {1, 3, 4} and head dims 16 and 64;
//   - the reference interpreter (schedules/reference.h) on one shape;
//   - PyTorch's composite (tests/fixtures/attention_*.json, made by tests/fixtures/generate.py);
// and: decode equals prefill (the last query alone over the cache gives the last row of a T-token
// prefill within 1e-6); rows whose scores overflow to -inf stay finite (equal scores: the plain
// average of the visible values); a call whose H is not a multiple of G is refused; `fused`'s
// lowered statement holds the scores and exp of visible keys only, P.V's block loops of their own
// sizes, and one transpose of k per call.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <regex>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/program.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/expect_error.h"
#include "tests/support/fixtures.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
const DType F = DType::Float32;

struct Problem {
    int64_t T, S, H, G, D;
    int64_t p0() const { return S - T; }
};

std::string label(const Problem &p) {
    return "T=" + std::to_string(p.T) + ",S=" + std::to_string(p.S) + ",H=" + std::to_string(p.H) +
           ",G=" + std::to_string(p.G) + ",D=" + std::to_string(p.D);
}

Array random_array(std::vector<int64_t> shape, uint32_t seed, float scale = 1) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-scale, scale);
    Array a(F, std::move(shape));
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, u(rng));
    return a;
}

struct Call {
    mutable Array q, k, v;   // [T, H, D], [G, S, D], [G, S, D] (mutable: a call reads their memory)
};

Call random_call(const Problem &p, uint32_t seed, float qk_scale = 2) {
    return {random_array({p.T, p.H, p.D}, seed, qk_scale), random_array({p.G, p.S, p.D}, seed + 1, qk_scale),
            random_array({p.G, p.S, p.D}, seed + 2)};
}

// out[t, h*D + i] in double: query h reads KV head h / (H/G); key s is visible to query t iff
// s <= p0 + t.
Array reference(const Problem &p, const Call &c) {
    const int64_t R = p.H / p.G;
    Array out(F, {p.T, p.H * p.D});
    for (int64_t t = 0; t < p.T; ++t)
        for (int64_t h = 0; h < p.H; ++h) {
            const int64_t g = h / R, last = p.p0() + t;
            std::vector<double> score(std::size_t(last + 1));
            double mx = -INFINITY;
            for (int64_t s = 0; s <= last; ++s) {
                double dot = 0;
                for (int64_t i = 0; i < p.D; ++i) {
                    dot += double(c.q.get((t * p.H + h) * p.D + i)) * double(c.k.get((g * p.S + s) * p.D + i));
                }
                score[std::size_t(s)] = dot / std::sqrt(double(p.D));
                mx = std::max(mx, score[std::size_t(s)]);
            }
            double sum = 0;
            for (double &e : score) sum += (e = std::exp(e - mx));
            for (int64_t i = 0; i < p.D; ++i) {
                double acc = 0;
                for (int64_t s = 0; s <= last; ++s) acc += score[std::size_t(s)] * c.v.get((g * p.S + s) * p.D + i);
                out.set(t * p.H * p.D + h * p.D + i, acc / sum);
            }
        }
    return out;
}

BufferRefs refs(const Call &c) { return {{"q", c.q.ref()}, {"k", c.k.ref()}, {"v", c.v.ref()}}; }

Array run(const std::string &variant, const Call &c) {
    Array out(F, {c.q.shape()[0], c.q.shape()[1] * c.q.shape()[2]});
    FamilyKernel::aot("attention", variant).run(refs(c), out.ref());
    return out;
}

std::vector<std::string> variant_names() {
    std::vector<std::string> names;
    for (const Variant &v : variants_of("attention")) names.push_back(v.name);
    return names;
}

const std::vector<Problem> kProblems = {
    {1, 1, 4, 1, 16},      // one key
    {1, 37, 12, 4, 64},    // decode, R = 3
    {5, 5, 4, 1, 16},      // prefill from position 0, R = 4
    {19, 83, 8, 2, 64},    // p0 = 64, R = 4
    {70, 131, 6, 6, 16},   // R = 1, p0 = 61
    {33, 300, 12, 4, 64},  // p0 = 267, R = 3
    {1, 517, 8, 2, 128},   // decode over three chunks of keys, the last one partial, D = 128
    {12, 45, 8, 2, 128},   // prefill with D = 128: a q.k tile of 8 queries and a partial one
    {10, 50, 4, 2, 64},    // R = 2 (P.V's tiles take a query's R heads together for R = 2 to 4)
    {2, 90, 6, 3, 128},    // R = 2, D = 128
};

// li2018's kernel sizes its buffers from the autoscheduler's split factors (up to ~7e7 elements),
// whatever the call's shape: seconds per call, most of it page faults. It runs the problems of
// kFewProblems (decode with R = 3, a prefill with p0 > 0 and R = 4) and the first PyTorch fixture;
// every other variant all of them.
bool seconds_per_call(const std::string &variant) { return variant == "li2018"; }
const std::vector<Problem> kFewProblems = {kProblems[1], kProblems[3]};

class AttentionVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(AttentionVariant, MatchesDoubleLoop) {
    uint32_t seed = 10;
    for (const Problem &p : seconds_per_call(GetParam()) ? kFewProblems : kProblems) {
        const Call c = random_call(p, seed += 3);
        EXPECT_TRUE(arrays_near(reference(p, c), run(GetParam(), c), 2e-6, 1e-5)) << label(p);
    }
}

TEST_P(AttentionVariant, MatchesInterpreter) {
    const Problem p{6, 23, 6, 2, 16};
    const Call c = random_call(p, 99);
    const Array want = interpret_call(find_family("attention"), refs(c));
    EXPECT_TRUE(arrays_near(want, run(GetParam(), c), 2e-6, 1e-5)) << label(p);
}

TEST_P(AttentionVariant, MatchesPyTorchFixtures) {
    int seen = 0;
    for (const std::string &path : testing::fixture_files(HALOGEN_FIXTURES_DIR)) {
        if (path.find("/attention_") == std::string::npos) continue;
        if (seconds_per_call(GetParam()) && seen == 1) return;
        const testing::Fixture fx = testing::load_fixture(path);
        // The fixture holds the nn op's shapes, q [T, G, R, D]; the family takes q [T, G*R, D].
        const std::vector<int64_t> qs = fx.inputs.at("q").shape();
        Call c{fx.inputs.at("q"), fx.inputs.at("k"), fx.inputs.at("v")};
        c.q = Array(F, {qs[0], qs[1] * qs[2], qs[3]});
        for (int64_t k = 0; k < c.q.size(); ++k) c.q.set(k, fx.inputs.at("q").get(k));
        const Array got = run(GetParam(), c);
        Array want(F, got.shape());
        for (int64_t k = 0; k < want.size(); ++k) want.set(k, fx.output.get(k));
        EXPECT_TRUE(arrays_near(want, got, fx.atol, fx.rtol)) << fx.name;
        ++seen;
    }
    EXPECT_EQ(seen, 5);
}

// The last query alone (T = 1 over the same cache) against the last row of the T-token call.
TEST_P(AttentionVariant, DecodeEqualsPrefill) {
    std::vector<Problem> problems = {Problem{19, 40, 12, 4, 64}, Problem{2, 2, 4, 1, 16}, Problem{77, 77, 6, 2, 64}};
    if (seconds_per_call(GetParam())) problems.resize(1);
    for (const Problem &p : problems) {
        const Call prefill = random_call(p, 7);
        Call decode{Array(F, {1, p.H, p.D}), prefill.k, prefill.v};
        const int64_t row = p.H * p.D;
        for (int64_t k = 0; k < row; ++k) decode.q.set(k, prefill.q.get((p.T - 1) * row + k));
        const Array all = run(GetParam(), prefill), last = run(GetParam(), decode);
        Array want(F, {1, row});
        for (int64_t k = 0; k < row; ++k) want.set(k, all.get((p.T - 1) * row + k));
        EXPECT_TRUE(arrays_near(want, last, 1e-6)) << label(p);
    }
}

// q = 1e20 and every key -1e20: each score overflows to -inf in float32, all equal after the clamp,
// so each output is the plain average of the visible value rows. And scores of +-1e30: finite.
TEST_P(AttentionVariant, OverflowingScoresStayFinite) {
    const Problem p{4, 9, 4, 2, 16};
    Call c = random_call(p, 5);
    for (int64_t k = 0; k < c.q.size(); ++k) c.q.set(k, 1e20);
    for (int64_t k = 0; k < c.k.size(); ++k) c.k.set(k, -1e20);
    const Array got = run(GetParam(), c);
    Array want(F, got.shape());
    const int64_t R = p.H / p.G;
    for (int64_t t = 0; t < p.T; ++t)
        for (int64_t h = 0; h < p.H; ++h)
            for (int64_t i = 0; i < p.D; ++i) {
                double mean = 0;
                const int64_t last = p.p0() + t;
                for (int64_t s = 0; s <= last; ++s) mean += c.v.get((h / R * p.S + s) * p.D + i);
                want.set((t * p.H + h) * p.D + i, mean / double(last + 1));
            }
    EXPECT_TRUE(arrays_near(want, got, 1e-6));

    Call huge = random_call(p, 6, 1e15f);
    const Array big = run(GetParam(), huge);
    for (int64_t k = 0; k < big.size(); ++k) ASSERT_TRUE(std::isfinite(big.get(k))) << k;
}

INSTANTIATE_TEST_SUITE_P(Attention, AttentionVariant, ::testing::ValuesIn(variant_names()),
                         [](const auto &info) { return info.param; });

TEST(AttentionContract, HeadsNotAMultipleOfKvHeads) {
    const Problem p{2, 4, 6, 4, 16};
    const Call c = random_call(p, 1);
    Array out(F, {2, 6 * 16});
    testing::expect_error<BufferError>(
        [&] { find_family("attention").contract.bind(refs(c), {out.ref()}); }, {"attention", "q"});
}

// A causal prefill computes the scores, their scaled and clamped logits and their exp only for the
// keys a task's queries see: the masked reductions read them at keys clamped to the mask
// (halide_gen/compiler/lower.cpp), so the buffers `fused` allocates per task span the visible keys,
// not the whole cache (k.extent.1). The logits have a buffer of their own: the max and exp read
// them rather than each deriving them again from the scores.
TEST(AttentionFused, ScoresLogitsAndExpSpanOnlyVisibleKeys) {
    const FamilyKernel k = FamilyKernel::jit("attention", "fused");
    const LoweredGraph &lg = k.program()->lowered(0);
    const LoopNest nest = loop_nest(lg);
    for (const char *name : {"attn_scores", "attn_logits", "attn_exp"}) {
        const std::string func = lg.func(name).name();
        const std::regex allocation("allocate " + func + R"(\[([^\]]*)\])");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(nest.stmt, m, allocation)) << name << " (" << func << ") is not allocated:\n" << nest.stmt;
        EXPECT_EQ(m[1].str().find("k.extent.1"), std::string::npos) << name << ": " << m[1];
    }
}

// P.V's register tiles (R = 2 to 4) walk keys in blocks of 128 and the one-row tile in blocks of
// 16 (schedules/attention/schedules.cpp, pv_in_registers). Each specialization's block loop must
// run over its own blocks, (S + 127) / 128 of them: when both splits shared one name, Halide gave
// the specialized loop the generic split's (S + 15) / 16 iterations, seven in eight of them empty.
TEST(AttentionFused, PvTilesLoopOverTheirOwnBlocks) {
    const FamilyKernel k = FamilyKernel::jit("attention", "fused");
    const LoopNest nest = loop_nest(k.program()->lowered(0));
    const auto has_loop = [&](const std::string &block) {   // the keys' block loop, named by its size
        return std::any_of(nest.loops.begin(), nest.loops.end(),
                           [&](const std::string &l) { return l.find(block) != std::string::npos; });
    };
    EXPECT_TRUE(has_loop("_b128")) << "no P.V block loop of 128 keys";
    EXPECT_TRUE(has_loop("_b16")) << "no P.V block loop of 16 keys";
    EXPECT_NE(nest.stmt.find("(k.extent.1 + 127)/128"), std::string::npos) << nest.stmt;
}

// From 8 queries on, q.k's register tiles read k transposed (`kt`, a wrapper of k's Func made by
// cloning the product q * k for the tiles: "<k>_in_..._clone_in_..."). It is made once per call,
// before the parallel loop over the tasks and only when T >= 8, not per task: every task of a KV
// head reads the same keys.
TEST(AttentionFused, TransposesKOncePerCall) {
    const FamilyKernel k = FamilyKernel::jit("attention", "fused");
    const LoweredGraph &lg = k.program()->lowered(0);
    const LoopNest nest = loop_nest(lg);
    const auto task = std::find_if(nest.loops.begin(), nest.loops.end(),
                                   [](const std::string &l) { return l.find(".task:parallel") != std::string::npos; });
    ASSERT_NE(task, nest.loops.end()) << "no parallel loop over the tasks";
    const size_t task_loop = nest.stmt.find("parallel (" + task->substr(0, task->find(':')));
    ASSERT_NE(task_loop, std::string::npos) << nest.stmt;
    const std::string before = nest.stmt.substr(0, task_loop), inside = nest.stmt.substr(task_loop);
    // k's Func name as a pattern: a name Halide made unique in this process ends in "$n".
    std::string k_name;
    for (const char c : lg.func("k").name()) k_name += c == '$' ? std::string(R"(\$)") : std::string(1, c);
    const std::string kt = "produce " + k_name + R"(_in_\S*_clone_in_)";
    EXPECT_TRUE(std::regex_search(before, std::regex(R"(if \(8 <= q\.extent\.3\) \{\s*)" + kt)))
        << "k is not transposed before the tasks, for T >= 8:\n" << before;
    EXPECT_FALSE(std::regex_search(inside, std::regex(kt))) << "a task transposes k:\n" << inside;
}

}  // namespace
}  // namespace halogen
