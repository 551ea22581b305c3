// Paired rounds (paired_rounds.h): one Google Benchmark run per round, each registering the groups
// afresh in that round's order; a console reporter that also keeps every run; one JSON file at the end.
#include "perf/paired_rounds.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>

namespace halogen::perf {

namespace {

// Prints as the console reporter does (the context once) and keeps every run, stamped with its round.
class RoundsReporter : public benchmark::ConsoleReporter {
public:
    int round = 0, rounds = 0;
    std::vector<Run> kept;

    bool ReportContext(const Context &context) override {
        return round > 0 || benchmark::ConsoleReporter::ReportContext(context);
    }
    void ReportRuns(const std::vector<Run> &runs) override {
        for (Run run : runs) {
            run.repetition_index = round;
            run.repetitions = rounds;
            kept.push_back(std::move(run));
        }
        benchmark::ConsoleReporter::ReportRuns(runs);
    }
};

void register_round(const std::vector<PairGroup> &groups, const std::vector<std::size_t> &order, int round) {
    benchmark::ClearRegisteredBenchmarks();
    for (std::size_t g : order) {
        const PairGroup &group = groups[g];
        const std::size_t n = group.members.size();
        for (std::size_t k = 0; k < n; ++k) {
            const Timed &member = group.members[(k + std::size_t(round)) % n];
            benchmark::RegisterBenchmark(member.name.c_str(),
                                         [fn = member.fn, label = group.label](benchmark::State &s) {
                                             fn(s);
                                             s.SetLabel(label);
                                         })
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }
}

}  // namespace

void run_paired_rounds(const std::vector<PairGroup> &groups, int rounds, const std::string &out_path,
                       const std::function<void(int round)> &before_round) {
    if (rounds < 1) throw std::invalid_argument("paired rounds: at least one round");
    RoundsReporter reporter;
    reporter.rounds = rounds;
    std::vector<std::size_t> order(groups.size());
    for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
    std::mt19937 shuffle(20261201);   // a fixed seed: the same orders in every run
    for (int r = 0; r < rounds; ++r) {
        std::shuffle(order.begin(), order.end(), shuffle);
        register_round(groups, order, r);
        reporter.round = r;
        if (before_round) before_round(r);
        std::cout << "-- round " << r + 1 << " of " << rounds << "\n";
        benchmark::RunSpecifiedBenchmarks(&reporter);
    }
    benchmark::ClearRegisteredBenchmarks();
    if (out_path.empty()) return;
    std::ofstream out(out_path);
    if (!out) throw std::runtime_error("paired rounds: cannot write " + out_path);
    benchmark::JSONReporter json;
    json.SetOutputStream(&out);
    json.SetErrorStream(&std::cerr);
    json.ReportContext(benchmark::BenchmarkReporter::Context());
    json.ReportRuns(reporter.kept);
    json.Finalize();
}

}  // namespace halogen::perf
