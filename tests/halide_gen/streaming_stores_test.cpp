// Streaming stores (halide_gen/compiler/streaming_stores.h): the rewrite on a small pipeline's LLVM module;
// the streamed twins of the AOT kernels (their assembly, their numbers at every output alignment,
// so both the streamed and the fallback stores run), which variants have one, and when the
// runner calls it (half the last-level cache, halide_gen/runtime/host_caches.h).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "frontend/halogen.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/streaming_stores.h"
#include "halide_gen/runtime/host_caches.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

// out(x, y) = in(x, y) * 2 + 1, vectorized by 16 along x; its output argument is "out".
Halide::Module doubling_module(bool vectorize) {
    Halide::ImageParam in(Halide::Float(32), 2, "in");
    Halide::Var x("x"), y("y");
    Halide::Func out("out");
    out(x, y) = in(x, y) * 2.f + 1.f;
    if (vectorize) out.vectorize(x, 16, Halide::TailStrategy::GuardWithIf);
    Halide::Target t = host_target().with_feature(Halide::Target::NoRuntime);
    return out.compile_to_module({in}, "doubling", t);
}

struct Counts {
    int nontemporal = 0, other_vector_stores = 0, scalar_stores = 0, scalar_nontemporal = 0, sfences = 0;
};

Counts count(const llvm::Module &m) {
    Counts c;
    for (const llvm::Function &f : m) {
        for (const llvm::BasicBlock &b : f) {
            for (const llvm::Instruction &i : b) {
                if (const auto *s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
                    if (!s->getValueOperand()->getType()->isVectorTy()) {
                        ++c.scalar_stores;
                        c.scalar_nontemporal += s->getMetadata(llvm::LLVMContext::MD_nontemporal) != nullptr;
                        continue;
                    }
                    if (s->getMetadata(llvm::LLVMContext::MD_nontemporal)) {
                        ++c.nontemporal;
                        const uint64_t bytes =
                            m.getDataLayout().getTypeStoreSize(s->getValueOperand()->getType()).getFixedSize();
                        EXPECT_GE(s->getAlign().value(), bytes) << "a streamed store must be aligned to its size";
                    } else {
                        ++c.other_vector_stores;
                    }
                } else if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
                    c.sfences += call->getIntrinsicID() == llvm::Intrinsic::x86_sse_sfence;
                }
            }
        }
    }
    return c;
}

TEST(StreamingStores, OutputVectorStoresGetAnAlignedStreamedTwinAndAFence) {
    llvm::LLVMContext context;
    auto m = Halide::compile_module_to_llvm_module(doubling_module(true), context);
    const Counts before = count(*m);
    ASSERT_GT(before.other_vector_stores, 0);
    EXPECT_EQ(before.nontemporal, 0);
    EXPECT_EQ(before.sfences, 0);

    const int rewritten = stream_output_stores(*m, {"out"});
    const Counts after = count(*m);
    EXPECT_EQ(rewritten, before.other_vector_stores);
    // Each unaligned store keeps its cached form for unaligned addresses beside the streamed one.
    EXPECT_EQ(after.nontemporal, rewritten);
    EXPECT_EQ(after.other_vector_stores, before.other_vector_stores);
    EXPECT_GE(after.sfences, 1);
}

TEST(StreamingStores, OnlyTheNamedBuffersStoresChange) {
    llvm::LLVMContext context;
    auto m = Halide::compile_module_to_llvm_module(doubling_module(true), context);
    EXPECT_EQ(stream_output_stores(*m, {"in", "not_a_buffer"}), 0);
    const Counts c = count(*m);
    EXPECT_EQ(c.nontemporal, 0);
    EXPECT_EQ(c.sfences, 0);
}

TEST(StreamingStores, ScalarStoresAreLeftAlone) {
    llvm::LLVMContext context;
    auto m = Halide::compile_module_to_llvm_module(doubling_module(false), context);
    // LLVM may vectorize the scalar loop itself, and whether it does depends on what the process
    // compiled before: alone, this module has no vector store; after the two tests above, 12,
    // which carry no buffer's name and stay cached. Either way no scalar store is streamed.
    const Counts before = count(*m);
    ASSERT_GT(before.scalar_stores, 0);
    const int rewritten = stream_output_stores(*m, {"out"});
    const Counts after = count(*m);
    EXPECT_LE(rewritten, before.other_vector_stores);
    EXPECT_EQ(after.nontemporal, rewritten);
    EXPECT_EQ(after.scalar_stores, before.scalar_stores);
    EXPECT_EQ(after.scalar_nontemporal, 0);
}

