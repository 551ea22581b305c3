// Corrections to Halide 14's host detection (see the header).
#include "halide_gen/compiler/host_target.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace halogen {

namespace {

bool cpu_has_avx512_fp16() {
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (d & (1u << 23)) != 0;   // CPUID.(EAX=7, ECX=0):EDX[23] AVX512-FP16
#else
    return false;
#endif
}

}  // namespace

Halide::Target for_this_cpu(Halide::Target t) {
    if (t.arch == Halide::Target::X86 && t.has_feature(Halide::Target::AVX512_SapphireRapids) &&
        !cpu_has_avx512_fp16()) {
        t = t.without_feature(Halide::Target::AVX512_SapphireRapids);
    }
    return t;
}

Halide::Target host_target() { return for_this_cpu(Halide::get_host_target()); }

Halide::Target jit_target() { return for_this_cpu(Halide::get_jit_target_from_environment()); }

int vector_registers(const Halide::Target &t) { return t.natural_vector_size(Halide::Float(32)) >= 16 ? 32 : 16; }

}  // namespace halogen
