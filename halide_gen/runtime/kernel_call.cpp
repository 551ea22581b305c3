// The run path (kernel_call.h): bind, wrap, invoke.
#include "halide_gen/runtime/kernel_call.h"

#include <limits>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

bool is_empty(const BufferRef &b) {
    for (int64_t d : b.shape) {
        if (d == 0) return true;
    }
    return false;
}

// Halide numbers a buffer's dimensions innermost first and indexes them with 32 bits.
std::vector<int> halide_extents(const BufferRef &b, const std::string &role) {
    std::vector<int> sizes;
    for (auto it = b.shape.rbegin(); it != b.shape.rend(); ++it) {
        if (*it > std::numeric_limits<int32_t>::max()) {
            throw BufferError(fmt::format("{}: extent {} exceeds Halide's 32-bit indexing", role, *it));
        }
        sizes.push_back(static_cast<int>(*it));
    }
    return sizes;
}

// The host pointer to hand Halide. An empty buffer may have no memory at all (an empty Array's,
// or std::vector's, data() is null), but Halide reads a null host pointer as a *bounds query*: the
// pipeline then only fills in the region it would need and returns success without computing
// anything, so a non-empty output next to an empty input (a table with V = 0, a conv with C = 0)
// would be silently left unwritten. An empty buffer therefore gets a valid dummy address, which
// Halide never dereferences: it has no element to read, and a kernel that asks for one fails its
// bounds check. A non-empty buffer needs memory.
void *halide_host(const BufferRef &b, const std::string &role) {
    alignas(64) static uint8_t empty_buffer_host[64];
    if (b.data != nullptr) return b.data;
    if (!is_empty(b)) throw BufferError(fmt::format("{}: null data pointer", role));
    return empty_buffer_host;
}

}  // namespace

halide_type_t halide_runtime_type(DType t) {
    switch (t) {
    case DType::Float32: return halide_type_t(halide_type_float, 32);
    case DType::Int32: return halide_type_t(halide_type_int, 32);
    case DType::Bool: return halide_type_t(halide_type_uint, 1);
    case DType::BFloat16: return halide_type_t(halide_type_bfloat, 16);
    }
    return halide_type_t();
}

KernelCall::KernelCall(const Contract &contract, std::shared_ptr<const KernelEntry> entry, const BufferRefs &inputs,
                       const std::vector<BufferRef> &outputs, const Bindings &given)
    : entry_(std::move(entry)), bound_(contract.bind(inputs, outputs, given)) {
    const std::string &who = contract.who();
    for (const BufferRef &o : bound_.outputs) empty_ = empty_ || is_empty(o);
    buffers_.reserve(bound_.inputs.size() + bound_.outputs.size());
    auto wrap = [&](const BufferRef &b, const std::string &role) {
        buffers_.emplace_back(halide_runtime_type(b.dtype), halide_host(b, role), halide_extents(b, role));
        return buffers_.back().raw_buffer();
    };
    for (const auto &[name, ref] : bound_.inputs) {
        args_.buffers[name] = wrap(ref, fmt::format("{}: input '{}'", who, name));
    }
    for (std::size_t k = 0; k < bound_.outputs.size(); ++k) {
        const std::string name = bound_.outputs.size() == 1 ? "out" : fmt::format("out{}", k);
        halide_buffer_t *raw = wrap(bound_.outputs[k], fmt::format("{}: output", who));
        args_.buffers[name] = raw;
        args_.outputs.push_back(raw);
    }
    for (const auto &[name, value] : bound_.dims) {
        if (value > std::numeric_limits<int32_t>::max()) {
            throw BindingError(fmt::format("{}: symbolic dim '{}' = {} exceeds Halide's 32-bit indexing", who, name, value));
        }
        args_.dims[name] = static_cast<int32_t>(value);
    }
    if (!empty_) invoke_ = entry_->prepare(args_);
}

void KernelCall::run() const {
    if (invoke_) invoke_();
}

void run_kernel(const Contract &contract, std::shared_ptr<const KernelEntry> entry, const BufferRefs &inputs,
                const std::vector<BufferRef> &outputs, const Bindings &given) {
    KernelCall(contract, std::move(entry), inputs, outputs, given).run();
}

}  // namespace halogen
