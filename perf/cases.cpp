// The benchmark grids (cases.h).
#include "perf/cases.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "schedules/registry.h"

namespace halogen::perf {

namespace {

// The one case a family makes of a benchmark's flags.
Case make_case(const Family &f, const Benchmark &b) {
    if (b.dram && !f.dram_cases) throw Error(fmt::format("perf: {} has no inputs from DRAM", f.name));
    std::vector<Case> made = b.dram ? f.dram_cases(b.args) : f.cases(b.args);
    if (made.size() != 1) throw Error(fmt::format("perf: {} made {} cases of one benchmark's flags", f.name, made.size()));
    return std::move(made[0]);
}

bool not_a_reorder(const std::string &peer_op) { return peer_op.find(":reorder") == std::string::npos; }

std::vector<BenchCase> cases_for(const std::string &grid, bool every_variant) {
    std::vector<BenchCase> out;
    for (const Family &f : families()) {
        const Catalogue *catalogue = catalogue_of(f.op);
        for (const Benchmark &bench : benchmarks_of(f)) {
            if (!bench.grids.count(grid)) continue;
            BenchCase b;
            b.spec = make_case(f, bench);
            b.name = fmt::format("{}:{}", b.spec.family, b.spec.label);
            b.reference = default_variant(f.name).name;
            if (every_variant) {
                for (const Variant &v : variants_of(f.name)) b.variants.push_back(v.name);
            } else {
                b.variants = {b.reference};
                if (grid == "goal") b.variants.insert(b.variants.end(), bench.goal_variants.begin(), bench.goal_variants.end());
            }
            b.goal_limits = bench.goal_limits;
            b.goal_threads = bench.goal_threads;
            b.goal_reference = catalogue && catalogue->goal_reference ? catalogue->goal_reference : not_a_reorder;
            out.push_back(std::move(b));
        }
    }
    return out;
}

}  // namespace

std::vector<Benchmark> benchmarks_of(const Family &f) {
    if (const Catalogue *c = catalogue_of(f.op)) return c->benchmarks(f);
    std::vector<Benchmark> out;
    for (const CaseArgs &args : f.compare_cases) out.emplace_back(args, std::set<std::string>{"perf"});
    return out;
}

std::vector<BenchCase> benchmark_grid(bool quick) { return quick ? cases_for("quick", false) : cases_for("perf", true); }
std::vector<BenchCase> goals_grid() { return cases_for("goal", false); }
std::vector<BenchCase> streaming_sweep_grid() { return cases_for("sweep", false); }

BenchCase tiny_case(const std::string &family) {
    const Family &f = find_family(family);
    BenchCase b;
    b.spec = make_case(f, Benchmark(f.tiny_case, {}));
    b.name = fmt::format("{}:{}", b.spec.family, b.spec.label);
    b.reference = default_variant(f.name).name;
    b.variants = {b.reference};
    return b;
}

}  // namespace halogen::perf
