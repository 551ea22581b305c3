// What a lowered pipeline compiles to, read off Halide's lowered statement: the loop nest as
// text (the way the seed shows its kernels) and the counts tests assert on.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/lower.h"

namespace halogen {

struct LoopNest {
    std::string stmt;                  // Halide's lowered statement, without buffer unpacking and checks
    std::vector<std::string> produced; // Funcs with a produce block (each is one realized loop nest)
    std::vector<std::string> allocated;// intermediate buffers (Allocate nodes)
    std::vector<std::string> loops;    // every loop, outermost first, as "name:kind"
};

// Lowers the pipeline for `target` (default: host) and inspects it. Cheap: no machine code.
LoopNest loop_nest(const LoweredGraph &lg, const Halide::Target &target = host_target());

}  // namespace halogen
