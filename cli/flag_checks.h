// Checks of the command line's numbers as CLI11 validators whose messages say what a flag takes
// in words: "--threads: must be >= 1, got 0", not CLI11's range of doubles to 300 digits.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

namespace halogen {

// An integer of at least `minimum`: "must be >= 1, got 0", "must be an integer >= 1, got 'two'".
CLI::Validator at_least(int64_t minimum);

// A number above zero: "must be a number > 0, got 0".
CLI::Validator above_zero();

// A list item that is not empty (`--ids 1,,2` or `--ids ""`): "an empty item in the list".
CLI::Validator not_empty();

}  // namespace halogen
