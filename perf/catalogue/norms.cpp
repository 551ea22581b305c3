// perf's catalogue of the norms (catalogue.h). LayerNorm and RMSNorm: a transformer's activations
// (8 x 512 and 2048 tokens of 4096), and 128 to 3072 rows for the streaming-store sweep; BatchNorm
// and GroupNorm: a ResNet stage's 8 x 256 x 56 x 56. Each goal holds the kernel against the
// machine's streaming y = a*x + b (limit "stream") beside the peers.
#include <string>

#include "frontend/nn/batch_norm.h"
#include "frontend/nn/group_norm.h"
#include "frontend/nn/layer_norm.h"
#include "frontend/nn/rms_norm.h"
#include "perf/catalogue/catalogue.h"

namespace halogen::perf {

namespace {

// x's shape; the goal's machine limit is the streaming y = a*x + b.
Benchmark shape(const std::string &x, std::set<std::string> grids) {
    Benchmark b({{"shape", x}}, std::move(grids));
    b.goal_limits = {"stream"};
    return b;
}

std::vector<Benchmark> row_norms(const Family &) {
    std::vector<Benchmark> out = {shape("8x512x4096", {"perf", "goal"}), shape("1x2048x4096", {"perf", "goal", "quick"})};
    // Where streaming stores start to pay: 2 to 48 MiB of output.
    for (int rows : {128, 256, 512, 768, 1024, 1536, 2048, 3072}) out.push_back(shape("1x" + std::to_string(rows) + "x4096", {"sweep"}));
    return out;
}

std::vector<Benchmark> channel_norms(const Family &f) {
    std::set<std::string> grids = {"perf", "goal"};
    if (f.op == nn::ops::kGroupNorm) grids.insert("quick");
    return {shape("8x256x56x56", grids)};
}

const RegisterCatalogue layer_norm(nn::ops::kLayerNorm, {row_norms, nullptr});
const RegisterCatalogue rms_norm(nn::ops::kRmsNorm, {row_norms, nullptr});
const RegisterCatalogue batch_norm(nn::ops::kBatchNormInference, {channel_norms, nullptr});
const RegisterCatalogue group_norm(nn::ops::kGroupNorm, {channel_norms, nullptr});

}  // namespace

}  // namespace halogen::perf
