// Reading `halogen compare`'s flags for a family's cases (Family::cases): whole numbers and shapes
// such as 8x512x4096, each a ShapeError naming the flag when it does not parse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedules/family.h"

namespace halogen {

// The flag's value, or `fallback` when it is not given.
int64_t arg_int(const CaseArgs &args, const std::string &flag, int64_t fallback);
double arg_double(const CaseArgs &args, const std::string &flag, double fallback);
// "8x512x4096" -> {8, 512, 4096}; `fallback` when the flag is not given.
std::vector<int64_t> arg_shape(const CaseArgs &args, const std::string &flag, std::vector<int64_t> fallback);
// "8x512x4096"
std::string shape_label(const std::vector<int64_t> &shape);
// 268435456 -> "268M": three significant digits and an SI prefix.
std::string si_number(double v);

}  // namespace halogen
