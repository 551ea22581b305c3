// perf's catalogue of the convolutions (catalogue.h): a layer of each rank's typical network, as
// the AOT kernels take it (3-wide windows, stride 1, padding 1) -- a 1-D sequence model's
// 8 x 256 x 1024, ResNet's 56 x 56 stage at batch 1 and 8, a video model's 16 x 56 x 56. The goals
// hold at 2 threads, against oneDNN's convolutions (on the caller's layout and on its own).
#include <string>

#include "frontend/nn/conv.h"
#include "perf/catalogue/catalogue.h"

namespace halogen::perf {

namespace {

std::vector<Benchmark> conv(const Family &f) {
    const std::size_t spatial = f.graph().outputs().at(0).rank() - 2;
    std::vector<Benchmark> out;
    auto layer = [&](const std::string &x, const std::string &kernel, std::set<std::string> grids) {
        Benchmark b({{"shape", x}, {"kernel", kernel}}, std::move(grids));
        b.goal_threads = {2};
        out.push_back(b);
    };
    if (spatial == 1) layer("8x256x1024", "256x3", {"perf", "goal"});
    if (spatial == 2) {
        layer("1x64x56x56", "64x3x3", {"perf", "goal", "quick"});
        layer("8x64x56x56", "64x3x3", {"perf", "goal"});
    }
    if (spatial == 3) layer("1x32x16x56x56", "32x3x3x3", {"perf", "goal"});
    return out;
}

const RegisterCatalogue registered(nn::ops::kConv,
                                   {conv, [](const std::string &op) { return op.rfind("onednn:conv (", 0) == 0; }});

}  // namespace

}  // namespace halogen::perf
