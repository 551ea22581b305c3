// Every variant of every family computes the interpreter's numbers: the hand-scheduled ones JIT
// compiled (FamilyKernel) and as the AOT kernels built by the generators, on odd and tiny shapes;
// the embedding variants also on out-of-range ids and NaN in rows no id selects. The autoscheduled
// AOT kernels too: they read their inputs clamped, so no tile outruns a tiny shape.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "frontend/errors.h"
#include "frontend/halogen.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/loop_nest.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/conv/conv.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;

struct Shape_ {
    std::string family;
    std::map<std::string, std::vector<int64_t>> inputs;   // as the caller holds them (PyTorch's layouts)
};

// Small shapes with odd extents for every family.
std::vector<Shape_> shapes() {
    return {
        {"embedding", {{"ids", {7}}, {"weight", {13, 33}}}},
        {"embedding", {{"ids", {1}}, {"weight", {5, 1}}}},
        // Rows of 4 pages and more (the gather's four streams): exactly 4, and 5 pages plus 40 floats.
        {"embedding", {{"ids", {3}}, {"weight", {4, 4096}}}},
        {"embedding", {{"ids", {9}}, {"weight", {6, 5160}}}},
        {"embedding", {{"ids", {11}}, {"weight", {13, 40}}}},   // a full task of rows and a partial one
        {"embedding", {{"ids", {2, 3}}, {"weight", {13, 40}}}},   // ids of any rank: out [2, 3, 40]
        {"layernorm", {{"x", {3, 33}}, {"weight", {33}}, {"bias", {33}}}},
        {"layernorm", {{"x", {2, 7, 33}}, {"weight", {33}}, {"bias", {33}}}},   // leading axes collapsed
        {"layernorm", {{"x", {1, 1}}, {"weight", {1}}, {"bias", {1}}}},
        {"rmsnorm", {{"x", {5, 17}}, {"weight", {17}}}},
        {"batchnorm", {{"x", {2, 3, 7}}, {"mean", {3}}, {"var", {3}}, {"weight", {3}}, {"bias", {3}}}},
        {"batchnorm", {{"x", {2, 3, 4, 5}}, {"mean", {3}}, {"var", {3}}, {"weight", {3}}, {"bias", {3}}}},
        {"groupnorm", {{"x", {2, 64, 5}}, {"weight", {64}}, {"bias", {64}}}},
        {"groupnorm", {{"x", {1, 32, 3, 2}}, {"weight", {32}}, {"bias", {32}}}},
        {"conv1d", {{"x", {2, 3, 9}}, {"weight", {5, 3, 3}}, {"bias", {5}}}},
        {"conv2d", {{"x", {1, 3, 7, 5}}, {"weight", {9, 3, 3, 3}}, {"bias", {9}}}},
        {"conv3d", {{"x", {1, 2, 3, 4, 5}}, {"weight", {3, 2, 3, 3, 3}}, {"bias", {3}}}},
    };
}

// Random inputs in the caller's layout; embedding ids include -1, V and 1000 (zero rows), and row 2
// of the table is NaN while no id selects it; a variance is positive.
Inputs make_inputs(const Shape_ &s, uint32_t seed) {
    const Family &f = find_family(s.family);
    std::mt19937 rng(seed);
    Inputs in;
    for (const Node *n : f.graph().inputs()) {
        if (!s.inputs.count(n->name)) continue;   // a parameter left at its default (eps)
        Array a(n->dtype, s.inputs.at(n->name));
        std::uniform_real_distribution<float> u(-3, 3);
        for (int64_t k = 0; k < a.size(); ++k) a.set(k, n->dtype == DType::Int32 ? double(rng() % 5) : u(rng));
        in.emplace(n->name, std::move(a));
    }
    if (s.family == "embedding") {
        Array &ids = in.at("ids");
        const int64_t V = s.inputs.at("weight")[0], D = s.inputs.at("weight")[1];
        const int32_t special[] = {-1, int32_t(V), 1000, 0, int32_t(V - 1)};
        for (int64_t t = 0; t < ids.size(); ++t) {
            int32_t id = t < 5 ? special[t] : int32_t(t % V);
            if (id == 2) id = 3;
            ids.set(t, id);
        }
        if (V > 2) {
            for (int64_t d = 0; d < D; ++d) in.at("weight").set(2 * D + d, NAN);
        }
    }
    if (s.family == "batchnorm") {
        Array &var = in.at("var");
        for (int64_t k = 0; k < var.size(); ++k) var.set(k, std::abs(var.get(k)) + 0.5);
    }
    return in;
}

BufferRefs refs_of(Inputs &in) {
    BufferRefs refs;
    for (auto &[name, a] : in) refs.emplace(name, a.ref());
    return refs;
}

Array expected(const Shape_ &s, Inputs &in) { return interpret_call(find_family(s.family), refs_of(in)); }

