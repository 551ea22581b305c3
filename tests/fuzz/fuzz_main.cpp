// halogen_fuzz: the differential graph fuzzer's command line.
//   halogen_fuzz --seed 0 --graphs 50          graphs from seeds 0..49, every strategy each
//   halogen_fuzz --graphs 10000                the long mode (docs/reliability.md)
//   halogen_fuzz --replay case.json            one case written by a failure (or by hand)
//   halogen_fuzz --graphs 10000 --dry-run -v   the graphs' statistics only, nothing compiled
// A failure prints its seed, its strategy and the shrunken graph as JSON (formats/graph_json.h,
// plus the bindings), and the exit code is 1. The summary counts graphs, strategies run, kernels,
// one-hot patterns written, rewrites fired, and graphs with a constant Inf or NaN (the lowering
// compiles their readers without fast-math, halide_gen/compiler/lower.cpp).
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "frontend/constant_values.h"
#include "frontend/rewrites/one_hot_gather.h"
#include "tests/fuzz/runner.h"
#include "tests/fuzz/shrink.h"

using namespace halogen;
using namespace halogen::fuzz;

namespace {

struct Totals {
    int graphs = 0, strategies = 0, kernels = 0, patterns = 0, rewrites = 0, rewritten_graphs = 0;
    int symbolic = 0, failed_graphs = 0, non_finite = 0;
};

// Whether the case's graph, as generated or after the one-hot rewrite, has a constant Inf or NaN.
bool has_constant_inf_or_nan(const FuzzCase &c) {
    const Graph g = build_graph(c.doc);
    return has_non_finite_constant(g) || has_non_finite_constant(rewrite_one_hot_reductions(g));
}

// Counts what the generator made; returns whether the graph has a constant Inf or NaN.
bool count_generated(const FuzzCase &c, Totals &t) {
    const bool inf_nan = has_constant_inf_or_nan(c);
    ++t.graphs;
    t.patterns += c.one_hot_patterns;
    t.symbolic += !c.bindings.empty();
    t.non_finite += inf_nan;
    return inf_nan;
}

// Counts what the generator made, without compiling anything (--dry-run).
void count_only(const FuzzCase &c, Totals &t, bool verbose) {
    const bool inf_nan = count_generated(c, t);
    if (verbose) fmt::print("seed {}: {} nodes{}\n", c.seed, c.doc["nodes"].size(), inf_nan ? ", constant Inf/NaN" : "");
}

// Checks one case; prints and shrinks its failures. Returns whether it passed.
bool check_and_report(const FuzzCase &c, Totals &t, bool verbose, bool shrink, int shrink_checks) {
    CheckResult r = check_case(c);
    const bool inf_nan = count_generated(c, t);
    t.strategies += r.strategies_run;
    t.kernels += r.kernels;
    t.rewrites += r.rewrites;
    t.rewritten_graphs += r.rewrites > 0;
    if (verbose) {
        fmt::print("seed {}: {} nodes, {} strategies, {} kernels, {} rewrites{}{}\n", c.seed, c.doc["nodes"].size(),
                   r.strategies_run, r.kernels, r.rewrites, inf_nan ? ", constant Inf/NaN" : "",
                   r.failures.empty() ? "" : ", FAILED");
        std::fflush(stdout);
    }
    if (r.failures.empty()) return true;
    ++t.failed_graphs;
    for (const Failure &f : r.failures) {
        fmt::print("FAIL seed {} strategy {}: {}\n", c.seed, f.strategy.name(), f.what);
    }
    fmt::print("graph (seed {}):\n{}\n", c.seed, c.doc.dump());
    if (shrink) {
        const Failure &f = r.failures.front();
        FuzzCase small = shrink_case(c, f.strategy, shrink_checks, [&](const std::string &m) {
            if (verbose) fmt::print("  {}\n", m);
        });
        CheckResult again = check_case(small, f.strategy);
        fmt::print("shrunken (seed {}, strategy {}{}):\n{}\n", c.seed, f.strategy.name(),
                   again.failures.empty() ? "" : ": " + again.failures.front().what, small.doc.dump());
    }
    std::fflush(stdout);
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"halogen_fuzz: random graphs, every strategy, checked against the reference interpreter"};
    uint32_t seed = 0;
    int graphs = 100, shrink_checks = 300, progress = 0;
    bool verbose = false, no_shrink = false, dry_run = false;
    std::string replay;
    app.add_option("--seed", seed, "first seed (graph k uses seed + k)");
    app.add_option("--graphs", graphs, "how many graphs")->check(CLI::NonNegativeNumber);
    app.add_flag("--verbose,-v", verbose, "one line per graph");
    app.add_flag("--no-shrink", no_shrink, "print failures without shrinking them");
    app.add_option("--shrink-runs", shrink_checks, "most runs the shrinker may spend on one failure");
    app.add_option("--progress", progress, "print a progress line every N graphs (0: never)");
    app.add_option("--replay", replay, "check the case in this JSON file instead of generating");
    app.add_flag("--dry-run", dry_run, "generate and count only: no strategy is compiled or run");
    CLI11_PARSE(app, argc, argv);

    const auto start = std::chrono::steady_clock::now();
    Totals t;
    try {
        if (!replay.empty()) {
            std::ifstream f(replay);
            if (!f) throw Error(fmt::format("cannot read '{}'", replay));
            std::stringstream ss;
            ss << f.rdbuf();
            FuzzCase c = case_from_json(nlohmann::json::parse(ss.str()));
            check_and_report(c, t, true, !no_shrink, shrink_checks);
        } else {
            for (int k = 0; k < graphs; ++k) {
                if (dry_run) {
                    count_only(generate_case(seed + uint32_t(k)), t, verbose);
                    continue;
                }
                check_and_report(generate_case(seed + uint32_t(k)), t, verbose, !no_shrink, shrink_checks);
                if (progress > 0 && (k + 1) % progress == 0) {   // a killed long run still says how far it got
                    fmt::print("progress: {} graphs (seeds {}..{}), {} strategies, {} rewrites fired, {} failing\n",
                               t.graphs, seed, seed + uint32_t(k), t.strategies, t.rewrites, t.failed_graphs);
                    std::fflush(stdout);
                }
            }
        }
    } catch (const std::exception &e) {
        fmt::print(stderr, "halogen_fuzz: {}\n", e.what());
        return 2;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("graphs {} (seeds {}..{}), symbolic {}, strategies run {} ({:.2f} per graph), kernels {}, "
               "one-hot patterns {}, rewrites fired {} (in {} graphs), constant Inf/NaN in {} graphs, failing graphs {}, "
               "{:.1f} s\n",
               t.graphs, seed, seed + uint32_t(std::max(graphs, 1)) - 1, t.symbolic, t.strategies,
               t.graphs ? double(t.strategies) / t.graphs : 0.0, t.kernels, t.patterns, t.rewrites,
               t.rewritten_graphs, t.non_finite, t.failed_graphs, secs);
    return t.failed_graphs ? 1 : 0;
}
