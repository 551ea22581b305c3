// The kernels' parallel loops, AOT and JIT, run on halogen's own pool of threads: an AOT kernel's
// entry installs kernel_do_par_for as the AOT runtime's do_par_for (aot_kernel.cpp), a JIT
// pipeline takes it through its JIT handlers (compiler/jit_par_for.h).
//
// Every parallel loop of a kernel is a call halide_do_par_for(task, min, size, closure). The pool
// splits the tasks into one contiguous block per thread, and each thread runs its own block first:
// on a quiet machine thread i handles the same rows on every call, so what a core read and wrote
// last time is still in its L2 (what an OpenMP static schedule gives, and Halide's own pool, which
// hands a task to whichever worker is free, does not). A thread that has finished its block then
// takes the tasks no one has started from the other blocks. So when the cores are shared with other
// work and a thread is descheduled, the threads that run take over its tasks instead of waiting for
// it, and the call ends when the last task is done, not when the last thread has checked in.
//
// Waiting is bounded: between calls a worker spins for kSpinMicroseconds, then sleeps until the
// next call wakes it; the caller waits for the last task the same way. Back-to-back kernels find
// the workers awake; a machine whose cores are busy with other processes gets them back at once,
// and a thread that slept is scheduled promptly when it is woken (OpenMP's default, which spins
// for up to about a millisecond and waits for every thread at the end of a loop, made decode 10x
// to 100x slower beside one busy process per core: perf/notes.md, "Threading").
#pragma once

#include <cstdint>

#include <HalideRuntime.h>

namespace halogen {

// How long an idle worker, or a caller waiting for its last task, spins before it sleeps.
constexpr int kSpinMicroseconds = 50;

// Halide's do_par_for contract: runs task(user_context, i, closure) for every i in [min, min + size)
// and returns 0, or the nonzero code of a task that failed (the other tasks still run). A single
// task, a single thread, or a call made from inside a task (a nested parallel loop) runs on the caller.
int kernel_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);

// How many threads the kernels' parallel loops use, AOT and JIT, the caller included; also
// OpenMP's thread count (omp_set_num_threads), which the machine's limits (host_limits.h) and the
// peer libraries in perf/ run on. Without a call: one per core (host_cores()). Error below 1.
void set_kernel_threads(int threads);
int kernel_threads();

// The cores this process may run on (its CPU affinity): the default thread count.
int host_cores();

// Which participant of the current parallel loop runs this code: 0 for the caller, 1 ... n-1 for
// the pool's workers; 0 outside a loop. (Tests check which block a thread ran.)
int kernel_thread_index();

}  // namespace halogen
