// Names and classes of the primitive ops.
#include "frontend/ops.h"

namespace halogen {

std::string op_name(Op op) {
    switch (op) {
    case Op::Input: return "input";
    case Op::Const: return "const";
    case Op::IndexComponents: return "index_components";
    case Op::Neg: return "neg";
    case Op::Recip: return "recip";
    case Op::Sqrt: return "sqrt";
    case Op::Exp2: return "exp2";
    case Op::Log2: return "log2";
    case Op::Sin: return "sin";
    case Op::Not: return "not";
    case Op::Cast: return "cast";
    case Op::Add: return "add";
    case Op::Mul: return "mul";
    case Op::Max: return "max";
    case Op::IDiv: return "idiv";
    case Op::Mod: return "mod";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Ne: return "ne";
    case Op::Lt: return "lt";
    case Op::Where: return "where";
    case Op::Gather: return "gather";
    case Op::ReduceSum: return "reduce_sum";
    case Op::ReduceMax: return "reduce_max";
    case Op::Reshape: return "reshape";
    case Op::Permute: return "permute";
    case Op::Expand: return "expand";
    case Op::Slice: return "slice";
    case Op::Pad: return "pad";
    case Op::Window: return "window";
    }
    return "?";
}

bool is_view(Op op) {
    return op == Op::Reshape || op == Op::Permute || op == Op::Expand || op == Op::Slice ||
           op == Op::Pad || op == Op::Window;
}

bool is_reduce(Op op) { return op == Op::ReduceSum || op == Op::ReduceMax; }

bool is_elementwise(Op op) { return op >= Op::Neg && op <= Op::Where; }

}  // namespace halogen
