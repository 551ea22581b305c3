// Names and sizes of the element types.
#include "frontend/dtype.h"

namespace halogen {

std::string dtype_name(DType t) {
    switch (t) {
    case DType::Float32: return "float32";
    case DType::Int32: return "int32";
    case DType::Bool: return "bool";
    case DType::BFloat16: return "bfloat16";
    }
    return "?";
}

std::size_t dtype_size(DType t) { return t == DType::Bool ? 1 : t == DType::BFloat16 ? 2 : 4; }
bool is_float(DType t) { return t == DType::Float32; }
bool is_numeric(DType t) { return t == DType::Float32 || t == DType::Int32; }

}  // namespace halogen
