// Element types of halogen tensors. Bool is stored as one byte (0 or 1), as Halide does.
// BFloat16 is a storage type (model weights, frontend/bfloat16.h): tensors of it are read,
// moved (views, where, gather) and cast; arithmetic casts them to float32 first.
#pragma once

#include <cstddef>
#include <string>

namespace halogen {

enum class DType { Float32, Int32, Bool, BFloat16 };

std::string dtype_name(DType t);          // "float32", "int32", "bool", "bfloat16"
std::size_t dtype_size(DType t);          // bytes per element
bool is_float(DType t);                   // float32: what float arithmetic takes
bool is_numeric(DType t);                 // float32 or int32

}  // namespace halogen
