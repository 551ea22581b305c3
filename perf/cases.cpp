// The benchmark grid (cases.h).
#include "perf/cases.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "halide_gen/aot_runner.h"
#include "halide_gen/host_caches.h"

namespace halogen::perf {

namespace {

std::vector<std::string> all_variants(const std::string &family) {
    std::vector<std::string> out;
    for (const AotKernel &k : aot_kernels()) {
        if (family == k.family) out.push_back(k.variant);
    }
    return out;
}

// One table for every embedding case: the vocabulary sweep reads a prefix of its rows.
std::shared_ptr<Array> llama_table() {
    static std::weak_ptr<Array> cached;
    std::shared_ptr<Array> t = cached.lock();
    if (!t) cached = t = std::make_shared<Array>(random_floats({128256, 4096}, 7));
    return t;
}

BenchCase embedding_case(int64_t V, int64_t T, bool fresh, std::vector<std::string> variants) {
    const int64_t D = 4096;
    BenchCase c;
    c.name = fmt::format("embedding:V={},D={},T={},ids={}", V, D, T, fresh ? "fresh" : "hot");
    c.family = "embedding";
    c.reference = "gather";
    c.variants = std::move(variants);
    c.bytes = 2.0 * double(T) * D * 4 + double(T) * 4;   // rows read, rows written, ids
    c.vocab = V;
    // Fresh ids: enough sets that one pass over them touches fresh_id_bytes() of rows, so a set's
    // rows have left every cache when its turn comes again.
    const int64_t row_bytes = D * 4;
    const int64_t rows = std::min(V, (fresh_id_bytes() + row_bytes - 1) / row_bytes);
    c.id_sets = fresh ? std::max<int64_t>(4, (rows + T - 1) / T) : 1;
    c.make = [V, T] { return embedding_inputs(llama_table(), T, V); };
    return c;
}

BenchCase norm_case(const std::string &op, std::vector<int64_t> shape, std::vector<std::string> variants) {
    BenchCase c;
    c.name = fmt::format("{}:{}", op, fmt::join(shape, "x"));
    c.family = op;
    c.reference = "fused";
    c.variants = std::move(variants);
    double total = 1;
    for (int64_t d : shape) total *= double(d);
    c.bytes = 2.0 * total * 4;
    c.make = [op, shape] { return norm_inputs(op, shape); };
    return c;
}

BenchCase conv_case(std::vector<int64_t> x, std::vector<int64_t> kernel, std::vector<std::string> variants) {
    BenchCase c;
    c.family = fmt::format("conv{}d", x.size() - 2);
    c.name = fmt::format("{}:{},k={}", c.family, fmt::join(x, "x"), fmt::join(kernel, "x"));
    c.reference = "tiled";
    c.variants = std::move(variants);
    double in = 1, points = double(kernel[0]), window = double(x[1]);
    for (int64_t e : x) in *= double(e);
    for (std::size_t a = 2; a < x.size(); ++a) points *= double(x[a]);    // stride 1, pad 1: same extents
    points *= double(x[0]);
    for (std::size_t a = 1; a < kernel.size(); ++a) window *= double(kernel[a]);
    c.flops = 2 * points * window;
    c.bytes = 4 * (in + points + double(kernel[0]) * window);              // x, out and the weights, once each
    c.make = [x, kernel] { return conv_inputs(x, kernel); };
    return c;
}

}  // namespace

int64_t fresh_id_bytes() { return std::max<int64_t>(int64_t(128) << 20, 2 * last_level_cache_bytes()); }

std::vector<BenchCase> benchmark_grid(bool quick) {
    std::vector<BenchCase> g;
    if (quick) {
        // One case per family group, the variant users run; enough to catch a 2x slowdown in a
        // few minutes of CI.
        g.push_back(embedding_case(128256, 128, true, {"gather"}));
        g.push_back(embedding_case(128256, 16, false, {"gather"}));
        g.push_back(norm_case("layernorm", {1, 2048, 4096}, {"fused"}));
        g.push_back(norm_case("rmsnorm", {1, 2048, 4096}, {"fused"}));
        g.push_back(norm_case("groupnorm", {8, 256, 56, 56}, {"fused"}));
        g.push_back(conv_case({1, 64, 56, 56}, {64, 3, 3}, {"tiled"}));
        return g;
    }
    for (int64_t T : {1, 16, 128, 2048}) {
        for (bool fresh : {false, true}) g.push_back(embedding_case(128256, T, fresh, all_variants("embedding")));
    }
    for (int64_t V : {1024, 4096, 16384, 65536}) g.push_back(embedding_case(V, 1, false, all_variants("embedding")));
    for (const char *op : {"layernorm", "rmsnorm"}) {
        g.push_back(norm_case(op, {8, 512, 4096}, all_variants(op)));
        g.push_back(norm_case(op, {1, 2048, 4096}, all_variants(op)));
    }
    for (const char *op : {"batchnorm", "groupnorm"}) g.push_back(norm_case(op, {8, 256, 56, 56}, all_variants(op)));
    g.push_back(conv_case({8, 256, 1024}, {256, 3}, all_variants("conv1d")));
    g.push_back(conv_case({1, 64, 56, 56}, {64, 3, 3}, all_variants("conv2d")));
    g.push_back(conv_case({8, 64, 56, 56}, {64, 3, 3}, all_variants("conv2d")));
    g.push_back(conv_case({1, 32, 16, 56, 56}, {32, 3, 3, 3}, all_variants("conv3d")));
    return g;
}

std::vector<BenchCase> goals_grid() {
    std::vector<BenchCase> g;
    for (BenchCase c : benchmark_grid(false)) {
        const bool conv = c.family.rfind("conv", 0) == 0;
        if (c.family == "embedding") {
            if (c.vocab != 128256) continue;   // the vocabulary sweep has no goal
            c.variants = {"gather"};
        } else {
            c.variants = {conv ? "tiled" : "fused"};
        }
        g.push_back(std::move(c));
    }
    return g;
}

bool goal_reference(const std::string &family, const std::string &impl) {
    if (family == "embedding") return impl == "libtorch:index_select";
    if (family.rfind("conv", 0) == 0) return impl.rfind("onednn:conv (", 0) == 0;
    return impl.find(":reorder") == std::string::npos;
}

std::vector<BenchCase> streaming_sweep_grid() {
    std::vector<BenchCase> g;
    for (int64_t rows : {128, 256, 512, 768, 1024, 1536, 2048, 3072}) {   // 16 KiB rows: 2 to 48 MiB out
        for (const char *op : {"layernorm", "rmsnorm"}) g.push_back(norm_case(op, {1, rows, 4096}, {"fused"}));
        for (bool fresh : {false, true}) g.push_back(embedding_case(128256, rows, fresh, {"gather"}));
    }
    return g;
}

}  // namespace halogen::perf
