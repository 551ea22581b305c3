// A JIT pipeline's parallel loops on the kernels' thread pool (runtime/kernel_pool.h) instead of
// Halide's own: one thread count for every kernel (set_kernel_threads), the same block of tasks on
// the same thread from call to call, one pool in the process.
#pragma once

#include <cstdint>

#include <Halide.h>

namespace halogen {

// Halide's JIT do_par_for contract (JITHandlers::custom_do_par_for) on kernel_do_par_for.
int kernel_pool_jit_do_par_for(Halide::JITUserContext *ctx, int (*task)(Halide::JITUserContext *, int, uint8_t *),
                               int min, int size, uint8_t *closure);

// Makes kernel_pool_jit_do_par_for `p`'s do_par_for when it runs JIT-compiled.
void use_kernel_pool(Halide::Pipeline &p);

}  // namespace halogen