double tolerance(const std::string &family) { return family.rfind("conv", 0) == 0 ? 1e-4 : 1e-5; }

class Variants : public ::testing::TestWithParam<Shape_> {};

TEST_P(Variants, HandScheduledJitMatchesInterpreter) {
    const Shape_ &s = GetParam();
    Inputs in = make_inputs(s, 11);
    Array want = expected(s, in);
    for (const Variant &v : variants_of(s.family)) {
        if (!v.recipe.autoscheduler.empty()) continue;
        Array got(want.dtype(), want.shape());
        FamilyKernel::jit(s.family, v.name).run(refs_of(in), got.ref());
        EXPECT_TRUE(arrays_near(want, got, tolerance(s.family), tolerance(s.family))) << s.family << " " << v.name;
    }
}

TEST_P(Variants, AotKernelsMatchInterpreter) {
    const Shape_ &s = GetParam();
    Inputs in = make_inputs(s, 12);
    Array want = expected(s, in);
    for (const Variant &v : variants_of(s.family)) {
        Array got(want.dtype(), want.shape());
        FamilyKernel::aot(s.family, v.name).run(refs_of(in), got.ref());
        EXPECT_TRUE(arrays_near(want, got, tolerance(s.family), tolerance(s.family))) << s.family << " " << v.name;
    }
}

INSTANTIATE_TEST_SUITE_P(Families, Variants, ::testing::ValuesIn(shapes()), [](const auto &info) {
    std::string name = info.param.family;
    for (const auto &[in, shape] : info.param.inputs) {
        if (in != "x" && in != "ids") continue;
        for (int64_t d : shape) name += "_" + std::to_string(d);
    }
    return name;
});

TEST(Variants, NormsNaiveIsOneKernelPerReductionAndFusedIsOne) {
    auto groups = [](const char *family, const char *variant) {
        return FamilyKernel::jit(family, variant).program()->kernel_count();
    };
    EXPECT_EQ(groups("layernorm", "naive"), 3);   // mean, variance, normalize
    EXPECT_EQ(groups("rmsnorm", "naive"), 2);
    EXPECT_EQ(groups("groupnorm", "naive"), 3);
    // GroupNorm's channels per group are symbolic; in the grouped layout it is still one kernel.
    for (const char *f : {"layernorm", "rmsnorm", "batchnorm", "groupnorm"}) EXPECT_EQ(groups(f, "fused"), 1) << f;
}

// Every vector access to the partial sums of a fused norm's reductions (the "<f>_intm" buffers of
// rfactor) in a lowered statement: the text of each ramp's stride argument, "1" when dense.
std::vector<std::string> partial_sum_strides(const std::string &stmt) {
    std::vector<std::string> strides;
    const std::string open = "_intm[ramp(";
    for (size_t at = stmt.find(open); at != std::string::npos; at = stmt.find(open, at + 1)) {
        size_t k = at + open.size();
        int depth = 0;
        for (; k < stmt.size() && !(depth == 0 && stmt[k] == ','); ++k) depth += (stmt[k] == '(') - (stmt[k] == ')');
        std::string stride = stmt.substr(k + 2, stmt.find(',', k + 1) - k - 2);
        if (stride.rfind("(int64)", 0) == 0) stride.erase(0, 7);   // with large_buffers
        strides.push_back(stride);
    }
    return strides;
}

TEST(Variants, LayerNormFusedNormalizesTwoRowsPerStepAndRmsNormOne) {
    // schedules/norms/schedules.cpp: LayerNorm's tasks are pairs of rows whose normalize pass shares the
    // loads of w and b; RMSNorm (one weight row) keeps a row per task. Either way each partial
    // sum is a dense vector (stride 1), not a gather across the rows of a pair.
    auto parallel_loops = [](const LoopNest &nest, const std::string &suffix) {
        return std::count_if(nest.loops.begin(), nest.loops.end(), [&](const std::string &l) {
            return l.find(":parallel") != std::string::npos && l.find(suffix) != std::string::npos;
        });
    };
    LoopNest layernorm = loop_nest(FamilyKernel::jit("layernorm", "fused").program()->pipeline().lowered.back());
    LoopNest rmsnorm = loop_nest(FamilyKernel::jit("rmsnorm", "fused").program()->pipeline().lowered.back());
    EXPECT_EQ(parallel_loops(layernorm, "_pair:"), 1) << layernorm.stmt;
    EXPECT_EQ(parallel_loops(rmsnorm, "_pair:"), 0) << rmsnorm.stmt;
    EXPECT_EQ(parallel_loops(rmsnorm, ""), 1) << rmsnorm.stmt;
    for (const LoopNest *nest : {&layernorm, &rmsnorm}) {
        const std::vector<std::string> strides = partial_sum_strides(nest->stmt);
        EXPECT_FALSE(strides.empty()) << nest->stmt;
        EXPECT_EQ(std::count(strides.begin(), strides.end(), "1"), std::ptrdiff_t(strides.size())) << nest->stmt;
    }
}

