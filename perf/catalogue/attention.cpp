// perf's catalogue of the attention (catalogue.h), Llama-3.2-1B's shape (H = 32 query heads over
// G = 8 KV heads of D = 64): a decode step (T = 1) over a cache of 1024 positions, and over caches
// of 1024 and 8192 from DRAM, whose goals hold the default against the DRAM read bandwidth beside
// the T = 1 schedule `decode`; a causal prefill of 2048 tokens, whose goal holds it against the
// FMA peak beside the unfused graph; and 77 queries at position 223 of odd extents (quick).
#include <string>

#include "frontend/nn/attention.h"
#include "perf/catalogue/catalogue.h"

namespace halogen::perf {

namespace {

CaseArgs shape(int64_t T, int64_t S, int64_t H = 32, int64_t G = 8) {
    return {{"t", std::to_string(T)}, {"s", std::to_string(S)}, {"heads", std::to_string(H)},
            {"kv-heads", std::to_string(G)}, {"head-dim", "64"}};
}

// A goal: the limit it is held against and the variant timed beside the default.
Benchmark goal(CaseArgs args, bool dram, const std::string &limit, const std::string &variant) {
    Benchmark b(std::move(args), {"perf", "goal"}, dram);
    b.goal_limits = {limit};
    b.goal_variants = {variant};
    return b;
}

std::vector<Benchmark> attention(const Family &) {
    return {Benchmark(shape(1, 1024), {"perf", "quick"}),
            goal(shape(1, 1024), true, "read-dram", "decode"),
            goal(shape(1, 8192), true, "read-dram", "decode"),
            goal(shape(2048, 2048), false, "fma", "naive"),
            Benchmark(shape(77, 300, 12, 4), {"quick"})};
}

const RegisterCatalogue registered(nn::ops::kAttention, {attention, nullptr});

}  // namespace

}  // namespace halogen::perf
