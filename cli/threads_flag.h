// The --threads flag of every command that runs kernels (compare, run, llama generate, chat,
// bench): how many threads the kernels' parallel loops use (halide_gen/runtime/kernel_pool.h),
// one per core by default.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace halogen {

// Adds --threads N to `command`, stored in `threads` (0: one per core).
CLI::Option *add_threads_flag(CLI::App &command, int &threads);

// The thread count for --threads `asked`: one per core when 0; more threads than cores are capped
// at the cores with a warning on stderr under `command` (they would only take turns, and timings
// measured on them mean nothing).
int resolve_threads(const std::string &command, int asked);

// resolve_threads, then set the kernels' thread count to it; returns it.
int use_threads(const std::string &command, int asked);

}  // namespace halogen