TEST(Variants, EmbeddingGatherHasNoVocabularyLoopAndOneHotHasOne) {
    auto reduction_loops = [](const char *variant) {
        FamilyKernel k = FamilyKernel::jit("embedding", variant);
        int n = 0;
        for (const std::string &l : loop_nest(k.program()->pipeline().lowered.back()).loops) n += l.find("_r$x") != std::string::npos;
        return n;
    };
    EXPECT_EQ(reduction_loops("gather"), 0);
    EXPECT_GE(reduction_loops("onehot"), 1);
    EXPECT_GE(reduction_loops("onehot_permuted"), 1);
}

TEST(Variants, EmbeddingGatherGivesEachTaskABlockOfRows) {
    // parallel over blocks of tokens, the rows of a block one after the other, the row in vectors
    // (schedules/embedding/schedules.cpp): one task per row spent longer in the thread pool than in the copy.
    LoopNest nest = loop_nest(FamilyKernel::jit("embedding", "gather").program()->pipeline().lowered.back());
    auto has = [&](const std::string &suffix) {
        return std::any_of(nest.loops.begin(), nest.loops.end(), [&](const std::string &l) {
            return l.size() >= suffix.size() && l.compare(l.size() - suffix.size(), suffix.size(), suffix) == 0;
        });
    };
    EXPECT_TRUE(has(".t_o:parallel")) << nest.stmt;
    EXPECT_TRUE(has(".t_i:serial")) << nest.stmt;
    EXPECT_FALSE(has(".t_i:parallel")) << nest.stmt;
}

TEST(Variants, EmbeddingGatherReadsALongRowAsFourStreamsAPageApart) {
    // schedules/embedding/schedules.cpp: rows of 4 pages and more are copied in steps of four 2W-lane
    // chunks, one from each page of a block; the stream loop is unrolled, so no loop is left.
    LoopNest nest = loop_nest(FamilyKernel::jit("embedding", "gather").program()->pipeline().lowered.back());
    auto count = [&](const std::string &suffix) {
        return std::count_if(nest.loops.begin(), nest.loops.end(), [&](const std::string &l) {
            return l.size() >= suffix.size() && l.compare(l.size() - suffix.size(), suffix.size(), suffix) == 0;
        });
    };
    // Both row paths (fewer than a task's 8 rows, and blocks of 8) have the block and step loops.
    EXPECT_GE(count(".d_page.d_block:serial"), 2) << nest.stmt;
    EXPECT_GE(count(".d_in.d_io:serial"), 2) << nest.stmt;
    EXPECT_EQ(count(".d_stream:serial") + count(".d_stream:unrolled"), 0) << nest.stmt;
    // The first step loop holds four stores, 1024 floats apart.
    const size_t step = nest.stmt.find(".d_in.d_io, 0, ");
    ASSERT_NE(step, std::string::npos) << nest.stmt;
    const std::string body = nest.stmt.substr(step, nest.stmt.find('}', step) - step);
    for (const char *offset : {" + 1024, 1, ", " + 2048, 1, ", " + 3072, 1, "}) {
        EXPECT_NE(body.find(offset), std::string::npos) << offset << " in\n" << body;
    }
    // Fewer rows than a task takes run as one serial loop over the rows, not as a partial task.
    EXPECT_GE(count(".rebased:serial"), 1) << nest.stmt;
}

