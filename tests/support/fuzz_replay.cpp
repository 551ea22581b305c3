// The shared corpus replay driver (fuzz_replay.h).
#include "tests/support/fuzz_replay.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// One allocation above 64 MiB is a crash, as libFuzzer's -malloc_limit_mb=64 makes it: the corpus
// files are a few kB, and no reader allocates more than a file holds (nor the grouping in
// proportion to extents). In the normal build this replacement of operator new enforces it; under
// AddressSanitizer (which must own operator new) each replay test sets
// ASAN_OPTIONS=max_allocation_size_mb=64 instead.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HALOGEN_REPLAY_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(HALOGEN_REPLAY_ASAN)
#include <cstdlib>
#include <new>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"   // GCC misreads malloc/free pairs here
#endif
void *operator new(std::size_t n) {
    if (n > (std::size_t(64) << 20)) {
        std::fprintf(stderr, "fuzz replay: an allocation of %zu bytes (limit 64 MiB)\n", n);
        std::abort();
    }
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
#endif

namespace halogen::fuzz {

int replay_main(int argc, char **argv, const char *name, const std::function<std::string()> &summary) {
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
            std::fprintf(stderr, "%s: no such file or directory: %s\n", name, argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIR...  (nothing to replay)\n", name);
        return 2;
    }
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "%s: cannot read %s\n", name, f.c_str());
            return 2;
        }
        std::printf("%s\n", f.filename().c_str());
        std::fflush(stdout);   // so that the file is named before a crash report
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    }
    std::printf("%s: %zu files replayed, %s, 0 crashes\n", name, files.size(), summary().c_str());
    return 0;
}

}  // namespace halogen::fuzz
