// Tokenizer benchmarks (Google Benchmark): encoding throughput on English text on one thread, the
// time to load a llama3-sized tokenizer.json, and the time to read the same tokenizer back from
// its snapshot (tokenizer_snapshot.h: what later starts load). The tokenizer is random_tokenizer's llama3-style
// one at llama3's vocab size (128256 ids, about 1.6 merges per id), written to a temporary
// directory once; the text is the repository's README.md and docs/*.md joined and repeated to
// 4 MB. Goals (docs/tokenizer.md): encoding >= 20 MB/s, loading <= 150 ms.
//
//   build/perf/halogen_tokenizer_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tokenizer/random_tokenizer.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"
#include "tokenizer/tokenizer_snapshot.h"

namespace {

using namespace halogen;

constexpr int64_t kLlama3Vocab = 128256;
constexpr size_t kTextBytes = 4 << 20;

const std::string &tokenizer_dir() {
    static const std::string dir = [] {
        const auto d = std::filesystem::temp_directory_path() / ("halogen_tokenizer_bench_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        write_random_tokenizer(d.string(), kLlama3Vocab, 1);
        return d.string();
    }();
    return dir;
}

const std::string &english() {
    static const std::string text = [] {
        const std::filesystem::path root = HALOGEN_SOURCE_DIR;
        std::vector<std::filesystem::path> files{root / "README.md"};
        for (const auto &e : std::filesystem::directory_iterator(root / "docs"))
            if (e.path().extension() == ".md") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        std::string all;
        for (const auto &f : files) {
            std::ifstream in(f);
            std::stringstream s;
            s << in.rdbuf();
            all += s.str();
        }
        std::string out;
        while (out.size() < kTextBytes) out += all;
        out.resize(kTextBytes);
        // Cut at a character boundary.
        while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
        if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
        return out;
    }();
    return text;
}

std::unique_ptr<Tokenizer> load() { return std::make_unique<Tokenizer>(read_tokenizer_files(tokenizer_dir()).vocab); }

// Encoding with the per-word cache warm (the steady state of a long run).
void BM_EncodeEnglish(benchmark::State &state) {
    const auto t = load();
    const std::string &text = english();
    t->encode(text, false);
    size_t tokens = 0;
    for (auto _ : state) {
        const auto ids = t->encode(text, false);
        tokens = ids.size();
        benchmark::DoNotOptimize(ids.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
    state.counters["tokens"] = static_cast<double>(tokens);
    state.counters["bytes_per_token"] = static_cast<double>(text.size()) / static_cast<double>(tokens);
}
BENCHMARK(BM_EncodeEnglish)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// Encoding from an empty cache: every new word runs the merge loop once.
void BM_EncodeEnglishColdCache(benchmark::State &state) {
    const std::string &text = english();
    for (auto _ : state) {
        state.PauseTiming();
        auto t = load();
        state.ResumeTiming();
        const auto ids = t->encode(text, false);
        benchmark::DoNotOptimize(ids.data());
        state.PauseTiming();
        t.reset();
        state.ResumeTiming();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_EncodeEnglishColdCache)->Unit(benchmark::kMillisecond)->Iterations(3);

// tokenizer.json (6.7 MB at this vocab; llama3's is 9.1 MB) and tokenizer_config.json read, parsed
// and built into a Tokenizer.
void BM_LoadLlama3SizedTokenizer(benchmark::State &state) {
    const std::string &dir = tokenizer_dir();
    for (auto _ : state) {
        auto t = load();
        benchmark::DoNotOptimize(t.get());
    }
    state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(dir + "/tokenizer.json")) / 1e6;
}
// Wall time: two threads resolve the merges (tokenizer/bpe.h).
BENCHMARK(BM_LoadLlama3SizedTokenizer)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// The same tokenizer from its snapshot's bytes (already in memory: the cache entry's read and
// checksum are not timed here).
void BM_LoadLlama3SizedSnapshot(benchmark::State &state) {
    const TokenizerFiles files = read_tokenizer_files(tokenizer_dir());
    const std::string bytes = tokenizer_snapshot(files, Tokenizer(files.vocab));
    for (auto _ : state) {
        SnapshotTokenizer t = tokenizer_from_snapshot(bytes, "snapshot");
        benchmark::DoNotOptimize(t.tokenizer.get());
    }
    state.counters["snapshot_MB"] = static_cast<double>(bytes.size()) / 1e6;
}
BENCHMARK(BM_LoadLlama3SizedSnapshot)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

}  // namespace

int main(int argc, char **argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::filesystem::remove_all(tokenizer_dir());
    return 0;
}
