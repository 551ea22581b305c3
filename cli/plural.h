// A count with its noun in the right number, for the commands' output: "1 token", "3 tokens".
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace halogen {

inline std::string count_of(int64_t n, const std::string &noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

}  // namespace halogen
