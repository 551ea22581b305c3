// A benchmark case made ready to time: its inputs, preallocated and touched outputs, the reference
// variant's result that every other implementation is checked against, and (embedding) the id
// sets that the timed loop cycles through.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "frontend/array.h"
#include "perf/cases.h"

namespace halogen::perf {

class PreparedCase {
public:
    explicit PreparedCase(const BenchCase &c);   // fills inputs, runs the reference variant once

    const BenchCase &spec() const { return spec_; }
    const std::map<std::string, BufferRef> &inputs() const { return refs_; }
    BufferRef output() { return output_.ref(); }

    void first_ids();   // embedding: the ids buffer holds set 0 (the set results are checked on)
    void next_ids();    // embedding: the next set; hot ids copy the same set, so both pay the copy
    // Runs `run` once on id set 0 into an output filled with NaN first (so an element it does not
    // write counts as wrong) and returns the largest |output - reference|.
    double checked(const std::function<void()> &run);
    double tolerance() const;   // what counts as the same answer

private:
    const BenchCase &spec_;
    FamilyInputs data_;
    std::map<std::string, BufferRef> refs_;
    Array output_, want_, id_pool_;
    int64_t next_set_ = 0;
};

// The prepared case, made on first use and kept for the process (cases share their tables).
// `copy` picks one of several, each with buffers of its own: where a buffer lands in memory moves
// a memory-bound kernel by up to a quarter, so a paired run can spread its rounds over copies.
PreparedCase &prepared(const BenchCase &c, int copy = 0);

}  // namespace halogen::perf
