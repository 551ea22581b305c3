// Paired rounds, the way halogen_perf --goals runs: a goal is a ratio between a kernel and its
// references (a peer, a machine limit), and on a shared machine two benchmarks timed minutes apart
// can meet different loads. Here each group (one goal point: a kernel and what it is compared with)
// runs its members back to back, the groups in a new random order every round and the members
// rotated so that each leads in turn. Every timing keeps its round (repetition_index) and its group
// (label), so perf/report can take a ratio within each round and then the median over the rounds.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace halogen::perf {

struct Timed {
    std::string name;                            // "{case}/{impl}/t{threads}"
    std::function<void(benchmark::State &)> fn;
};

struct PairGroup {
    std::string label;                           // "{case}/t{threads}": the goal point
    std::vector<Timed> members;
};

// Runs `rounds` rounds of every group, calling before_round(r) ahead of round r, and writes one
// Google Benchmark JSON file at `out_path` ("" writes none): the iteration entries of all rounds,
// each with its round as repetition_index and its group as label.
void run_paired_rounds(const std::vector<PairGroup> &groups, int rounds, const std::string &out_path,
                       const std::function<void(int round)> &before_round = {});

}  // namespace halogen::perf
