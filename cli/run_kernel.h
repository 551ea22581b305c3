// `halogen run` and `halogen show`: one kernel on NumPy files, and a kernel's loop nest.
#pragma once

#include <map>
#include <string>

namespace halogen {

// Reads each input from its .npy file, runs the family's variant (its default variant when
// `variant` is empty) through the run path, writes the output.
// With `strict_ids`, ids outside the family's range are an error (as PyTorch's Embedding has it);
// without, their count goes to stderr and the kernel gives their defined result (zero rows).
// `parameters` sets the family's run-time parameters by flag (eps, groups), each checked to be one.
int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path, bool strict_ids = false,
               const std::map<std::string, std::string> &parameters = {});

// Prints the kernel's loop nest (of the family's default variant when `variant` is empty):
// Halide's statement written at build time without its argument checks and buffer unpacking
// (`full`: all of it), or its C source from Halide's C backend.
int show_kernel(const std::string &family, const std::string &variant, bool c_source, bool full = false);
// The loop nest of a module's statement: loops, produce blocks, stores; no checks or unpacking.
std::string loop_nest_summary(const std::string &stmt);

// One paragraph per family: its inputs as the caller holds them, its notes, its variants.
std::string families_help();

}  // namespace halogen
