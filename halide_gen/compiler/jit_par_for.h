// A JIT pipeline's parallel loops on the AOT kernels' OpenMP loop (runtime/openmp_par_for.h)
// instead of Halide's own thread pool: one thread count for every kernel (set_kernel_threads),
// the same block of tasks on the same thread from call to call, one pool in the process.
#pragma once

#include <cstdint>

#include <Halide.h>

namespace halogen {

// Halide's JIT do_par_for contract (JITHandlers::custom_do_par_for) on openmp_do_par_for.
int openmp_jit_do_par_for(Halide::JITUserContext *ctx, int (*task)(Halide::JITUserContext *, int, uint8_t *), int min,
                          int size, uint8_t *closure);

// Makes openmp_jit_do_par_for `p`'s do_par_for when it runs JIT-compiled.
void use_openmp_par_for(Halide::Pipeline &p);

}  // namespace halogen
