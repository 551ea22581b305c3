// `halogen run` and `halogen show`: one kernel on NumPy files, and a kernel's loop nest.
#pragma once

#include <map>
#include <string>

namespace halogen {

// Reads each input from its .npy file, runs the family's variant (its default variant when
// `variant` is empty) through the run path, writes the output.
int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path);

// Prints the kernel's lowered statement (written at build time), or its C source from Halide's C
// backend.
int show_kernel(const std::string &family, const std::string &variant, bool c_source);

// One paragraph per family: its inputs as the caller holds them, its notes, its variants.
std::string families_help();

}  // namespace halogen
