// The registry (schedules/registry.def) is the one list of families and variants, and everything
// else is made from it: every family x variant is an AOT kernel the build made (and nothing else
// is), runs on its family's tiny case with the interpreter's numbers, is listed by `halogen run
// --help`, and is covered by `halogen compare`'s cases and by perf's grid and goals. Every family
// declares the op it computes, by which perf's catalogue and peers serve it (perf/catalogue/).
#include <array>
#include <cstdio>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "perf/cases.h"
#include "perf/catalogue/catalogue.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

TEST(Registry, EveryVariantIsAnAotKernelAndNothingElseIs) {
    std::set<std::pair<std::string, std::string>> registered, built;
    for (const Family &f : families()) {
        for (const Variant &v : variants_of(f.name)) registered.insert({f.name, v.name});
    }
    for (const AotKernel &k : aot_kernels()) built.insert({k.family, k.variant});
    EXPECT_EQ(registered, built);
    EXPECT_GE(registered.size(), 8u * 5);
}

TEST(Registry, EveryVariantRunsOnItsFamilysTinyCase) {
    for (const Family &f : families()) {
        const std::vector<Case> tiny = f.cases(f.tiny_case);
        ASSERT_EQ(tiny.size(), 1u) << f.name;
        CaseInputs in = tiny[0].make();
        const Array want = interpret_call(f, in.refs, in.dims);
        EXPECT_LE(want.size(), 1024) << f.name << ": a tiny case has a few elements";
        for (const Variant &v : variants_of(f.name)) {
            Array got(want.dtype(), in.out_shape);
            FamilyKernel::aot(f.name, v.name).run(in.refs, got.ref(), in.dims);
            EXPECT_TRUE(testing::arrays_near(want, got, 1e-4, 1e-4)) << f.name << " " << v.name;
        }
    }
}

// `halogen run --help`, as a user reads it.
std::string run_help() {
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE *)> p(popen(HALOGEN_CLI " run --help", "r"), pclose);
    if (!p) return out;
    std::array<char, 4096> chunk;
    while (std::size_t n = fread(chunk.data(), 1, chunk.size(), p.get())) out.append(chunk.data(), n);
    return out;
}

TEST(Registry, RunHelpListsEveryFamilyAndVariant) {
    const std::string help = run_help();
    ASSERT_FALSE(help.empty());
    for (const Family &f : families()) {
        const std::size_t at = help.find("  " + f.name + " ");
        ASSERT_NE(at, std::string::npos) << f.name << " in\n" << help;
        const std::string paragraph = help.substr(at, help.find("variants:", at) - at);
        EXPECT_NE(paragraph.find(f.contract.describe()), std::string::npos) << f.name;
        const std::string variants = help.substr(help.find("variants:", at), help.find('\n', help.find("variants:", at)) -
                                                                                   help.find("variants:", at));
        for (const Variant &v : variants_of(f.name)) {
            EXPECT_NE(variants.find(" " + v.name), std::string::npos) << f.name << " " << v.name << " in " << variants;
        }
    }
}

TEST(Registry, CompareAndPerfCoverEveryFamilyAndVariant) {
    std::map<std::string, std::set<std::string>> grid, goals;
    for (const perf::BenchCase &b : perf::benchmark_grid(false)) {
        grid[b.family()].insert(b.variants.begin(), b.variants.end());
    }
    for (const perf::BenchCase &b : perf::goals_grid()) goals[b.family()].insert(b.variants.begin(), b.variants.end());
    for (const Family &f : families()) {
        EXPECT_FALSE(f.compare_cases.empty()) << f.name << " has no case halogen compare runs";
        for (const CaseArgs &args : f.compare_cases) EXPECT_EQ(f.cases(args).size(), 1u) << f.name;
        std::set<std::string> all;
        for (const Variant &v : variants_of(f.name)) all.insert(v.name);
        EXPECT_EQ(grid[f.name], all) << f.name << ": perf's grid times every variant";
        // The goals time the default, and the variants a goal names beside it (registered ones).
        std::set<std::string> goal_variants{default_variant(f.name).name};
        bool has_goals = false;
        for (const perf::Benchmark &b : perf::benchmarks_of(f)) {
            if (!b.grids.count("goal")) continue;
            has_goals = true;
            goal_variants.insert(b.goal_variants.begin(), b.goal_variants.end());
        }
        if (has_goals) {
            EXPECT_EQ(goals[f.name], goal_variants) << f.name;
        }
        for (const std::string &v : goal_variants) EXPECT_TRUE(all.count(v)) << f.name << ": goal variant " << v;
        EXPECT_NO_THROW(perf::tiny_case(f.name)) << f.name;
    }
}

// Every family says which nn op it computes, and perf serves it by that op alone: every op perf
// catalogues is some family's (a catalogue left behind by a renamed op fails here), and a family
// whose op perf does not catalogue is still timed, on its compare cases (below).
TEST(Registry, EveryFamilyDeclaresItsOpAndPerfCataloguesOnlyTheirs) {
    std::set<std::string> ops;
    for (const Family &f : families()) {
        EXPECT_EQ(f.op.rfind("nn.", 0), 0u) << f.name << " declares the op '" << f.op << "'";
        ops.insert(f.op);
    }
    const std::vector<std::string> catalogued = perf::catalogued_ops();
    EXPECT_FALSE(catalogued.empty());
    for (const std::string &op : catalogued) EXPECT_TRUE(ops.count(op)) << "perf catalogues " << op << ", which no family computes";
}

// perf/report and perf/baselines key on the benchmark names: no two cases of a grid share one.
TEST(Registry, PerfCaseNamesAreUniqueInEachGrid) {
    for (const auto &grid : {perf::benchmark_grid(false), perf::benchmark_grid(true), perf::goals_grid(),
                             perf::streaming_sweep_grid()}) {
        EXPECT_FALSE(grid.empty());
        std::set<std::string> names;
        for (const perf::BenchCase &b : grid) EXPECT_TRUE(names.insert(b.name).second) << b.name;
    }
}

TEST(Registry, AFamilyOfAnOpPerfDoesNotCatalogueIsTimedOnItsCompareCases) {
    Family f = families().front();
    f.op = "nn.not_catalogued";
    const std::vector<perf::Benchmark> benchmarks = perf::benchmarks_of(f);
    ASSERT_EQ(benchmarks.size(), f.compare_cases.size());
    for (std::size_t k = 0; k < benchmarks.size(); ++k) {
        EXPECT_EQ(benchmarks[k].args, f.compare_cases[k]);
        EXPECT_EQ(benchmarks[k].grids, std::set<std::string>{"perf"});
    }
}

TEST(Registry, NamesAreTypedErrors) {
    EXPECT_THROW(find_family("conv4d"), Error);
    EXPECT_THROW(find_variant("embedding", "fused"), Error);
    EXPECT_THROW(select_families("pooling"), Error);
    EXPECT_EQ(select_families("norms").size(), 4u);
    EXPECT_EQ(select_families("all").size(), families().size());
}

}  // namespace
}  // namespace halogen
