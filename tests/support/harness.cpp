// Test support implementation.
#include "tests/support/harness.h"

#include <cmath>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "halide_gen/compiler/program.h"

namespace halogen::testing {

Inputs random_inputs(const Graph &g, const Bindings &b, uint32_t seed) {
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const Node *n : g.inputs()) shapes[n->name] = eval_shape(n->shape, b, n->name);
    return random_inputs_shaped(g, shapes, seed);
}

Inputs random_inputs_shaped(const Graph &g, const std::map<std::string, std::vector<int64_t>> &shapes, uint32_t seed) {
    std::mt19937 rng(seed);
    Inputs out;
    for (const Node *n : g.inputs()) {
        if (!shapes.count(n->name)) continue;   // left to the contract's default (a norm's eps)
        Array a(n->dtype, shapes.at(n->name));
        const bool pos = n->name.rfind("pos", 0) == 0;
        std::uniform_real_distribution<float> f(pos ? 0.25f : -3.0f, pos ? 4.0f : 3.0f);
        std::uniform_int_distribution<int32_t> i(-20, 20);
        for (int64_t k = 0; k < a.size(); ++k) {
            switch (n->dtype) {
            case DType::Float32: a.set(k, f(rng)); break;
            case DType::Int32: a.set(k, i(rng)); break;
            case DType::Bool: a.set(k, rng() & 1); break;
            case DType::BFloat16: a.set(k, f(rng)); break;
            }
        }
        out.emplace(n->name, std::move(a));
    }
    return out;
}

CompiledGraph::CompiledGraph(const Tensor &out, const std::string &schedule)
    : out_(out), program_(std::make_unique<Program>(Graph({out}), schedule)) {}

CompiledGraph::~CompiledGraph() = default;

namespace {

// Caller memory that is element-aligned but not vector-aligned (64 bytes + one element), followed
// by a canary: kernels must accept any element-aligned buffer and never write past its end.
class MisalignedBuffer {
public:
    MisalignedBuffer(DType t, const std::vector<int64_t> &shape, const void *init)
        : bytes_(Array(t, shape).size() * dtype_size(t)), storage_(bytes_ + 2 * kSlack, kCanary) {
        auto addr = reinterpret_cast<uintptr_t>(storage_.data());
        offset_ = (64 - addr % 64) % 64 + dtype_size(t);
        if (init && bytes_) std::memcpy(data(), init, bytes_);
    }
    uint8_t *data() { return storage_.data() + offset_; }
    bool canary_intact() const {
        for (std::size_t k = offset_ + bytes_; k < storage_.size(); ++k) {
            if (storage_[k] != kCanary) return false;
        }
        return true;
    }

private:
    static constexpr std::size_t kSlack = 128;
    static constexpr uint8_t kCanary = 0xA5;
    std::size_t bytes_, offset_ = 0;
    std::vector<uint8_t> storage_;
};

}  // namespace

Array CompiledGraph::run(const Inputs &inputs, const Bindings &b) {
    BufferRefs refs;
    std::vector<std::unique_ptr<MisalignedBuffer>> held;
    for (const auto &[name, a] : inputs) {
        held.push_back(std::make_unique<MisalignedBuffer>(a.dtype(), a.shape(), a.data<uint8_t>()));
        refs.emplace(name, BufferRef{held.back()->data(), a.dtype(), a.shape()});
    }
    auto shape = eval_shape(out_.shape(), b, "output");
    MisalignedBuffer out(out_.dtype(), shape, nullptr);
    program_->run(refs, {BufferRef{out.data(), out_.dtype(), shape}}, b);
    EXPECT_TRUE(out.canary_intact()) << "the kernel wrote past the end of its output buffer";
    Array result(out_.dtype(), shape);
    if (result.size()) std::memcpy(result.data<uint8_t>(), out.data(), result.size() * dtype_size(out_.dtype()));
    return result;
}

::testing::AssertionResult arrays_near(const Array &want, const Array &got, double atol, double rtol) {
    if (want.dtype() != got.dtype() || want.shape() != got.shape()) {
        return ::testing::AssertionFailure() << "want " << dtype_name(want.dtype()) << dims_str(want.shape())
                                             << ", got " << dtype_name(got.dtype()) << dims_str(got.shape());
    }
    int64_t bad = 0;
    std::string first;
    for (int64_t k = 0; k < want.size(); ++k) {
        const double w = want.get(k), g = got.get(k);
        const bool same = (std::isnan(w) && std::isnan(g)) || w == g ||
                          (std::isfinite(w) && std::abs(w - g) <= atol + rtol * std::abs(w));
        if (!same && bad++ == 0) first = fmt::format("element {}: want {}, got {}", k, w, g);
    }
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bad << " of " << want.size() << " elements differ; first " << first;
}

}  // namespace halogen::testing
