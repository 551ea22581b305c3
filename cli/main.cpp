// The halogen command-line program.
//   halogen seed          compile and run the seed note's expression, print its result and loop nest
//   halogen groups FILE   read a graph from JSON and print its fused groups (one per kernel)
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "frontend/graph_json.h"
#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"
#include "halide_gen/jit.h"
#include "halide_gen/loop_nest.h"
#include "schedules/schedule.h"

namespace {

using namespace halogen;

void print_array(const Array &a) {
    const auto &s = a.shape();
    const int64_t cols = s.empty() ? 1 : s.back();
    std::string out = "[";
    for (int64_t k = 0; k < a.size(); ++k) {
        if (k % cols == 0) out += (k ? "],\n [" : "[");
        else out += ", ";
        out += fmt::format("{}", a.get(k));
    }
    fmt::print("{}]]\n", out);
}

int seed(const std::string &schedule) {
    // (caten (!where (!eq (iconst 2) (!index-components `(3 3))) (iconst 2) (iconst 3)))
    Tensor expr = where(eq(iconst(2), index_components({3, 3})), iconst(2), iconst(3));
    LoweredGraph lg = lower(Graph({expr}));
    apply_schedule(lg, schedule, Halide::get_host_target());
    LoopNest nest = loop_nest(lg);
    JitKernel kernel(std::move(lg));
    Array out(DType::Int32, {3, 3});
    kernel.run({}, out.ref());

    fmt::print("seed: where(eq(iconst(2), index_components({{3, 3}})), iconst(2), iconst(3))\n\n");
    fmt::print("result (halide, schedule '{}'):\n", schedule);
    print_array(out);
    fmt::print("reference interpreter:\n");
    print_array(interpret(expr, {}));
    fmt::print("\nkernels: {}, intermediate buffers: {}\n\nloop nest:\n{}", nest.produced.size(),
               nest.allocated.size(), nest.stmt);
    return 0;
}

int groups(const std::string &path) {
    Graph g = graph_from_json_file(path);
    auto gs = group_graph(g);
    fmt::print("{} kernel(s)\n", gs.size());
    for (std::size_t k = 0; k < gs.size(); ++k) {
        const Group &grp = gs[k];
        std::vector<std::string> reads, levels;
        for (const Node *n : grp.reads) reads.push_back(n->op == Op::Input ? n->name : n->label());
        for (const auto &[n, level] : grp.compute_level) levels.push_back(fmt::format("{} at loop {}", n->label(), level));
        fmt::print("kernel {}: writes {} {}, {} nodes, reads [{}], loops {}{}\n", k, grp.anchor->label(),
                   shape_str(grp.anchor->shape), grp.members.size(), fmt::join(reads, ", "), shape_str(grp.collapsed_shape),
                   levels.empty() ? "" : fmt::format(", reductions: {}", fmt::join(levels, "; ")));
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"halogen: a deep-learning kernel compiler backend on Halide"};
    app.require_subcommand(1);
    std::string schedule = "none";
    auto *seed_cmd = app.add_subcommand("seed", "Compile and run the seed note's where/eq/index_components expression");
    seed_cmd->add_option("--schedule", schedule, "Schedule to apply")->check(CLI::IsMember(schedule_names()));
    std::string graph_file;
    auto *groups_cmd = app.add_subcommand("groups", "Read a graph from JSON (frontend/graph_json.h) and print its fused groups");
    groups_cmd->add_option("file", graph_file, "Graph file")->required()->check(CLI::ExistingFile);
    CLI11_PARSE(app, argc, argv);
    try {
        if (*seed_cmd) return seed(schedule);
        if (*groups_cmd) return groups(graph_file);
    } catch (const halogen::Error &e) {
        std::cerr << "halogen: " << e.what() << "\n";
        return 1;
    } catch (const Halide::Error &e) {
        std::cerr << "halogen: Halide: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
