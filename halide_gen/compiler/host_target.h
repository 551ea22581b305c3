// The Halide target of the machine halogen runs on, for JIT kernels and for the AOT generators.
//
// Halide 14 takes any CPU with AVX512-VNNI and AVX512-BF16 for a Sapphire Rapids
// (avx512_sapphirerapids), and compiles for it with LLVM's "sapphirerapids" CPU, whose ISA includes
// AVX512-FP16: LLVM then uses FP16 instructions where it likes (vmovw for a vector of bools). An
// AMD Zen 4 has VNNI and BF16 but no FP16, and such a kernel dies there of an illegal instruction.
// These functions drop the feature when the CPU lacks FP16; Cannonlake's AVX-512 set remains.
#pragma once

#include <Halide.h>

namespace halogen {

// `t` without the features this CPU lacks (only when `t` is for this machine's architecture).
Halide::Target for_this_cpu(Halide::Target t);

// Halide::get_host_target() and Halide::get_jit_target_from_environment(), corrected.
Halide::Target host_target();
Halide::Target jit_target();

// The vector registers a register tile on target `t` can hold: 32 where a vector is AVX-512's 16
// floats (zmm0-31), else 16 (AVX2's ymm0-15). The hand schedules size their accumulator tiles by it.
int vector_registers(const Halide::Target &t);

}  // namespace halogen
