// A benchmark case made ready to time (prepared_case.h).
#include "perf/prepared_case.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "schedules/kernel.h"
#include "schedules/registry.h"

namespace halogen::perf {

namespace {

// Writes every page once, so a timed call never pays for first touches.
void touch(Array &a) {
    if (a.size()) std::memset(a.data<uint8_t>(), 0, std::size_t(a.size()) * dtype_size(a.dtype()));
}

}  // namespace

PreparedCase::PreparedCase(const BenchCase &c) : spec_(c), in_(c.spec.make()) {
    output_ = Array(find_family(c.family()).graph().outputs().at(0).dtype(), in_.out_shape);
    touch(output_);
    for (int64_t k = 0; k < buffer_sets(); ++k) {
        kernel_layouts_.push_back(find_family(c.family()).contract.bind(refs(k), {output_.ref()}, in_.dims));
    }
    FamilyKernel::aot(c.family(), c.reference).run(in_.refs, output_.ref(), in_.dims);
    want_ = output_;
}

void PreparedCase::first_set() {
    next_set_ = 0;
    next_set();
}

void PreparedCase::next_set() {
    if (!in_.use_set) return;
    in_.use_set(next_set_);
    next_set_ = (next_set_ + 1) % in_.sets;
}

BufferRefs PreparedCase::peer_inputs(int64_t set) {
    BufferRefs refs = kernel_layout(set).inputs;
    auto own = peer_inputs_.find(set);
    if (own == peer_inputs_.end()) {
        own = peer_inputs_.emplace(set, perf::peer_inputs(find_family(spec_.family()).op, refs)).first;
    }
    refs.insert(own->second.refs.begin(), own->second.refs.end());
    return refs;
}

double PreparedCase::checked(const std::function<void()> &run) {
    first_set();
    // All ones: NaN as float32 and as bfloat16.
    std::memset(output_.ref().data, 0xFF, std::size_t(output_.size()) * dtype_size(output_.dtype()));
    run();
    return max_abs_diff(output_, want_);
}

namespace {
std::map<std::pair<std::string, int>, std::unique_ptr<PreparedCase>> prepared_cases;
}

PreparedCase &prepared(const BenchCase &c, int copy) {
    auto &slot = prepared_cases[{c.name, copy}];
    if (!slot) slot = std::make_unique<PreparedCase>(c);
    return *slot;
}

void release_prepared() { prepared_cases.clear(); }

}  // namespace halogen::perf
