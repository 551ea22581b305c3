// A JIT pipeline's parallel loops on OpenMP (jit_par_for.h).
#include "halide_gen/compiler/jit_par_for.h"

#include "halide_gen/runtime/kernel_pool.h"

namespace halogen {

// A JIT task takes a JITUserContext * where an AOT task takes a void *: the same pointer, passed on.
int kernel_pool_jit_do_par_for(Halide::JITUserContext *ctx, int (*task)(Halide::JITUserContext *, int, uint8_t *), int min,
                          int size, uint8_t *closure) {
    return kernel_do_par_for(ctx, reinterpret_cast<halide_task_t>(task), min, size, closure);
}

void use_kernel_pool(Halide::Pipeline &p) { p.jit_handlers().custom_do_par_for = kernel_pool_jit_do_par_for; }

}  // namespace halogen
