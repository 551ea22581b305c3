// DType -> Halide::Type.
#include "halide_gen/compiler/types.h"

namespace halogen {

Halide::Type halide_type(DType t) {
    switch (t) {
    case DType::Float32: return Halide::Float(32);
    case DType::Int32: return Halide::Int(32);
    case DType::Bool: return Halide::Bool();
    case DType::BFloat16: return Halide::BFloat(16);
    }
    return Halide::Float(32);
}

}  // namespace halogen
