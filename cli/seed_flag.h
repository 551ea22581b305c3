// The --seed flag of the llama commands: a number from 0 to 2^64 - 1, or -1 for a random seed
// drawn from std::random_device and printed on stderr ("llama generate: seed: N"), so that a run
// can be repeated, as llama.cpp does with its -1. Any other negative number is an error (CLI11
// alone would wrap -2 to 2^64 - 2 without a word).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace halogen {

// Adds --seed to `command`, its text landing in `text` (default "0").
void add_seed_flag(CLI::App &command, std::string &text, const std::string &help);

// The seed `text` names; -1 draws one and prints it on stderr under `command`.
uint64_t resolve_seed(const std::string &command, const std::string &text);

}  // namespace halogen
