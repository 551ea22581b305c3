// The halogen command-line program.
//   halogen seed          compile and run the seed note's expression, print its result and loop nest
//   halogen groups FILE   read a graph from JSON and print its fused groups (one per kernel)
//   halogen compare       every variant of a family's AOT kernels, checked and timed side by side
//   halogen show          a kernel's loop nest (or C source)
//   halogen run           one kernel on NumPy files
//   halogen llama         llama models: init (random weights), info (check the files), generate, bench
#include <iostream>
#include <map>
#include <sstream>
#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/compare.h"
#include "cli/flag_checks.h"
#include "cli/llama.h"
#include "cli/run_kernel.h"
#include "cli/threads_flag.h"
#include "cli/usage_error.h"
#include "formats/graph_json.h"
#include "frontend/grouping/grouping.h"
#include "frontend/halogen.h"
#include "halide_gen/compiler/loop_nest.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/schedule.h"
#include "halide_gen/runtime/aot_kernel.h"
#include "schedules/registry.h"

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
    Program program(Graph({expr}), schedule);
    LoopNest nest = loop_nest(program.lowered(0));
    Array out(DType::Int32, {3, 3});
    program.run({}, {out.ref()});

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
    // Nodes named by their place in the graph's order ("mul#25"), the same on every run; Node's
    // own label counts every node the process made, the registry's graphs included.
    std::map<const Node *, std::size_t> place;
    for (const Node *n : g.nodes()) place.emplace(n, place.size());
    const auto label = [&](const Node *n) { return fmt::format("{}#{}", op_name(n->op), place.at(n)); };
    fmt::print("{} kernel(s)\n", gs.size());
    for (std::size_t k = 0; k < gs.size(); ++k) {
        const Group &grp = gs[k];
        std::vector<std::string> reads, levels;
        for (const Node *n : grp.reads) reads.push_back(n->op == Op::Input ? n->name : label(n));
        std::vector<std::pair<std::size_t, int>> at;   // in the graph's order, not the map's (by address)
        for (const auto &[n, level] : grp.compute_level) at.emplace_back(place.at(n), level);
        std::sort(at.begin(), at.end());
        for (const auto &[p, level] : at) levels.push_back(fmt::format("{} at loop {}", label(g.nodes()[p]), level));
        fmt::print("kernel {}: writes {} {}, {} nodes, reads [{}], loops {}{}\n", k, label(grp.anchor),
                   shape_str(grp.anchor->shape), grp.members.size(), fmt::join(reads, ", "), shape_str(grp.collapsed_shape),
                   levels.empty() ? "" : fmt::format(", reductions: {}", fmt::join(levels, "; ")));
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    using namespace halogen;
    CLI::App app{"halogen: a deep-learning kernel compiler backend on Halide"};
    app.require_subcommand(1);
    app.set_version_flag("--version", fmt::format("halogen {} (Halide {})", HALOGEN_VERSION, HALOGEN_HALIDE_VERSION));
    // A command-line mistake is one line, as every other error is.
    app.failure_message([](const CLI::App *a, const CLI::Error &e) { return halogen::usage_error(*a, e); });
    std::string schedule = "none";
    auto *seed_cmd = app.add_subcommand("seed", "Compile and run the seed note's where/eq/index_components expression");
    seed_cmd->add_option("--schedule", schedule, "Schedule to apply")->check(CLI::IsMember(schedule_names()));
    std::string graph_file;
    auto *groups_cmd = app.add_subcommand("groups", "Read a graph from JSON (formats/graph_json.h) and print its fused groups");
    groups_cmd->add_option("file", graph_file, "Graph file")->required()->check(CLI::ExistingFile);

    halogen::CompareOptions co;
    auto *compare_cmd = app.add_subcommand("compare", "Run every variant of a family on the same inputs: check, time, tabulate");
    std::vector<std::string> homes;
    std::map<std::string, std::vector<std::string>> members;   // a group's families
    for (const Family &f : families()) {
        if (std::find(homes.begin(), homes.end(), f.home) == homes.end()) homes.push_back(f.home);
        members[f.home].push_back(f.name);
    }
    compare_cmd->add_option("family", co.name, fmt::format("a family ({}), a group ({}), or all", fmt::join(family_names(), ", "),
                                                           fmt::join(homes, ", ")))
        ->default_val("all");
    std::string groups_help = "Groups (a group's name, even one that is also a family's, runs all of its families):\n";
    for (const std::string &home : homes) groups_help += fmt::format("  {:<10} {}\n", home, fmt::join(members[home], ", "));
    compare_cmd->footer(groups_help + "A group's families that do not take the flags' shape are listed with the reason "
                                      "and the others run; the exit code is 0 when at least one ran and none "
                                      "disagreed with its reference.");
    // Each family's own flags (schedules/<home>/), once each; a flag a chosen family does not take is an error.
    std::map<std::string, std::vector<std::string>> takers;
    std::map<std::string, std::string> helps;
    for (const Family &f : families()) {
        for (const CaseOption &c : f.options) {
            takers[c.flag].push_back(f.name);
            helps.emplace(c.flag, c.help);
        }
    }
    for (const auto &[flag, fams] : takers) {
        const std::string name = flag;
        compare_cmd->add_option_function<std::string>("--" + flag, [&co, name](const std::string &v) { co.args[name] = v; },
                                                      fmt::format("{}: {}", fmt::join(fams, ", "), helps.at(flag)));
    }
    compare_cmd->add_option("--json", co.json_path, "write one record per (case, variant) to this file");
    compare_cmd->add_option("--budget", co.budget_s, "seconds: skip a variant whose single run would take longer, "
                                                     "predicted from a smaller call first, compiling included")
        ->check(halogen::above_zero());
    compare_cmd->add_flag("-v,--verbose", co.verbose, "let Halide's autoschedulers print while a case is JIT-compiled");
    halogen::add_threads_flag(*compare_cmd, co.threads);

    std::string family, variant, output;
    bool c_source = false, full = false, strict_ids = false;
    auto *show_cmd = app.add_subcommand("show", "Print an AOT kernel's loop nest (from Halide's lowered statement)");
    show_cmd->footer("Families:\n" + halogen::families_help());
    show_cmd->add_option("family", family, fmt::format("{}", fmt::join(family_names(), ", ")))->required();
    show_cmd->add_option("--schedule", variant, "the variant (default: the family's default variant)");
    auto *c_flag = show_cmd->add_flag("--c", c_source, "print C source from Halide's C backend instead");
    show_cmd->add_flag("--full", full, "print the whole statement: argument checks and buffer unpacking too")->excludes(c_flag);

    std::vector<std::string> input_specs;
    auto *run_cmd = app.add_subcommand("run", "Run one AOT kernel on NumPy .npy files");
    run_cmd->footer("Families:\n" + halogen::families_help());
    run_cmd->add_option("family", family, "the family")->required();
    run_cmd->add_option("--schedule", variant, "the variant (default: the family's default variant)");
    run_cmd->add_option("--input", input_specs, "NAME=FILE.npy, once per input")->required();
    run_cmd->add_option("--output", output, "FILE.npy to write")->required();
    // The families' run-time parameters (eps, groups), once each; a flag the family lacks is an error.
    std::map<std::string, std::string> parameters;
    std::map<std::string, std::vector<std::string>> parameter_families;
    for (const Family &f : families()) {
        for (const Parameter &p : f.parameters) parameter_families[p.flag].push_back(f.name);
    }
    for (const auto &[flag, fams] : parameter_families) {
        const std::string name = flag;
        run_cmd->add_option_function<std::string>("--" + flag, [&parameters, name](const std::string &v) { parameters[name] = v; },
                                                  fmt::format("{}: a run-time parameter", fmt::join(fams, ", ")));
    }
    run_cmd->add_flag("--strict-ids", strict_ids,
                      "embedding: an id outside [0, V) is an error, as PyTorch's Embedding has it (default: its "
                      "row is zero and stderr says how many)");
    int run_threads = 0;
    halogen::add_threads_flag(*run_cmd, run_threads);

    halogen::LlamaCommands llama(app);

    CLI11_PARSE(app, argc, argv);
    try {
        if (llama.chosen()) return llama.run();
        if (*seed_cmd) return seed(schedule);
        if (*groups_cmd) return groups(graph_file);
        // The commands that call AOT kernels read HALOGEN_STREAMING_THRESHOLD_BYTES first, so a
        // bad value stops them with one line instead of failing each kernel that has a twin.
        if (*compare_cmd || *run_cmd) streaming_threshold_bytes();
        if (*compare_cmd) return halogen::run_compare(co);
        if (*show_cmd) return halogen::show_kernel(family, variant, c_source, full);
        if (*run_cmd) {
            std::map<std::string, std::string> inputs;
            for (const std::string &spec : input_specs) {
                const auto eq = spec.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
                    throw halogen::Error("run: --input takes NAME=FILE.npy, got '" + spec + "'");
                }
                if (!inputs.emplace(spec.substr(0, eq), spec.substr(eq + 1)).second) {
                    throw halogen::Error("run: --input '" + spec.substr(0, eq) + "' is given twice");
                }
            }
            halogen::use_threads("run", run_threads);
            return halogen::run_kernel(family, variant, inputs, output, strict_ids, parameters);
        }
    } catch (const halogen::Error &e) {
        std::cerr << "halogen: " << e.what() << "\n";
        return 1;
    } catch (const Halide::Error &e) {
        std::cerr << "halogen: Halide: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
