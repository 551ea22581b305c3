// The interpreter on a family call (reference.h).
#include "schedules/reference.h"

#include <cstring>

#include "frontend/interpreter.h"

namespace halogen {

Array interpret_call(const Family &family, const BufferRefs &inputs, const Bindings &dims) {
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, ref] : inputs) shapes[name] = ref.shape;
    const Tensor &out = family.graph().outputs().at(0);
    Array result(out.dtype(), family.contract.output_shapes(shapes, dims).at(0));
    const BoundCall call = family.contract.bind(inputs, {result.ref()}, dims);
    Inputs copies;
    for (const auto &[name, view] : call.inputs) {
        Array a(view.dtype, view.shape);
        if (a.size()) std::memcpy(a.data<uint8_t>(), view.data, std::size_t(a.size()) * dtype_size(view.dtype));
        copies.emplace(name, std::move(a));
    }
    const Array got = interpret(out, copies, call.dims);
    if (got.size()) std::memcpy(result.data<uint8_t>(), got.data<uint8_t>(), std::size_t(got.size()) * dtype_size(got.dtype()));
    return result;
}

}  // namespace halogen
