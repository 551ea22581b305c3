// Calling AOT kernels through their argv entry points.
#include "halide_gen/aot_runner.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>

#include <HalideBuffer.h>
#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/families.h"
#include "halide_gen/buffer_extents.h"
#include "halide_gen/host_caches.h"
#include "halide_gen/openmp_par_for.h"

namespace halogen {

namespace {

halide_type_t type_of(DType t) {
    switch (t) {
    case DType::Float32: return halide_type_t(halide_type_float, 32);
    case DType::Int32: return halide_type_t(halide_type_int, 32);
    case DType::Bool: return halide_type_t(halide_type_uint, 1);
    }
    return halide_type_t();
}

// Halide reports run-time errors through this handler; keep the last message for the exception.
std::mutex error_mutex;
std::string last_error;
void record_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(error_mutex);
    last_error = msg;
}

void check_family_shapes(const AotKernel &k, const std::map<std::string, BufferRef> &inputs, const BufferRef &output) {
    const Family f = make_family(k.family);
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, ref] : inputs) shapes[name] = ref.shape;
    const Bindings b = bind_family(f, shapes);
    f.graph.check_bindings(b);
    for (const Node *n : f.graph.inputs()) {
        const BufferRef &ref = inputs.at(n->name);   // present: the argument loop checked it
        check_buffer(*n, fmt::format("{} {}: input '{}'", k.family, k.variant, n->name), ref.dtype, ref.shape, b);
    }
    check_buffer(f.graph.outputs()[0].node(), fmt::format("{} {}: output", k.family, k.variant), output.dtype,
                 output.shape, b);
}

}  // namespace

int64_t streaming_threshold_bytes() {
    static const int64_t bytes = [] {
        if (const char *env = std::getenv("HALOGEN_STREAMING_THRESHOLD_BYTES")) {
            const std::string text = env;
            int64_t value = -1;
            const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (err != std::errc() || end != text.data() + text.size() || value < 0) {
                throw Error(fmt::format("HALOGEN_STREAMING_THRESHOLD_BYTES: '{}' is not a byte count (an integer >= 0)",
                                        text));
            }
            return value;
        }
        const int64_t llc = last_level_cache_bytes();
        return llc > 0 ? llc / 2 : int64_t(16) << 20;
    }();
    return bytes;
}

const AotKernel *find_aot_kernel(const std::string &family, const std::string &variant) {
    for (const AotKernel &k : aot_kernels()) {
        if (family == k.family && variant == k.variant) return &k;
    }
    return nullptr;
}

AotCall::AotCall(const AotKernel &k, const std::map<std::string, BufferRef> &inputs, const BufferRef &output,
                 Stores stores)
    : kernel_(&k), entry_(k.argv) {
    if (stores == Stores::streaming && !k.streamed_argv) {
        throw Error(fmt::format("{} {}: no twin with streaming stores was built", k.family, k.variant));
    }
    static const bool handler_set = (halide_set_error_handler(record_error), true);
    (void)handler_set;
    use_openmp_par_for();
    const halide_filter_metadata_t *md = k.metadata();
    buffers_.reserve(md->num_arguments);
    for (int a = 0; a < md->num_arguments; ++a) {
        const halide_filter_argument_t &arg = md->arguments[a];
        const bool is_output = arg.kind == halide_argument_kind_output_buffer;
        const BufferRef *ref = &output;
        if (!is_output) {
            auto it = inputs.find(arg.name);
            if (it == inputs.end()) throw BufferError(fmt::format("{} {}: input '{}' is missing", k.family, k.variant, arg.name));
            ref = &it->second;
        }
        const std::string role = is_output ? "output" : fmt::format("input '{}'", arg.name);
        if (!(type_of(ref->dtype) == arg.type) || int(ref->shape.size()) != arg.dimensions) {
            throw BufferError(fmt::format("{} {}: {} is {} of rank {}, the kernel takes rank {}", k.family, k.variant, role,
                                          dtype_name(ref->dtype), ref->shape.size(), arg.dimensions));
        }
        check_host(*ref, role);
        buffers_.emplace_back(arg.type, halide_host(*ref), halide_extents(*ref, role));
    }
    for (auto &b : buffers_) args_.push_back(b.raw_buffer());
    int64_t output_bytes = int64_t(dtype_size(output.dtype));
    for (int64_t e : output.shape) output_bytes *= e;
    const bool by_size = stores == Stores::by_size && k.streamed_argv && output_bytes >= streaming_threshold_bytes();
    if (by_size || stores == Stores::streaming) entry_ = k.streamed_argv;
    if (is_empty(output)) {
        // Nothing to compute, so Halide is not called (as FamilyKernel does): an autoscheduled
        // kernel's bounds checks reject the empty inputs such a call passes (zero tokens, zero
        // batch) although there is no answer to get wrong. The family's shape contract, which
        // Halide would have checked, is checked here instead.
        check_family_shapes(k, inputs, output);
        args_.clear();
    }
}

void AotCall::run() {
    if (args_.empty()) return;   // an empty output, checked when the call was made
    const int rc = entry_(args_.data());
    if (rc != 0) {
        std::lock_guard<std::mutex> lock(error_mutex);
        throw Error(fmt::format("{} {}: kernel failed: {}", kernel_->family, kernel_->variant, last_error));
    }
}

void run_aot(const AotKernel &k, const std::map<std::string, BufferRef> &inputs, const BufferRef &output) {
    AotCall(k, inputs, output).run();
}

int aot_kernel_count(const AotKernel &k) {
    std::ifstream f(k.stmt_path);
    int n = 0;
    bool in_main = false;
    std::vector<bool> open;   // the blocks around the current line: true for a loop
    auto loops_open = [&] { return std::count(open.begin(), open.end(), true); };
    for (std::string line; std::getline(f, line);) {
        if (line.find(" func ") != std::string::npos) {
            in_main = line.rfind("external_plus_metadata func", 0) == 0;
            open.clear();
            continue;
        }
        const std::size_t first = line.find_first_not_of(' ');
        if (!in_main || first == std::string::npos) continue;
        const std::string s = line.substr(first);
        if (s[0] == '}' && !open.empty()) open.pop_back();   // "}" or "} else {"
        if (s.back() != '{') continue;
        // A kernel is a produce block no loop encloses; an if (a specialization, a size test)
        // around it does not make it nested.
        if (s.rfind("produce ", 0) == 0 && loops_open() == 0) ++n;
        open.push_back(s.rfind("for (", 0) == 0 || s.rfind("parallel (", 0) == 0);
    }
    return n;
}

}  // namespace halogen
