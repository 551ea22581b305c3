// The thread count of the BLAS that Debian's libtorch calls, set and read. libtorch 1.13 runs its
// matmuls (mm, addmm, bmm) in whatever libblas.so.3 the alternatives system selects; OpenBLAS's
// libblas.so.3 shares libopenblas.so.0's thread pool, which is sized once per process (one thread
// per core unless told) and which at::set_num_threads does not reach. A libtorch peer timed at N
// threads sets it to N too, or its matmuls run on whatever count the last caller left.
#pragma once

#include <string>

namespace halogen::perf {

// Sets the BLAS's threads, when the BLAS loaded in the process is OpenBLAS (found by its
// openblas_set_num_threads, so no link against it is needed), and returns the BLAS in use as it
// names itself ("libblas.so.3, not OpenBLAS" otherwise, whose threads are not set).
std::string set_blas_threads(int threads);

// The BLAS's thread count now: OpenBLAS's, or 0 when the BLAS loaded is not OpenBLAS. perf records
// it beside every timing of a peer that calls the BLAS.
int blas_threads();

}  // namespace halogen::perf
