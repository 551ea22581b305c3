// halogen's Halide target for this machine asks for no instruction set the CPU lacks: Halide 14
// takes a Zen 4 for a Sapphire Rapids, whose LLVM CPU includes AVX512-FP16 (halide_gen/compiler/host_target.h).
#include <gtest/gtest.h>

#include "halide_gen/compiler/host_target.h"

namespace halogen {
namespace {

TEST(HostTarget, SapphireRapidsOnlyWhereTheCpuHasAvx512Fp16) {
    // The compiler's own CPU detection is the independent check.
    const bool fp16 = __builtin_cpu_supports("avx512fp16");
    for (const Halide::Target &t : {host_target(), jit_target()}) {
        if (!fp16) {
            EXPECT_FALSE(t.has_feature(Halide::Target::AVX512_SapphireRapids)) << t.to_string();
        } else if (Halide::get_host_target().has_feature(Halide::Target::AVX512_SapphireRapids)) {
            EXPECT_TRUE(t.has_feature(Halide::Target::AVX512_SapphireRapids)) << t.to_string();
        }
    }
}

TEST(HostTarget, KeepsEveryOtherFeature) {
    const Halide::Target host = Halide::get_host_target();
    const Halide::Target ours = host_target();
    EXPECT_EQ(ours.arch, host.arch);
    EXPECT_EQ(ours.bits, host.bits);
    for (auto f : {Halide::Target::AVX2, Halide::Target::FMA, Halide::Target::AVX512, Halide::Target::AVX512_Skylake,
                   Halide::Target::AVX512_Cannonlake}) {
        EXPECT_EQ(ours.has_feature(f), host.has_feature(f)) << "feature " << int(f);
    }
}

TEST(HostTarget, OtherArchitecturesAreLeftAlone) {
    const Halide::Target arm("arm-64-linux");
    EXPECT_EQ(for_this_cpu(arm), arm);
}

}  // namespace
}  // namespace halogen
