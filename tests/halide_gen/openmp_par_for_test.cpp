// The kernels' parallel loops on OpenMP (halide_gen/runtime/openmp_par_for.h, and for the JIT
// halide_gen/compiler/jit_par_for.h): every task runs once, each thread gets the same block of
// tasks on every call, a failing task's code comes back, and an AOT kernel and a JIT pipeline
// really call through it, with the same numbers at 1 and 2 threads.
#include <atomic>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include "frontend/array.h"
#include "halide_gen/compiler/jit_par_for.h"
#include "halide_gen/runtime/openmp_par_for.h"
#include "schedules/kernel.h"

namespace halogen {
namespace {

struct Tasks {
    explicit Tasks(int n) : runs(n), thread(n) {}
    std::vector<std::atomic<int>> runs;
    std::vector<std::atomic<int>> thread;   // omp_get_thread_num() of the task's last run
    int fail_at = -1;
};

int record(void *, int i, uint8_t *closure) {
    auto &t = *reinterpret_cast<Tasks *>(closure);
    ++t.runs[i];
    t.thread[i] = omp_get_thread_num();
    return i == t.fail_at ? 7 : 0;
}

int run(Tasks &t, int min, int size) { return openmp_do_par_for(nullptr, record, min, size, reinterpret_cast<uint8_t *>(&t)); }

TEST(OpenMPParFor, EveryTaskOnceInTheSameBlockPerThreadOnEveryCall) {
    set_kernel_threads(2);
    Tasks t(11);
    for (int call = 0; call < 3; ++call) {
        ASSERT_EQ(run(t, 3, 8), 0);   // tasks 3..10
        for (int i = 0; i < 3; ++i) EXPECT_EQ(t.runs[i], 0) << i;
        for (int i = 3; i < 11; ++i) {
            EXPECT_EQ(t.runs[i], call + 1) << i;
            EXPECT_EQ(t.thread[i], i < 7 ? 0 : 1) << "task " << i << ", call " << call;   // static: halves
        }
    }
}

TEST(OpenMPParFor, AFailingTaskReturnsItsCode) {
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
    return openmp_do_par_for(uc, task, min, size, closure);
}

TEST(OpenMPParFor, AnAotKernelsParallelLoopCallsIt) {
    const int64_t V = 50, D = 70, T = 40;
    Array w(DType::Float32, {V, D}), ids(DType::Int32, {T});
    for (int64_t i = 0; i < V * D; ++i) w.data<float>()[i] = float(i) * 0.5f;
    for (int64_t t = 0; t < T; ++t) ids.data<int32_t>()[t] = int32_t((t * 7) % V);
    Array first(DType::Float32, {T, D});
    const FamilyKernel k = FamilyKernel::aot("embedding", "gather");
    EXPECT_EQ(halide_set_custom_do_par_for(counting), &openmp_do_par_for);   // the AOT entry installed it
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
    halide_set_custom_do_par_for(openmp_do_par_for);
}

int record_jit(Halide::JITUserContext *, int i, uint8_t *closure) { return record(nullptr, i, closure); }

TEST(OpenMPParFor, TheJitAdapterRunsTasksInTheSameBlocks) {
    set_kernel_threads(2);
    Tasks t(8);
    t.fail_at = 6;
    EXPECT_EQ(openmp_jit_do_par_for(nullptr, record_jit, 0, 8, reinterpret_cast<uint8_t *>(&t)), 7);
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(t.runs[i], 1) << i;
        EXPECT_EQ(t.thread[i], i < 4 ? 0 : 1) << i;
    }
}

// Counts a JIT pipeline's do_par_for calls and passes them on to the handler it had.
std::atomic<int> jit_calls{0};
int (*installed)(Halide::JITUserContext *, int (*)(Halide::JITUserContext *, int, uint8_t *), int, int, uint8_t *) = nullptr;
int counting_jit(Halide::JITUserContext *ctx, int (*task)(Halide::JITUserContext *, int, uint8_t *), int min, int size,
                 uint8_t *closure) {
    ++jit_calls;
    return installed(ctx, task, min, size, closure);
}

TEST(OpenMPParFor, AJitPipelinesParallelLoopCallsIt) {
    Halide::Func f("f");
    Halide::Var x("x"), y("y");
    f(x, y) = x * 3 + y;
    f.parallel(y);
    Halide::Pipeline p(f);
    use_openmp_par_for(p);
    installed = p.jit_handlers().custom_do_par_for;
    ASSERT_EQ(installed, &openmp_jit_do_par_for);
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
