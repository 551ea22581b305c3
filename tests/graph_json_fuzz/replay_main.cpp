// Replays JSON graph fuzz inputs without libFuzzer: feeds every file named on the command line (every
// regular file, sorted, for a directory) to LLVMFuzzerTestOneInput, which aborts on a crash.
// Built with the project's toolchain, so the corpus runs in the normal and the sanitizer build.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/graph_json_fuzz/graph_json_fuzz_target.h"

// One allocation above 64 MiB is a crash, as libFuzzer's -malloc_limit_mb=64 makes it: the corpus
// files are a few kB, and neither the reader nor the grouping allocates in proportion to extents.
// In the normal build this replacement of operator new enforces it; under AddressSanitizer (which
// must own operator new) the test sets ASAN_OPTIONS=max_allocation_size_mb=64 instead
// (tests/graph_json_fuzz/CMakeLists.txt).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAPH_JSON_REPLAY_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(GRAPH_JSON_REPLAY_ASAN)
#include <cstdlib>
#include <new>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"   // GCC misreads malloc/free pairs here
#endif
void *operator new(std::size_t n) {
    if (n > (std::size_t(64) << 20)) {
        std::fprintf(stderr, "graph_json_fuzz_replay: an allocation of %zu bytes (limit 64 MiB)\n", n);
        std::abort();
    }
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
#endif

int main(int argc, char **argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        fs::path p(argv[i]);
        if (fs::is_directory(p)) {
            for (const auto &entry : fs::directory_iterator(p))
                if (entry.is_regular_file()) files.push_back(entry.path());
        } else if (fs::is_regular_file(p)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "graph_json_fuzz_replay: no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "usage: graph_json_fuzz_replay FILE_OR_DIR...  (nothing to replay)\n");
        return 2;
    }
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "graph_json_fuzz_replay: cannot read %s\n", f.c_str());
            return 2;
        }
        std::printf("%s\n", f.filename().c_str());
        std::fflush(stdout);   // so that the file is named before a crash report
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    }
    std::printf("graph_json_fuzz_replay: %zu files replayed, %lld parsed and grouped, %lld rejected with a halogen::Error, "
                "0 crashes\n",
                files.size(), static_cast<long long>(halogen::graph_json_fuzz::grouped()),
                static_cast<long long>(halogen::graph_json_fuzz::rejected()));
    return 0;
}
