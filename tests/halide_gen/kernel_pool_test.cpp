// The kernels' thread pool (halide_gen/runtime/kernel_pool.h, and for the JIT
// halide_gen/compiler/jit_par_for.h): every task runs once, each thread runs its own block of
// tasks on every call of a quiet machine, a stalled thread's tasks are taken over by the others,
// a failing task's code comes back, nested loops run inline, and an AOT kernel and a JIT pipeline
// really call through it, with the same numbers at 1 and 2 threads.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "frontend/array.h"
#include "halide_gen/compiler/jit_par_for.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "frontend/errors.h"
#include "schedules/kernel.h"

namespace halogen {
namespace {

struct Tasks {
    explicit Tasks(int n) : runs(n), thread(n) {}
    std::vector<std::atomic<int>> runs;
    std::vector<std::atomic<int>> thread;   // kernel_thread_index() of the task's last run
    int fail_at = -1;
};

int record(void *, int i, uint8_t *closure) {
    auto &t = *reinterpret_cast<Tasks *>(closure);
    ++t.runs[i];
    t.thread[i] = kernel_thread_index();
    return i == t.fail_at ? 7 : 0;
}

int run(Tasks &t, int min, int size) { return kernel_do_par_for(nullptr, record, min, size, reinterpret_cast<uint8_t *>(&t)); }

// Each task first waits (at most 10 s) until both threads have started a task, so that neither
// thread finishes its one-task block before the other has claimed its own: each runs its own.
std::atomic<int> started[2];
int record_together(void *uc, int i, uint8_t *closure) {
    ++started[kernel_thread_index()];
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((started[0] == 0 || started[1] == 0) && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    return record(uc, i, closure);
}

TEST(KernelPool, EveryTaskOnceInTheSameBlockPerThreadOnEveryCall) {
    set_kernel_threads(2);
    Tasks t(11);
    for (int call = 0; call < 3; ++call) {
        started[0] = started[1] = 0;
        ASSERT_EQ(kernel_do_par_for(nullptr, record_together, 3, 2, reinterpret_cast<uint8_t *>(&t)), 0);   // tasks 3, 4
        for (int i = 0; i < 3; ++i) EXPECT_EQ(t.runs[i], 0) << i;
        for (int i = 3; i < 5; ++i) {
            EXPECT_EQ(t.runs[i], call + 1) << i;
            EXPECT_EQ(t.thread[i], i - 3) << "task " << i << ", call " << call;   // the caller the first block
        }
    }
    for (int i = 0; i < 200; ++i) ASSERT_EQ(run(t, 0, 11), 0);   // quick calls: every task once each time
    for (int i = 0; i < 11; ++i) EXPECT_EQ(t.runs[i], (i >= 3 && i < 5 ? 3 : 0) + 200) << i;
}

// The caller's first task blocks until the worker has run every other task: with fixed blocks the
// call could never end; the pool's worker takes the caller's unstarted tasks.
struct Stall {
    std::atomic<int> done{0};
    std::atomic<int> on_caller{0};
    std::atomic<bool> stalled{false};
    int size = 0;
};
int stall_first(void *, int, uint8_t *closure) {
    auto &s = *reinterpret_cast<Stall *>(closure);
    if (kernel_thread_index() == 0) ++s.on_caller;
    if (kernel_thread_index() == 0 && !s.stalled.exchange(true)) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (s.done.load() < s.size - 1 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    }
    ++s.done;
    return 0;
}

TEST(KernelPool, AStalledThreadsTasksAreTakenOver) {
    set_kernel_threads(2);
    Stall s;
    s.size = 8;
    const auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(kernel_do_par_for(nullptr, stall_first, 0, s.size, reinterpret_cast<uint8_t *>(&s)), 0);
    EXPECT_EQ(s.done, s.size);
    EXPECT_LE(s.on_caller, 1);   // the caller ran one task at most; the worker ran its block and the caller's rest
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

int nested(void *, int i, uint8_t *closure) {
    auto &t = *reinterpret_cast<Tasks *>(closure);
    const int outer = kernel_thread_index();
    Tasks inner(3);
    if (kernel_do_par_for(nullptr, record, 0, 3, reinterpret_cast<uint8_t *>(&inner)) != 0) return 1;
    for (int k = 0; k < 3; ++k) {
        if (inner.runs[k] != 1 || inner.thread[k] != outer) return 2;   // inline, on the task's own thread
    }
    ++t.runs[i];
    return 0;
}

TEST(KernelPool, ANestedLoopRunsInlineOnItsTasksThread) {
    set_kernel_threads(2);
    Tasks t(6);
    ASSERT_EQ(kernel_do_par_for(nullptr, nested, 0, 6, reinterpret_cast<uint8_t *>(&t)), 0);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(t.runs[i], 1) << i;
}

TEST(KernelPool, ThreadCountsAreChecked) {
    EXPECT_THROW(set_kernel_threads(0), Error);
    set_kernel_threads(3);
    EXPECT_EQ(kernel_threads(), 3);
    Tasks t(50);
    ASSERT_EQ(run(t, 0, 50), 0);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(t.runs[i], 1) << i;
    set_kernel_threads(2);
    EXPECT_GE(host_cores(), 1);
}

TEST(KernelPool, AFailingTaskReturnsItsCode) {
    for (int threads : {1, 2}) {
        set_kernel_threads(threads);
        Tasks t(6);
        t.fail_at = 4;
        EXPECT_EQ(run(t, 0, 6), 7) << threads << " threads";
        EXPECT_EQ(t.runs[4], 1);
    }
    Tasks none(1);
    EXPECT_EQ(run(none, 0, 0), 0);   // no task
}

// Counts the AOT runtime's do_par_for calls and passes them on.
std::atomic<int> calls{0};
int counting(void *uc, halide_task_t task, int min, int size, uint8_t *closure) {
    ++calls;
    return kernel_do_par_for(uc, task, min, size, closure);
}

TEST(KernelPool, AnAotKernelsParallelLoopCallsIt) {
    const int64_t V = 50, D = 70, T = 40;
    Array w(DType::Float32, {V, D}), ids(DType::Int32, {T});
    for (int64_t i = 0; i < V * D; ++i) w.data<float>()[i] = float(i) * 0.5f;
    for (int64_t t = 0; t < T; ++t) ids.data<int32_t>()[t] = int32_t((t * 7) % V);
    Array first(DType::Float32, {T, D});
    const FamilyKernel k = FamilyKernel::aot("embedding", "gather");
    EXPECT_EQ(halide_set_custom_do_par_for(counting), &kernel_do_par_for);   // the AOT entry installed it
    for (int threads : {1, 2}) {
        set_kernel_threads(threads);
        Array out(DType::Float32, {T, D});
        calls = 0;
        k.run({{"ids", ids.ref()}, {"weight", w.ref()}}, out.ref());
        EXPECT_EQ(calls, 1) << threads << " threads";   // one parallel loop over blocks of tokens
        for (int64_t t = 0; t < T; ++t) {
            for (int64_t d = 0; d < D; ++d) {
                ASSERT_EQ(out.data<float>()[t * D + d], w.data<float>()[ids.data<int32_t>()[t] * D + d]) << t << ", " << d;
            }
        }
    }
    halide_set_custom_do_par_for(kernel_do_par_for);
}

int record_jit(Halide::JITUserContext *, int i, uint8_t *closure) { return record(nullptr, i, closure); }

TEST(KernelPool, TheJitAdapterRunsEveryTaskAndReturnsAFailure) {
    set_kernel_threads(2);
    Tasks t(8);
    t.fail_at = 6;
    EXPECT_EQ(kernel_pool_jit_do_par_for(nullptr, record_jit, 0, 8, reinterpret_cast<uint8_t *>(&t)), 7);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(t.runs[i], 1) << i;
}

// Counts a JIT pipeline's do_par_for calls and passes them on to the handler it had.
std::atomic<int> jit_calls{0};
int (*installed)(Halide::JITUserContext *, int (*)(Halide::JITUserContext *, int, uint8_t *), int, int, uint8_t *) = nullptr;
int counting_jit(Halide::JITUserContext *ctx, int (*task)(Halide::JITUserContext *, int, uint8_t *), int min, int size,
                 uint8_t *closure) {
    ++jit_calls;
    return installed(ctx, task, min, size, closure);
}

TEST(KernelPool, AJitPipelinesParallelLoopCallsIt) {
    Halide::Func f("f");
    Halide::Var x("x"), y("y");
    f(x, y) = x * 3 + y;
    f.parallel(y);
    Halide::Pipeline p(f);
    use_kernel_pool(p);
    installed = p.jit_handlers().custom_do_par_for;
    ASSERT_EQ(installed, &kernel_pool_jit_do_par_for);
    p.jit_handlers().custom_do_par_for = counting_jit;
    for (int threads : {1, 2}) {
        set_kernel_threads(threads);
        jit_calls = 0;
        Halide::Buffer<int> out = p.realize({5, 9});
        EXPECT_EQ(jit_calls, 1) << threads << " threads";
        for (int j = 0; j < 9; ++j) {
            for (int i = 0; i < 5; ++i) ASSERT_EQ(out(i, j), i * 3 + j) << i << ", " << j;
        }
    }
}

}  // namespace
}  // namespace halogen