std::string assembly_of(const AotKernel &k, bool streamed) {
    std::string path = k.stmt_path;   // the assembly sits beside the statement
    path.replace(path.size() - 5, 5, streamed ? "_streamed.s" : ".s");
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The kernel called through its streamed twin, whatever the output's size.
AotKernel streamed_twin(const AotKernel &k) {
    AotKernel twin = k;
    twin.argv = k.streamed_argv;
    twin.streamed_argv = nullptr;
    return twin;
}

TEST(StreamingStores, TwinsAreTheVariantsThatAskForThemAndOnlyTheyStream) {
    int twins = 0;
    for (const AotKernel &k : aot_kernels()) {
        const Variant &v = find_variant(k.family, k.variant);
        EXPECT_EQ(k.streamed_argv != nullptr, v.streaming_stores)
            << k.family << " " << k.variant << ": the twin schedules/aot/ built and the registry's "
            << "kStreamingStores disagree";
        EXPECT_EQ(assembly_of(k, false).find("vmovntps"), std::string::npos) << k.family << " " << k.variant;
        if (!k.streamed_argv) continue;
        ++twins;
        const std::string s = assembly_of(k, true);
        EXPECT_NE(s.find("vmovntps"), std::string::npos) << k.family << " " << k.variant;
        EXPECT_NE(s.find("sfence"), std::string::npos) << k.family << " " << k.variant;
    }
    EXPECT_EQ(twins, 5);   // the four norms' fused, embedding's gather
}

// LayerNorm's and RMSNorm's twins prefetch the next row into the L2 (prefetcht1, not Halide 14's
// prefetchnta); no other twin and no kernel built the ordinary way prefetches.
TEST(StreamingStores, RowNormTwinsPrefetchTheNextRowIntoTheL2) {
    for (const AotKernel &k : aot_kernels()) {
        EXPECT_EQ(assembly_of(k, false).find("prefetch"), std::string::npos) << k.family << " " << k.variant;
        if (!k.streamed_argv) continue;
        const std::string s = assembly_of(k, true);
        EXPECT_EQ(s.find("prefetchnta"), std::string::npos) << k.family << " " << k.variant;
        const std::string family = k.family;
        EXPECT_EQ(s.find("prefetcht1") != std::string::npos, family == "layernorm" || family == "rmsnorm")
            << k.family << " " << k.variant;
    }
}

// The twins on rows of 256 floats (the gather's: 4352, a block of four page streams and a tail),
// written into an output that starts 0, 4, 32 or 64 bytes into a cache-line aligned block: at 0
// and 64 every full vector store is streamed, at 4 and 32 none is (the fallback), and the numbers
// must be the interpreter's either way.
TEST(StreamingStores, TwinsMatchTheInterpreterAtEveryOutputAlignment) {
    const std::map<std::string, std::map<std::string, std::vector<int64_t>>> shapes = {
        {"layernorm", {{"x", {6, 256}}, {"weight", {256}}, {"bias", {256}}}},
        {"rmsnorm", {{"x", {6, 256}}, {"weight", {256}}}},
        {"batchnorm", {{"x", {2, 3, 256}}, {"mean", {3}}, {"var", {3}}, {"weight", {3}}, {"bias", {3}}}},
        {"groupnorm", {{"x", {2, 64, 64}}, {"weight", {64}}, {"bias", {64}}}},
        {"embedding", {{"ids", {9}}, {"weight", {17, 4352}}}},
    };
    for (const auto &[family, inputs] : shapes) {
        const Family &f = find_family(family);
        Inputs in = testing::random_inputs_shaped(f.graph(), inputs, 5);
        if (family == "batchnorm") {
            Array &var = in.at("var");
            for (int64_t k = 0; k < var.size(); ++k) var.set(k, std::abs(var.get(k)) + 0.5);
        }
        if (family == "embedding") {   // rows in range, and two out of range (zero rows)
            Array &ids = in.at("ids");
            for (int64_t t = 0; t < ids.size(); ++t) ids.set(t, t == 3 ? -1 : t == 5 ? 17 : (t * 7) % 17);
        }
        BufferRefs refs;
        for (auto &[name, a] : in) refs.emplace(name, a.ref());
        const Array want = interpret_call(f, refs);
        const AotKernel *k = find_aot_kernel(family, family == "embedding" ? "gather" : "fused");
        ASSERT_TRUE(k && k->streamed_argv) << family;
        const auto twin = aot_entry(streamed_twin(*k));
        for (int offset_floats : {0, 1, 8, 16}) {
            Array block(DType::Float32, {want.size() + 16});
            BufferRef out{block.data<float>() + offset_floats, DType::Float32, want.shape()};
            run_kernel(f.contract, twin, refs, {out});
            Array got(DType::Float32, want.shape());
            std::copy(block.data<float>() + offset_floats, block.data<float>() + offset_floats + want.size(),
                      got.data<float>());
            EXPECT_TRUE(testing::arrays_near(want, got, 1e-5, 1e-5)) << family << " output at +" << 4 * offset_floats
                                                                    << " bytes";
        }
    }
}

// The threshold is half the last-level cache as lscpu reads it (util-linux, a second reading of
// sysfs), not what sysconf says (halide_gen/runtime/host_caches.h).
TEST(StreamingStores, ThresholdIsHalfTheLastLevelCacheLscpuReports) {
    FILE *p = popen("lscpu -B -C=ONE-SIZE,LEVEL 2>/dev/null", "r");
    ASSERT_NE(p, nullptr);
    int64_t size = 0, level = 0, llc = 0, llc_level = 0;
    char header[256] = {};
    if (!fgets(header, sizeof header, p)) header[0] = 0;   // "ONE-SIZE LEVEL"
    while (fscanf(p, "%" SCNd64 " %" SCNd64, &size, &level) == 2) {
        if (level >= llc_level) llc_level = level, llc = size;
    }
    pclose(p);
    if (llc == 0) GTEST_SKIP() << "lscpu reports no caches here";
    if (std::getenv("HALOGEN_STREAMING_THRESHOLD_BYTES")) GTEST_SKIP() << "the threshold is set by the environment";
    EXPECT_EQ(last_level_cache_bytes(), llc);
    EXPECT_EQ(streaming_threshold_bytes(), llc / 2);
}

// A gather whose output is just below, and exactly at, the threshold: the runner switches to the
// twin at the threshold, and both calls copy the selected rows (checked row by row, not against
// the interpreter, whose one-hot sum would take T*V*D steps here).
TEST(StreamingStores, RunnerCallsTheTwinFromTheThresholdOn) {
    const FamilyKernel k = FamilyKernel::aot("embedding", "gather");
    ASSERT_TRUE(k.aot_kernel()->streamed_argv);
    const int64_t D = 4096, V = 37;   // rows of four pages: the gather's page streams
    const int64_t at_threshold = streaming_threshold_bytes() / (D * 4);
    ASSERT_GT(at_threshold, 1);
    Array weight(DType::Float32, {V, D});
    for (int64_t i = 0; i < V * D; ++i) weight.set(i, double(i % 1000) - 0.5 * double(i / D));
    for (int64_t T : {at_threshold - 1, at_threshold}) {
        Array ids(DType::Int32, {T});
        for (int64_t t = 0; t < T; ++t) ids.set(t, t % 11 == 5 ? V : (t * 13) % V);
        Array out(DType::Float32, {T, D});
        KernelCall call = k.call({{"ids", ids.ref()}, {"weight", weight.ref()}}, out.ref());
        EXPECT_EQ(call.streams(), T * D * 4 >= streaming_threshold_bytes()) << "T = " << T;
        call.run();
        int64_t wrong = 0;
        for (int64_t t = 0; t < T; ++t) {
            const int64_t row = int64_t(ids.get(t));
            for (int64_t d = 0; d < D; ++d) {
                const double want = row < V ? weight.get(row * D + d) : 0.0;
                wrong += out.get(t * D + d) != want;
            }
        }
        EXPECT_EQ(wrong, 0) << "T = " << T;
    }
}

// Stores::cached and Stores::streaming take one entry whatever the size (the perf harness times
// both), give the same rows, and a kernel without the twin refuses streaming stores by name.
TEST(StreamingStores, CallerCanChooseTheEntry) {
    const int64_t T = 3, D = 4096, V = 5;
    Array weight(DType::Float32, {V, D});
    for (int64_t i = 0; i < V * D; ++i) weight.set(i, double(i % 977));
    Array ids(DType::Int32, {T});
    for (int64_t t = 0; t < T; ++t) ids.set(t, (2 * t + 1) % V);
    const BufferRefs in{{"ids", ids.ref()}, {"weight", weight.ref()}};
    Array cached(DType::Float32, {T, D}), streamed(DType::Float32, {T, D});
    KernelCall by_size = FamilyKernel::aot("embedding", "gather").call(in, cached.ref());
    EXPECT_FALSE(by_size.streams());   // 48 KiB, far below the threshold
    KernelCall c = FamilyKernel::aot("embedding", "gather", Stores::cached).call(in, cached.ref());
    KernelCall s = FamilyKernel::aot("embedding", "gather", Stores::streaming).call(in, streamed.ref());
    EXPECT_FALSE(c.streams());
    EXPECT_TRUE(s.streams());
    c.run();
    s.run();
    int64_t differ = 0;
    for (int64_t i = 0; i < T * D; ++i) differ += cached.get(i) != streamed.get(i);
    EXPECT_EQ(differ, 0);
    EXPECT_EQ(cached.get(D + 7), weight.get(3 * D + 7));

    const AotKernel *plain = find_aot_kernel("embedding", "onehot");
    ASSERT_TRUE(plain);
    ASSERT_EQ(plain->streamed_argv, nullptr);
    try {
        FamilyKernel::aot("embedding", "onehot", Stores::streaming);
        FAIL() << "expected an Error";
    } catch (const Error &e) {
        EXPECT_STREQ(e.what(), "embedding onehot: no twin with streaming stores was built");
    }
}

}  // namespace
}  // namespace halogen
