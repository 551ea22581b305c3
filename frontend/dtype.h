// Element types of halogen tensors. Bool is stored as one byte (0 or 1), as Halide does.
#pragma once

#include <cstddef>
#include <string>

namespace halogen {

enum class DType { Float32, Int32, Bool };

std::string dtype_name(DType t);          // "float32", "int32", "bool"
std::size_t dtype_size(DType t);          // bytes per element
bool is_float(DType t);
bool is_numeric(DType t);                 // float32 or int32

}  // namespace halogen
