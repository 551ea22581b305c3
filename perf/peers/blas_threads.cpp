// The BLAS's thread count, set and read through OpenBLAS's own calls when it is loaded
// (blas_threads.h).
#include "perf/peers/blas_threads.h"

#include <dlfcn.h>

namespace halogen::perf {

std::string set_blas_threads(int threads) {
    using SetThreads = void (*)(int);
    using Config = const char *(*)();
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(threads);
    if (auto config = reinterpret_cast<Config>(dlsym(RTLD_DEFAULT, "openblas_get_config"))) return config();
    return "libblas.so.3, not OpenBLAS";
}

int blas_threads() {
    using GetThreads = int (*)();
    auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    return get ? get() : 0;
}

}  // namespace halogen::perf
