// The seed note's expression: one kernel, no intermediate buffer, and the right numbers.
#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/schedule.h"

namespace halogen {
namespace {

Tensor seed_expr() { return where(eq(iconst(2), index_components({3, 3})), iconst(2), iconst(3)); }

TEST(Seed, LowersToOneKernelWithoutIntermediateBuffers) {
    LoweredGraph lg = lower(Graph({seed_expr()}));
    LoopNest nest = loop_nest(lg);
    EXPECT_EQ(nest.produced.size(), 1u) << nest.stmt;
    EXPECT_TRUE(nest.allocated.empty()) << nest.stmt;
    EXPECT_EQ(nest.loops.size(), 2u) << nest.stmt;   // rows and columns, nothing else
}

TEST(Seed, YieldsTwoOnlyAtLinearIndexTwo) {
    for (const std::string &schedule : schedule_names()) {
        Program program(Graph({seed_expr()}), schedule);
        Array out(DType::Int32, {3, 3});
        program.run({}, {out.ref()});
        const std::vector<int32_t> want = {3, 3, 2, 3, 3, 3, 3, 3, 3};
        EXPECT_EQ(std::vector<int32_t>(out.data<int32_t>(), out.data<int32_t>() + 9), want) << schedule;
        Array ref = interpret(seed_expr(), {});
        EXPECT_EQ(std::vector<int32_t>(ref.data<int32_t>(), ref.data<int32_t>() + 9), want);
    }
}

}  // namespace
}  // namespace halogen
