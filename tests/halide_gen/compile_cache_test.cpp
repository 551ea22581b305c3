// The kernel cache's store (halide_gen/runtime/kernel_cache.h) and compile_graph on top of it
// (halide_gen/compiler/compile_cache.h): entries round-trip; a truncated entry, a flipped byte and
// another key's entry are each named; a folder that cannot be made is a reason, not an exception;
// a graph compiled into the cache runs as the JIT and the interpreter do, its second compile is a
// load, a damaged entry is reported and compiled again, and a cache turned off is never touched.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "frontend/random_arrays.h"
#include "halide_gen/compiler/compile_cache.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/runtime/kernel_cache.h"

namespace halogen {
namespace {

namespace fs = std::filesystem;

struct TempDir {
    TempDir() {
        char name[] = "/tmp/halogen-cache-test-XXXXXX";
        path = mkdtemp(name);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string path;
};

std::string read(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

void write(const std::string &path, const std::string &bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
}

TEST(KernelCacheStore, EntriesRoundTripAndDamageIsNamed) {
    TempDir dir;
    const KernelCache cache(dir.path);
    EXPECT_FALSE(cache.find("key one").kernel);
    EXPECT_EQ(cache.find("key one").problem, "");   // absent is no problem
    ASSERT_EQ(cache.store("key one", {"meta", std::string("lib\0rary", 8)}), "");
    CacheLookup hit = cache.find("key one");
    ASSERT_TRUE(hit.kernel);
    EXPECT_EQ(hit.kernel->metadata, "meta");
    EXPECT_EQ(hit.kernel->library, std::string("lib\0rary", 8));
    EXPECT_EQ(fs::directory_iterator(dir.path + "/kernels")->path().string(), cache.path_of("key one"));   // no temporary left

    const std::string path = cache.path_of("key one"), whole = read(path);
    for (std::size_t n : {std::size_t(0), std::size_t(7), std::size_t(20), whole.size() - 9, whole.size() - 1}) {
        write(path, whole.substr(0, n));
        const CacheLookup cut = cache.find("key one");
        EXPECT_FALSE(cut.kernel) << n;
        EXPECT_NE(cut.problem.find(n < 8 + 24 + 8 ? "truncated" : "bytes"), std::string::npos) << n << ": " << cut.problem;
    }
    for (std::size_t at : {std::size_t(40), whole.size() - 3}) {
        std::string flipped = whole;
        flipped[at] = char(flipped[at] ^ 0x10);
        write(path, flipped);
        EXPECT_EQ(cache.find("key one").problem, "checksum mismatch") << at;
    }
    ASSERT_EQ(cache.store("key two", {"m", "l"}), "");
    write(path, read(cache.path_of("key two")));   // key two's entry where key one's belongs
    EXPECT_EQ(cache.find("key one").problem, "holds another key (another target, Halide or halogen build)");
    write(path, std::string(100, 'x'));
    EXPECT_EQ(cache.find("key one").problem, "not a halogen kernel cache entry");
}

TEST(KernelCacheStore, AFolderThatCannotBeMadeIsAReason) {
    TempDir dir;
    write(dir.path + "/file", "x");
    const KernelCache cache(dir.path + "/file/cache");
    const std::string why = cache.store("k", {"m", "l"});
    EXPECT_NE(why.find("cannot create"), std::string::npos) << why;
    EXPECT_FALSE(cache.find("k").kernel);
}

TEST(KernelCacheStore, TheFolderComesFromTheFlagThenTheEnvironment) {
    EXPECT_EQ(KernelCache::default_dir("/given"), "/given");
    setenv("HALOGEN_CACHE_DIR", "/from/env", 1);
    EXPECT_EQ(KernelCache::default_dir(), "/from/env");
    unsetenv("HALOGEN_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    EXPECT_EQ(KernelCache::default_dir(), "/xdg/halogen");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(KernelCache::default_dir(), "/home/someone/.cache/halogen");
}

// A graph with a reduction, a symbolic dim and two outputs.
Graph small_graph() {
    Tensor x = input("x", DType::Float32, {Dim::sym("N"), 37});
    Tensor w = input("w", DType::Float32, {37});
    return Graph({sum(x * w, {1}), x + fconst(2)});
}

std::vector<Array> run(const CompiledGraph &p, Array x, Array w) {
    std::vector<Array> out = {Array(DType::Float32, {x.shape()[0]}), Array(DType::Float32, x.shape())};
    p.run({{"x", x.ref()}, {"w", w.ref()}}, {out[0].ref(), out[1].ref()});
    return out;
}

TEST(CompileGraph, ACachedGraphRunsAsTheJitAndLoadsTheSecondTime) {
    TempDir dir;
    std::vector<std::string> warnings;
    CompileCacheOptions options{true, dir.path, [&](const std::string &w) { warnings.push_back(w); }};
    const Graph g = small_graph();
    const Recipe recipe = Recipe::generic("simd");
    Array x = random_floats({5, 37}, 1), w = random_floats({37}, 2);

    const CompiledGraph first = compile_graph(g, recipe, options);
    ASSERT_EQ(first.from(), CompiledFrom::compiled) << (warnings.empty() ? "" : warnings[0]);
    const CompiledGraph second = compile_graph(small_graph(), recipe, options);
    EXPECT_EQ(second.from(), CompiledFrom::cache);
    EXPECT_EQ(second.kernel_count(), first.kernel_count());
    const CompiledGraph jit = compile_graph(g, recipe, {false, dir.path, {}});
    EXPECT_EQ(jit.from(), CompiledFrom::jit);
    EXPECT_TRUE(warnings.empty());

    const std::vector<Array> a = run(first, x, w), b = run(second, x, w), c = run(jit, x, w);
    const Array ref = interpret(g.outputs()[0], {{"x", x}, {"w", w}}, {{"N", 5}});
    for (int k = 0; k < 2; ++k) {
        for (int64_t i = 0; i < a[k].size(); ++i) {
            EXPECT_EQ(a[k].get(i), b[k].get(i)) << k << ", " << i;
            EXPECT_EQ(a[k].get(i), c[k].get(i)) << k << ", " << i;
        }
    }
    for (int64_t i = 0; i < 5; ++i) EXPECT_NEAR(a[0].get(i), ref.get(i), 1e-4) << i;

    // Another recipe or another graph is another entry.
    EXPECT_NE(compile_cache_key(g, recipe), compile_cache_key(g, Recipe::generic("none")));
    EXPECT_EQ(compile_graph(g, Recipe::generic("none"), options).from(), CompiledFrom::compiled);
}

TEST(CompileGraph, ADamagedEntryIsReportedAndCompiledAgain) {
    TempDir dir;
    std::vector<std::string> warnings;
    CompileCacheOptions options{true, dir.path, [&](const std::string &w) { warnings.push_back(w); }};
    const Recipe recipe = Recipe::generic("simd");
    ASSERT_EQ(compile_graph(small_graph(), recipe, options).from(), CompiledFrom::compiled);
    const std::string path = KernelCache(dir.path).path_of(compile_cache_key(small_graph(), recipe));
    const std::string whole = read(path);
    write(path, whole.substr(0, whole.size() / 3));
    const CompiledGraph again = compile_graph(small_graph(), recipe, options);
    EXPECT_EQ(again.from(), CompiledFrom::compiled);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(path + ": truncated"), std::string::npos) << warnings[0];
    EXPECT_EQ(compile_graph(small_graph(), recipe, options).from(), CompiledFrom::cache);
}

TEST(CompileGraph, ACacheTurnedOffIsNeverTouched) {
    TempDir dir;
    const CompiledGraph p = compile_graph(small_graph(), Recipe::generic("simd"), {false, dir.path + "/c", {}});
    EXPECT_EQ(p.from(), CompiledFrom::jit);
    EXPECT_FALSE(fs::exists(dir.path + "/c"));
}

}  // namespace
}  // namespace halogen
