// A benchmark case made ready to time: its inputs, a preallocated and touched output, the
// reference variant's result that every other implementation is checked against, and the input
// sets a timed loop cycles through (embedding ids).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "frontend/array.h"
#include "perf/cases.h"
#include "perf/peers/peer_inputs.h"

namespace halogen::perf {

class PreparedCase {
public:
    explicit PreparedCase(const BenchCase &c);   // makes the inputs, runs the reference variant once

    const BenchCase &spec() const { return spec_; }
    const CaseInputs &inputs() const { return in_; }
    BufferRef output() { return output_.ref(); }
    // Buffer sets of their own (CaseInputs::buffer_sets; one when the case has none): a timed loop
    // takes set k on call k, round robin.
    int64_t buffer_sets() const { return std::max<int64_t>(1, int64_t(in_.buffer_sets.size())); }
    const BufferRefs &refs(int64_t set) const { return in_.buffer_sets.empty() ? in_.refs : in_.buffer_sets.at(set); }
    // The same call in the kernel's layout (frontend/contract.h), which the peers take, per buffer set.
    const BoundCall &kernel_layout(int64_t set = 0) const { return kernel_layouts_.at(set); }
    // What a peer takes for set k: its inputs in the kernel's layout, and beside them the peers'
    // own (perf/peers/peer_inputs.h), made on first use.
    BufferRefs peer_inputs(int64_t set);

    void first_set();   // the input set results are checked on
    void next_set();    // the next input set (every call pays the same copy, one set or many)
    // Runs `run` once on set 0 into an output filled with NaN first (so an element it does not
    // write counts as wrong) and returns the largest |output - reference|.
    double checked(const std::function<void()> &run);
    double tolerance() const { return spec_.spec.tolerance; }

private:
    const BenchCase &spec_;
    CaseInputs in_;
    Array output_, want_;
    std::vector<BoundCall> kernel_layouts_;
    std::map<int64_t, PeerInputs> peer_inputs_;   // by buffer set
    int64_t next_set_ = 0;
};

// The prepared case, made on first use and kept for the process (cases share their tables).
// `copy` picks one of several, each with buffers of its own: where a buffer lands in memory moves
// a memory-bound kernel by up to a quarter, so a paired run can spread its rounds over copies.
PreparedCase &prepared(const BenchCase &c, int copy = 0);

// Frees every prepared case (references to them dangle; anything made on their buffers must go first).
void release_prepared();

}  // namespace halogen::perf