TEST(Variants, ConvTiledLoopStructureInEveryRank) {
    // schedules/conv/schedules.cpp, every rank, one JIT pipeline each (lowering one takes seconds):
    // - two nests: the weight copy (once per run) and the conv, which pads the input each task
    //   reads inside its own loop nest; the AOT kernels' count (what `halogen compare` and
    //   halogen_perf print) read off their statements agrees;
    // - the register tile adds a vector of output channels times one padded input value
    //   (broadcast);
    // - a parallel task is a block of rows of one sample (conv1d: of columns), and conv3d runs its
    //   planes inside the task, so the task's padded rows serve them all.
    for (const char *family : {"conv1d", "conv2d", "conv3d"}) {
        FamilyKernel kernel = FamilyKernel::jit(family, "tiled");
        EXPECT_EQ(kernel.kernels(), 2) << family;
        const AotKernel *aot = find_aot_kernel(family, "tiled");
        ASSERT_NE(aot, nullptr) << family;
        EXPECT_EQ(aot_kernel_count(*aot), 2) << family << ": " << aot->stmt_path;

        LoopNest nest = loop_nest(kernel.program()->pipeline().lowered.back());
        const int width = halogen::host_target().natural_vector_size(Halide::Float(32));
        EXPECT_NE(nest.stmt.find("*x" + std::to_string(width) + "(pad_"), std::string::npos) << family << "\n" << nest.stmt;
        std::vector<std::string> parallel;
        std::size_t first_parallel = nest.loops.size(), plane = nest.loops.size();
        for (std::size_t i = 0; i < nest.loops.size(); ++i) {
            const std::string &l = nest.loops[i];
            if (l.rfind("add_", 0) != 0) continue;   // the weight copy and the padding have their own
            if (l.find(":parallel") == std::string::npos) {
                bool is_plane = l.find(".s0.a2:") != std::string::npos || l.find(".s0.a2.") != std::string::npos;
                if (is_plane) plane = std::min(plane, i);
                continue;
            }
            parallel.push_back(l);
            first_parallel = std::min(first_parallel, i);
        }
        ASSERT_EQ(parallel.size(), 2u) << family << ": the K >= 32 nest and its guarded twin\n"
                                       << ::testing::PrintToString(nest.loops);
        for (const std::string &l : parallel) EXPECT_NE(l.find(".yo.t:parallel"), std::string::npos) << l;
        if (std::string(family) == "conv3d") {
            EXPECT_GT(plane, first_parallel) << "conv3d's plane loop runs inside a task";
            EXPECT_LT(plane, nest.loops.size()) << ::testing::PrintToString(nest.loops);
        }
    }
}

// A conv geometry the AOT kernels do not cover (5-wide window, stride 2, pad 2) is JIT-compiled
// from the same family graph for every variant, the autoschedulers included (their plugins are
// loaded into the process).
TEST(Variants, ConvOfAnotherGeometryRunsEveryVariantJit) {
    const std::vector<int64_t> x = {2, 3, 11, 9}, kernel = {4, 5, 5};
    auto f = conv::geometry(x, kernel, 2, 2);
    Inputs in = testing::random_inputs(f->graph(), {}, 21);
    Array want = interpret(f->graph().outputs()[0], in, {});
    EXPECT_EQ(want.shape(), (std::vector<int64_t>{2, 4, 6, 5}));   // (11 + 4 - 5) / 2 + 1, (9 + 4 - 5) / 2 + 1
    for (const Variant &v : variants_of("conv2d")) {
        FamilyKernel k = FamilyKernel::jit(f, v.name);
        Array got(want.dtype(), want.shape());
        k.run(refs_of(in), got.ref());
        EXPECT_TRUE(arrays_near(want, got, 1e-4, 1e-4)) << v.name;
        EXPECT_GE(k.kernels(), 1) << v.name;
    }
    EXPECT_THROW(conv::geometry({1, 3, 2, 2}, {4, 5, 5}, 1, 0), ShapeError);   // window larger than the input
}

// The norms' schedules on softmax's stabilizing step x - max(x) over x [R, D] (a family named
// "layernorm" only to pick those variants): `fused` splits the row's reduce_max, rfactors it into
// vector partial maxima and folds them with an atomic vector reduction; the autoschedulers take it
// as they find it. A NaN first, in the middle or last in a row must make that row's max, hence the
// whole output row, NaN (ops.h), and leave the other rows alone.
TEST(Variants, NormSchedulesOnRowMaxPropagateNaN) {
    const Dim R = Dim::sym("R"), D = Dim::sym("D");
    Tensor x = input("x", DType::Float32, {R, D});
    auto f = std::make_shared<Family>();
    f->name = "layernorm";
    f->contract = Contract("x - max(x)", Graph({sub(x, max(x, {-1}, true))}));
    f->typical = {{"R", 64}, {"D", 512}};
    const int64_t rows = 4, cols = 100;
    const Bindings b = {{"R", rows}, {"D", cols}};
    Inputs in = testing::random_inputs(f->graph(), b, 31);
    Array &xv = in.at("x");
    xv.set(0 * cols + 0, NAN);
    xv.set(1 * cols + 50, NAN);
    xv.set(2 * cols + cols - 1, NAN);
    Array want = interpret(f->graph().outputs()[0], in, b);
    for (int64_t k = 0; k < rows * cols; ++k) ASSERT_EQ(std::isnan(want.get(k)), k < 3 * cols) << "interpreter, " << k;
    for (const Variant &v : variants_of("layernorm")) {
        FamilyKernel k = FamilyKernel::jit(f, v.name);
        Array got(want.dtype(), want.shape());
        k.run(refs_of(in), got.ref());
        EXPECT_TRUE(arrays_near(want, got)) << v.name;   // exact: a max and a subtraction
    }
}

TEST(Variants, UnknownNamesAreTypedErrors) {
    EXPECT_THROW(variants_of("softmax"), Error);
    EXPECT_THROW(find_variant("embedding", "fused"), Error);
    EXPECT_THROW(find_family("conv4d"), Error);
}

}  // namespace
}  // namespace halogen
