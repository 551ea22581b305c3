// A benchmark case made ready to time (prepared_case.h).
#include "perf/prepared_case.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/aot_runner.h"

namespace halogen::perf {

namespace {

// Writes every page once, so a timed call never pays for first touches.
void touch(Array &a) {
    if (a.size()) std::memset(a.data<uint8_t>(), 0, std::size_t(a.size()) * dtype_size(a.dtype()));
}

}  // namespace

PreparedCase::PreparedCase(const BenchCase &c) : spec_(c), data_(c.make()) {
    for (auto &[name, a] : data_.inputs) refs_.emplace(name, a->ref());
    if (c.family == "embedding") {
        refs_.at("weight").shape[0] = c.vocab;   // the vocabulary sweep reads a prefix of one table
        const int64_t T = refs_.at("ids").shape[0];
        id_pool_ = random_ids(c.id_sets * T, c.vocab, 11);
        first_ids();
    }
    output_ = Array(DType::Float32, data_.out_shape);
    touch(output_);
    const AotKernel *ref = find_aot_kernel(c.family, c.reference);
    if (!ref) throw Error(fmt::format("perf {}: reference variant '{}' is not built", c.name, c.reference));
    run_aot(*ref, refs_, output_.ref());
    want_ = output_;
}

void PreparedCase::first_ids() {
    next_set_ = 0;
    next_ids();
}

void PreparedCase::next_ids() {
    if (spec_.id_sets == 0) return;
    BufferRef &ids = refs_.at("ids");
    const int64_t T = ids.shape[0];
    std::memcpy(ids.data, id_pool_.data<int32_t>() + next_set_ * T, std::size_t(T) * sizeof(int32_t));
    next_set_ = (next_set_ + 1) % spec_.id_sets;
}

double PreparedCase::checked(const std::function<void()> &run) {
    first_ids();
    std::fill_n(output_.data<float>(), output_.size(), NAN);
    run();
    return max_abs_diff(output_, want_);
}

double PreparedCase::tolerance() const {
    if (spec_.family == "embedding") return 0;   // a copy of rows
    if (spec_.flops > 0) {                        // conv: sums over the window
        const double window = spec_.flops / 2 / double(want_.size());
        return 1e-3 * std::sqrt(window);
    }
    return 1e-3;
}

PreparedCase &prepared(const BenchCase &c, int copy) {
    static std::map<std::pair<std::string, int>, std::unique_ptr<PreparedCase>> cache;
    auto &slot = cache[{c.name, copy}];
    if (!slot) slot = std::make_unique<PreparedCase>(c);
    return *slot;
}

}  // namespace halogen::perf
