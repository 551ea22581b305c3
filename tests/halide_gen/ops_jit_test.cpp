// Every primitive op (and the views, broadcasts and reductions) lowered to Halide and JIT-run on
// exact-size caller buffers must equal the reference interpreter: at extents 1, 3, 30 and 33
// (below, at and past the vector width), under every generic schedule, and once more with the
// extent as a symbolic dim bound only at run time.
#include <functional>
#include <limits>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/schedule.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;
using testing::random_inputs;

const DType F = DType::Float32, I = DType::Int32, B = DType::Bool;
const int64_t kExtents[] = {1, 3, 30, 33};

struct OpCase {
    std::string name;
    std::function<Tensor(const Dim &n)> build;   // a graph whose shapes use the extent n
    double atol = 0, rtol = 0;                   // exact unless given
};

void PrintTo(const OpCase &c, std::ostream *os) { *os << c.name; }

OpCase exact(std::string name, std::function<Tensor(const Dim &)> build) { return {std::move(name), std::move(build)}; }
OpCase approx(std::string name, std::function<Tensor(const Dim &)> build) {
    return {std::move(name), std::move(build), 1e-5, 1e-5};
}

std::vector<OpCase> cases() {
    auto x = [](DType t, const Shape &s, const std::string &name = "x") { return input(name, t, s); };
    auto y = [](DType t, const Shape &s) { return input("y", t, s); };
    return {
        // Leaves
        exact("index_components", [](const Dim &n) { return index_components({n, 4}); }),
        exact("arange", [](const Dim &n) { return arange(n); }),
        exact("const_broadcast", [&](const Dim &n) { return add(x(I, {n}), iconst(7)); }),
        approx("dim_const", [&](const Dim &n) { return mul(x(F, {n}), dim_const(n * Dim(2), F)); }),
        // Unary
        exact("neg_f32", [&](const Dim &n) { return neg(x(F, {n, 5})); }),
        exact("neg_i32", [&](const Dim &n) { return neg(x(I, {n, 5})); }),
        approx("recip", [&](const Dim &n) { return recip(x(F, {5, n}, "pos")); }),
        approx("sqrt", [&](const Dim &n) { return sqrt(x(F, {n, 5}, "pos")); }),
        approx("exp2", [&](const Dim &n) { return exp2(x(F, {n, 5})); }),
        approx("log2", [&](const Dim &n) { return log2(x(F, {n, 5}, "pos")); }),
        approx("sin", [&](const Dim &n) { return sin(x(F, {n, 5})); }),
        exact("not_bool", [&](const Dim &n) { return not_(x(B, {n, 5})); }),
        exact("not_i32", [&](const Dim &n) { return not_(x(I, {n, 5})); }),
        exact("cast_f32_i32", [&](const Dim &n) { return cast(x(F, {n, 5}), I); }),
        exact("cast_i32_f32", [&](const Dim &n) { return cast(x(I, {n, 5}), F); }),
        exact("cast_bool_f32", [&](const Dim &n) { return cast(x(B, {n, 5}), F); }),
        exact("cast_f32_bool", [&](const Dim &n) { return cast(x(F, {n, 5}), B); }),
        exact("cast_i32_bool", [&](const Dim &n) { return cast(x(I, {n, 5}), B); }),
        // Binary
        approx("add_f32", [&](const Dim &n) { return add(x(F, {n, 5}), y(F, {n, 5})); }),
        exact("add_i32", [&](const Dim &n) { return add(x(I, {n, 5}), y(I, {n, 5})); }),
        approx("mul_f32", [&](const Dim &n) { return mul(x(F, {n, 5}), y(F, {n, 5})); }),
        exact("mul_i32", [&](const Dim &n) { return mul(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("max_f32", [&](const Dim &n) { return maximum(x(F, {n, 5}), y(F, {n, 5})); }),
        exact("max_i32", [&](const Dim &n) { return maximum(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("idiv", [&](const Dim &n) { return idiv(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("mod", [&](const Dim &n) { return mod(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("and_bool", [&](const Dim &n) { return and_(x(B, {n, 5}), y(B, {n, 5})); }),
        exact("and_i32", [&](const Dim &n) { return and_(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("or_bool", [&](const Dim &n) { return or_(x(B, {n, 5}), y(B, {n, 5})); }),
        exact("or_i32", [&](const Dim &n) { return or_(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("xor_bool", [&](const Dim &n) { return xor_(x(B, {n, 5}), y(B, {n, 5})); }),
        exact("xor_i32", [&](const Dim &n) { return xor_(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("ne_f32", [&](const Dim &n) { return ne(x(F, {n, 5}), y(F, {n, 5})); }),
        exact("ne_i32", [&](const Dim &n) { return ne(idiv(x(I, {n, 5}), iconst(8)), idiv(y(I, {n, 5}), iconst(8))); }),
        exact("lt_f32", [&](const Dim &n) { return lt(x(F, {n, 5}), y(F, {n, 5})); }),
        exact("lt_i32", [&](const Dim &n) { return lt(x(I, {n, 5}), y(I, {n, 5})); }),
        exact("where", [&](const Dim &n) { return where(x(B, {n, 1}, "c"), y(F, {n, 6}), fconst(-1)); }),
        // Data-dependent read: int32 indices in [-20, 20], so some rows are out of range (0)
        exact("gather_last_axis", [&](const Dim &n) { return gather(x(F, {n, 7}), 1, y(I, {n, 1})); }),
        exact("gather_first_axis", [&](const Dim &n) { return gather(x(I, {25, n}), 0, y(I, {1, n})); }),
        // Broadcasts
        approx("broadcast_outer", [&](const Dim &n) { return add(x(F, {n, 1}), y(F, {1, 7})); }),
        approx("broadcast_rank", [&](const Dim &n) { return mul(x(F, {3, n, 5}), y(F, {5})); }),
        approx("broadcast_inner", [&](const Dim &n) { return add(x(F, {2, 1, n}), y(F, {4, 1})); }),
        // Reductions: every axis, several axes, float and int
        approx("sum_axis0", [&](const Dim &n) { return reduce_sum(x(F, {n, 4, 3}), {0}); }),
        approx("sum_axis1", [&](const Dim &n) { return reduce_sum(x(F, {4, n, 3}), {1}); }),
        approx("sum_axis2", [&](const Dim &n) { return reduce_sum(x(F, {4, 3, n}), {2}); }),
        approx("sum_axes02", [&](const Dim &n) { return reduce_sum(x(F, {n, 3, n}), {0, 2}); }),
        exact("sum_i32_all", [&](const Dim &n) { return reduce_sum(x(I, {n, 3}), {0, 1}); }),
        exact("max_axis0", [&](const Dim &n) { return reduce_max(x(F, {n, 4}), {0}); }),
        exact("max_axis1", [&](const Dim &n) { return reduce_max(x(I, {4, n}), {1}); }),
        approx("sum_then_broadcast", [&](const Dim &n) {   // x - sum(x) over the last axis
            Tensor a = x(F, {3, n});
            return sub(a, reduce_sum(a, {1}));
        }),
        // Views
        approx("permute", [&](const Dim &n) { return add(permute(x(F, {n, 3, 2}), {2, 0, 1}), y(F, {2, n, 3})); }),
        exact("reshape_split", [&](const Dim &n) { return reshape(x(I, {n, 6}), {n, 2, 3}); }),
        exact("reshape_general", [&](const Dim &n) { return reshape(x(I, {n, 6}), {Dim(6), n}); }),
        exact("reshape_merge", [&](const Dim &n) { return reshape(x(I, {2, n, 3}), {Dim(2) * n, 3}); }),
        exact("slice", [&](const Dim &n) { return slice(x(F, {n + Dim(4), 5}), 0, 2, n + Dim(2)); }),
        exact("slice_step", [&](const Dim &n) { return slice(x(F, {n, 9}), 1, 1, 8, 3); }),
        exact("stride", [&](const Dim &n) { return stride(x(I, {n, 6}), {1, 2}); }),
        exact("pad", [&](const Dim &n) { return pad(x(F, {n, 3}), {1, 0}, {2, 3}, 0.5); }),
        exact("pad_permuted_view", [&](const Dim &n) { return pad(permute(x(I, {n, 2}), {1, 0}), {0, 2}, {0, 1}); }),
        exact("window", [&](const Dim &n) { return window(x(F, {n + Dim(2), 3}), 0, 3); }),
        exact("window_strided", [&](const Dim &n) { return window(x(I, {n, 9}), 1, 3, 2); }),
        exact("window_dilated", [&](const Dim &n) { return window(x(F, {2, n + Dim(8)}), 1, 3, 1, 4); }),
        // Derived ops, written with primitives
        approx("mean", [&](const Dim &n) { return mean(x(F, {4, n}), {1}); }),
        approx("matmul", [&](const Dim &n) { return matmul(x(F, {n, 5}), y(F, {5, 3})); }),
        // bfloat16 storage: the rounding cast, a widening cast, data movement in bfloat16
        exact("cast_to_bfloat16", [&](const Dim &n) { return cast(x(F, {n, 33}), DType::BFloat16); }),
        exact("bfloat16_widened", [&](const Dim &n) {
            return add(cast(permute(x(DType::BFloat16, {n, 17}), {1, 0}), F), fconst(0.5));
        }),
        exact("seed_one_hot", [&](const Dim &n) {
            return where(eq(index_components({n, 3}), x(I, {1, 3})), iconst(2), iconst(3));
        }),
        // Masked reductions (lowered with the mask as the reduction's domain): a causal mask with an
        // offset, under a sum and a max whose masked value is the identity, read through views
        approx("masked_sum_causal", [&](const Dim &n) {
            Tensor keep = le(reshape(arange(n + Dim(2)), {Dim(1), n + Dim(2)}),
                             add(reshape(arange(n), {n, Dim(1)}), dim_const(Dim(2), I)));
            return reduce_sum(where(keep, x(F, {n, n + Dim(2)}), fconst(0)), {1});
        }),
        exact("masked_max_causal", [&](const Dim &n) {
            Tensor keep = le(reshape(arange(n), {Dim(1), n}), reshape(arange(n), {n, Dim(1)}));
            Tensor masked = where(keep, x(F, {n, n}), fconst(-std::numeric_limits<double>::infinity()));
            return reduce_max(reshape(masked, {n, Dim(1), n}), {2});
        }),
        exact("masked_max_i32_lowest", [&](const Dim &n) {
            Tensor keep = lt(reshape(arange(n), {n, Dim(1)}), reshape(arange(Dim(4)), {Dim(1), Dim(4)}));
            return reduce_max(where(keep, x(I, {n, 4}), iconst(std::numeric_limits<int32_t>::min())), {0});
        }),
        approx("masked_by_input_not_rewritten", [&](const Dim &n) {   // the mask reads an input: as written
            return reduce_sum(where(x(B, {n, 5}, "c"), y(F, {n, 5}), fconst(0)), {1});
        }),
    };
}

class OpsJit : public ::testing::TestWithParam<OpCase> {};

TEST_P(OpsJit, MatchesInterpreterAtFixedExtents) {
    const OpCase &c = GetParam();
    for (int64_t n : kExtents) {
        Tensor out = c.build(Dim(n));
        Inputs in = random_inputs(Graph({out}), {}, uint32_t(n));
        Array want = interpret(out, in);
        for (const std::string &s : schedule_names()) {
            Array got = CompiledGraph(out, s).run(in);
            EXPECT_TRUE(arrays_near(want, got, c.atol, c.rtol)) << "extent " << n << ", schedule " << s;
        }
    }
}

TEST_P(OpsJit, MatchesInterpreterWithSymbolicExtentBoundAtRunTime) {
    const OpCase &c = GetParam();
    Tensor out = c.build(Dim::sym("N"));
    for (const std::string &s : schedule_names()) {
        CompiledGraph kernel(out, s);   // compiled once, run at every extent
        for (int64_t n : kExtents) {
            Bindings b = {{"N", n}};
            Inputs in = random_inputs(Graph({out}), b, uint32_t(n) + 100);
            EXPECT_TRUE(arrays_near(interpret(out, in, b), kernel.run(in, b), c.atol, c.rtol))
                << "N = " << n << ", schedule " << s;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Primitives, OpsJit, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace halogen
