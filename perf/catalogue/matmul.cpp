// perf's catalogue of the matmuls (catalogue.h), on Llama-3.2-1B's projections (D = 2048, the
// MLP's H = 8192, the lm_head's 128256 outputs). A linear: decode (M = 1), a few tokens
// (speculative decoding, small batches) and prefill through the MLP's up and down projections,
// the lm_head at 1 and 16 tokens, the square attention projection; up to 16 tokens the weights
// come from DRAM, as in a model, except the square one at decode (16 MiB in float32: the in-cache
// figure). Its goals hold a GEMV against the DRAM read bandwidth, a GEMM against the FMA peak, and
// a few tokens against both (the slower of reading the weights and doing the FMAs bounds them).
// The packing: the MLP's and the lm_head's weights.
#include <string>
#include <utility>

#include "frontend/nn/linear.h"
#include "perf/catalogue/catalogue.h"

namespace halogen::perf {

namespace {

constexpr int64_t kDim = 2048, kHidden = 8192, kVocab = 128256;

Benchmark projection(int64_t M, int64_t K, int64_t N, std::set<std::string> grids, bool dram = false) {
    Benchmark b({{"m", std::to_string(M)}, {"k", std::to_string(K)}, {"n", std::to_string(N)}}, std::move(grids), dram);
    if (dram) b.goal_limits.push_back("read-dram");
    if (M >= 128 || (dram && M > 1)) b.goal_limits.push_back("fma");
    return b;
}

std::vector<Benchmark> linear(const Family &) {
    std::vector<Benchmark> out;
    for (const auto &[K, N] : {std::pair<int64_t, int64_t>{kDim, kHidden}, {kHidden, kDim}}) {
        for (int64_t M : {1, 4, 8, 16, 128, 512}) {
            std::set<std::string> grids = {"perf"};
            if (M != 8) grids.insert("goal");
            out.push_back(projection(M, K, N, grids, M <= 16));
        }
    }
    out.push_back(projection(1, kDim, kVocab, {"perf", "goal"}, true));
    out.push_back(projection(16, kDim, kVocab, {"perf"}, true));
    out.push_back(projection(1, kDim, kDim, {"perf", "quick"}));
    out.push_back(projection(128, kDim, kDim, {"perf"}));
    return out;
}

std::vector<Benchmark> pack_panels(const Family &) {
    auto weights = [](int64_t K, int64_t N, std::set<std::string> grids) {
        return Benchmark({{"k", std::to_string(K)}, {"n", std::to_string(N)}}, std::move(grids));
    };
    return {weights(kDim, kHidden, {"perf", "goal", "quick"}), weights(kDim, kVocab, {"perf"})};
}

const RegisterCatalogue linear_catalogue(nn::ops::kLinear, {linear, nullptr});
const RegisterCatalogue pack_catalogue(nn::ops::kPackPanels, {pack_panels, nullptr});

}  // namespace

}  // namespace halogen::perf
