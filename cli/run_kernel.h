// `halogen run` and `halogen show`: one AOT kernel on NumPy files, and its loop nest.
#pragma once

#include <map>
#include <string>

namespace halogen {

// Reads each input from its .npy file, runs `family`'s `variant` kernel, writes the output.
int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path);

// Prints the kernel's lowered statement (written at build time), or its C source through Halide's
// C backend when `c_source` (hand-scheduled variants; compiled on the fly).
int show_kernel(const std::string &family, const std::string &variant, bool c_source);

// One paragraph per family: its inputs and contract, and its variants.
std::string families_help();

}  // namespace halogen
