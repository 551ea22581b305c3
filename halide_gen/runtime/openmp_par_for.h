// The kernels' parallel loops run on OpenMP instead of Halide's own thread pool: an AOT kernel's
// entry installs openmp_do_par_for as the AOT runtime's do_par_for (aot_kernel.cpp), a JIT
// pipeline takes it through its JIT handlers (compiler/jit_par_for.h).
//
// Every parallel loop of a kernel is a call halide_do_par_for(task, min, size, closure).
// Halide's pool gives each task to whichever worker is free, so from one call to the next a core
// handles other rows than before. An OpenMP loop with a static schedule gives thread i the same
// contiguous block of tasks on every call: what a core read and wrote last time is still in its
// L2 (perf/notes.md has the measurements: gather at T = 128, RMSNorm). It also puts halogen's
// kernels on the same threads as libtorch and oneDNN in one process, not on a second pool that
// competes with theirs for the cores.
#pragma once

#include <cstdint>

#include <HalideRuntime.h>

namespace halogen {

// Halide's do_par_for contract: runs task(user_context, i, closure) for every i in [min, min + size)
// and returns 0, or the nonzero code of a task that failed. Tasks are split into one contiguous
// block per OpenMP thread (schedule(static)); a single task, or a single thread, runs on the caller.
int openmp_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);

// How many threads the kernels' parallel loops use, AOT and JIT (omp_set_num_threads). Without a call:
// OMP_NUM_THREADS, or one per core.
void set_kernel_threads(int threads);
// How many threads the kernels' next parallel loop will use (omp_get_max_threads).
int kernel_threads();
// The cores this process may run on (its CPU affinity): the commands' default thread count.
int host_cores();

}  // namespace halogen
