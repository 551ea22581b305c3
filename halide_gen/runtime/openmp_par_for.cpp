// Halide's do_par_for on an OpenMP loop with a static schedule (see openmp_par_for.h).
#include "halide_gen/runtime/openmp_par_for.h"

#include <omp.h>
#include <sched.h>

namespace halogen {

int openmp_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    if (size <= 1 || omp_get_max_threads() == 1) {
        for (int i = min; i < min + size; ++i) {
            if (const int rc = task(user_context, i, closure)) return rc;
        }
        return 0;
    }
    int result = 0;
#pragma omp parallel for schedule(static)
    for (int i = min; i < min + size; ++i) {
        if (const int rc = task(user_context, i, closure)) {
#pragma omp critical(halogen_par_for_result)
            if (result == 0) result = rc;
        }
    }
    return result;
}

void set_kernel_threads(int threads) { omp_set_num_threads(threads); }

int kernel_threads() { return omp_get_max_threads(); }

int host_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
    return omp_get_num_procs();
}

}  // namespace halogen
