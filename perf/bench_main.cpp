// halogen_perf: Google Benchmark over every family x variant x shape of the grid (perf/cases.h),
// next to the peer libraries found at configure time and the machine's limits, all in one process
// and at the same thread counts, so every figure can be a ratio measured in one run.
//
// Benchmark names are "{case}/{impl}/t{threads}", impl one of "halogen:<variant>",
// "<peer>:<op>" or "machine" (limit cases). Counters: bytes, flops (per call), threads, kernels,
// max_abs_err (against the case's reference variant; -1 when not checked). perf/report turns the
// JSON into docs/perf.md; perf/regress compares a run with its machine's baseline (perf/baselines/).
// With --goals only what the goals compare runs, each goal point's benchmarks back to back in
// rounds (paired_rounds.h), so that each ratio is taken between two timings of the same moment.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/runtime/host_caches.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "perf/cases.h"
#include "halide_gen/runtime/host_limits.h"
#include "perf/paired_rounds.h"
#include "perf/peers/blas_threads.h"
#include "perf/peers/peer.h"
#include "perf/prepared_case.h"
#include "perf/source_version.h"
#include "schedules/kernel.h"
#include "schedules/registry.h"

namespace halogen::perf {

namespace {

// /proc/cpuinfo's "model name" ("AMD EPYC", "Intel(R) Xeon(R) ..."), or "" where there is none.
std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
    return "";
}

struct Options {
    bool quick = false;
    bool streaming_sweep = false;   // the streaming_sweep_grid, each kernel with both kinds of stores
    bool goals = false;             // the goals_grid in paired rounds (paired_rounds.h)
    std::vector<int> threads = {1, 2};
    double budget_s = 2.0;      // skip an implementation whose one call would take longer
    int repetitions = 3;        // rounds with --goals
    int placements = 1;         // --goals: buffer sets per case (and limit), round r times set r % placements
    double min_time_s = 0.2;    // per repetition
    bool in_order = false;      // repetitions back to back instead of randomly interleaved
    std::string slow_down;      // regex: matching benchmarks take twice as long (regress demo)
};

// The goals and the full grid run in rounds (paired_rounds.h), the quick grid and the streaming
// sweep as Google Benchmark's repetitions.
bool in_rounds(const Options &o) { return o.goals || (!o.quick && !o.streaming_sweep); }

// The buffer set the benchmarks of this round run on (prepared(c, copy)); only --goals changes it.
int current_copy = 0;

// What the first (untimed) look at an implementation found; kept per benchmark name, because
// Google Benchmark calls a benchmark function several times (iteration estimate, repetitions).
struct Verdict {
    std::string skip;           // non-empty: why it is not timed
    double max_abs_err = -1;
};

// A peer's operations on a case at a thread count, made once (once per buffer set: ops[set]), each
// run once in order on set 0 and checked when it writes the output.
struct PeerOps {
    std::vector<std::vector<PeerOp>> ops;
    std::vector<Verdict> verdicts;
};

std::map<std::string, PeerOps> &peer_op_cache() {
    static std::map<std::string, PeerOps> cache;
    return cache;
}

// With --goals a round runs each goal point's benchmarks back to back, so one case's buffers need
// to live at a time: turning to another case frees the others' (the peers' operations made on
// them first). Kept for the whole run, the cases of a DRAM-sized grid times the placements
// outgrow the machine's memory; remade, each costs its inputs and one reference run per round.
bool one_case_at_a_time = false;

PreparedCase &case_buffers(const BenchCase &c) {
    static std::string live;
    if (one_case_at_a_time && live != c.name) {
        peer_op_cache().clear();
        release_prepared();
        live = c.name;
    }
    return prepared(c, current_copy);
}

double seconds_of(const std::function<void()> &f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The planted regression of --slow-down: the call, then as long again spent waiting, so the
// benchmark takes twice its time. Running the call twice would not: the second call finds part of
// its data in the caches.
template <typename Call>
void twice_as_long(Call &&call) {
    const auto start = std::chrono::steady_clock::now();
    call();
    const auto until = start + 2 * (std::chrono::steady_clock::now() - start);
    while (std::chrono::steady_clock::now() < until) {
    }
}

std::string over_budget(double predicted, double budget) {
    return fmt::format("skipped: about {:.3g} s per call, over the {:.3g} s budget", predicted, budget);
}

void set_counters(benchmark::State &state, const BenchCase &c, int threads, double err, int kernels,
                  double bytes = 0, double flops = 0) {
    state.counters["bytes"] = bytes > 0 ? bytes : c.spec.bytes;
    state.counters["flops"] = bytes > 0 || flops > 0 ? flops : c.spec.flops;
    state.counters["threads"] = threads;
    state.counters["kernels"] = kernels;
    state.counters["max_abs_err"] = err;
}

// ---- halogen's AOT kernels

Verdict look_at_variant(const BenchCase &c, const FamilyKernel &k, PreparedCase &p, double budget) {
    Verdict v;
    double predicted;
    if (k.variant().probe_first && c.spec.probe) {   // slow by design: a smaller call, scaled
        Probe probe = c.spec.probe(p.inputs(), k.variant());
        Array small(p.output().dtype, probe.out_shape);
        KernelCall call = k.call(probe.refs, small.ref(), probe.dims);
        call.run();
        predicted = seconds_of([&] { call.run(); }) * probe.scale;
    } else {
        KernelCall call = k.call(p.inputs().refs, p.output(), p.inputs().dims);
        predicted = seconds_of([&] { call.run(); });
    }
    if (predicted > budget) {
        v.skip = over_budget(predicted, budget);
        return v;
    }
    KernelCall call = k.call(p.inputs().refs, p.output(), p.inputs().dims);
    v.max_abs_err = p.checked([&] { call.run(); });
    if (v.max_abs_err > p.tolerance()) {
        v.skip = fmt::format("MISMATCH against halogen:{}: max|err| {:.3g}", c.reference, v.max_abs_err);
    }
    return v;
}

void time_variant(benchmark::State &state, const std::string &name, const BenchCase &c, const std::string &variant,
                  Stores stores, int threads, bool slow, double budget) {
    static std::map<std::string, Verdict> verdicts;
    try {
        const FamilyKernel k = FamilyKernel::aot(c.family(), variant, stores);
        PreparedCase &p = case_buffers(c);
        set_kernel_threads(threads);   // the kernels' pool and OpenMP's count (halide_gen/runtime/kernel_pool.h)
        auto it = verdicts.find(name);
        if (it == verdicts.end()) it = verdicts.emplace(name, look_at_variant(c, k, p, budget)).first;
        if (!it->second.skip.empty()) return state.SkipWithError(it->second.skip.c_str());
        std::vector<KernelCall> calls;   // one per buffer set, taken in turn
        for (int64_t b = 0; b < p.buffer_sets(); ++b) calls.push_back(k.call(p.refs(b), p.output(), p.inputs().dims));
        std::size_t next = 0;
        for (auto _ : state) {
            p.next_set();
            const KernelCall &call = calls[next++ % calls.size()];
            if (slow) twice_as_long([&] { call.run(); });
            else call.run();
        }
        set_counters(state, c, threads, it->second.max_abs_err, k.kernels());
    } catch (const std::exception &e) {
        state.SkipWithError(fmt::format("failed: {}", e.what()).c_str());
    }
}

// ---- peers

PeerOps &peer_ops(const BenchCase &c, const Peer &peer, int threads, double budget) {
    std::map<std::string, PeerOps> &cache = peer_op_cache();
    const std::string key = fmt::format("{}/{}/{}/{}", c.name, peer.name, threads, current_copy);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    PreparedCase &p = case_buffers(c);
    peer.set_threads(threads);
    PeerOps made;
    const std::string &op = find_family(c.family()).op;
    for (int64_t b = 0; b < p.buffer_sets(); ++b) {
        made.ops.push_back(peer.ops(PeerCase{c.family(), op, p.peer_inputs(b), p.kernel_layout(b).outputs.at(0)}));
    }
    p.first_set();
    for (PeerOp &op : made.ops.at(0)) {
        Verdict v;
        const double once = seconds_of(op.run);
        if (once > budget) v.skip = over_budget(once, budget);
        if (op.writes_output) {
            v.max_abs_err = p.checked(op.run);
            if (v.max_abs_err > (op.tolerance > 0 ? op.tolerance : p.tolerance())) {
                v.skip = fmt::format("MISMATCH against halogen:{}: max|err| {:.3g}", c.reference, v.max_abs_err);
            }
        }
        made.verdicts.push_back(v);
    }
    return cache.emplace(key, std::move(made)).first->second;
}

void time_peer_op(benchmark::State &state, const BenchCase &c, const Peer &peer, const std::string &op_name,
                  int threads, bool slow, double budget) {
    try {
        PeerOps &made = peer_ops(c, peer, threads, budget);
        std::size_t k = 0;
        while (k < made.ops[0].size() && made.ops[0][k].name != op_name) ++k;
        if (k == made.ops[0].size()) return state.SkipWithError("the peer made no such operation for this case");
        if (!made.verdicts[k].skip.empty()) return state.SkipWithError(made.verdicts[k].skip.c_str());
        PreparedCase &p = case_buffers(c);
        peer.set_threads(threads);
        std::size_t next = 0;
        for (auto _ : state) {
            p.next_set();
            const PeerOp &op = made.ops[next++ % made.ops.size()][k];
            if (slow) twice_as_long(op.run);
            else op.run();
        }
        const PeerOp &op = made.ops[0][k];
        set_counters(state, c, threads, made.verdicts[k].max_abs_err, 0, op.bytes, op.flops);
        // The threads the BLAS ran on (0: not OpenBLAS), which at::set_num_threads does not set.
        if (peer.calls_blas) state.counters["blas_threads"] = blas_threads();
    } catch (const std::exception &e) {
        state.SkipWithError(fmt::format("failed: {}", e.what()).c_str());
    }
}

// ---- the benchmarks

// Buffers for the DRAM limits, one set per buffer copy (current_copy), made on first use.
BandwidthBuffers &dram_buffers(int copy) {
    static std::map<int, std::unique_ptr<BandwidthBuffers>> sets;
    auto &slot = sets[copy];
    // 256 MiB each, or four times the last-level cache where that is more: every pass reads DRAM.
    if (!slot) slot = std::make_unique<BandwidthBuffers>(std::max<std::size_t>(std::size_t(64) << 20,
                                                                              std::size_t(last_level_cache_bytes())));
    return *slot;
}

const std::vector<Peer> &found_peers() {
    static const std::vector<Peer> found = peers();
    return found;
}

// Every benchmark of the selected grid with its peers and the machine's limits, in order.
std::vector<Timed> all_benchmarks(const Options &o) {
    std::vector<Timed> all;
    const std::regex slow_re(o.slow_down.empty() ? "$^" : o.slow_down);
    auto add = [&](const std::string &name, std::function<void(benchmark::State &, bool)> fn) {
        const bool slow = !o.slow_down.empty() && std::regex_search(name, slow_re);
        all.push_back({name, [fn, slow](benchmark::State &s) { fn(s, slow); }});
    };
    static const BenchCase limit_case{};   // counters of limit benchmarks are set explicitly
    static auto cache_buffers = std::make_shared<BandwidthBuffers>(std::size_t(64) << 10);   // 2 x 256 KiB
    for (int t : o.threads) {
        add(fmt::format("limit:fma/machine/t{}", t), [t](benchmark::State &s, bool) {
            double flops = 0;
            for (auto _ : s) flops = fma_peak(200000, t);
            set_counters(s, limit_case, t, -1, 0, 0, flops);
        });
        add(fmt::format("limit:copy-cache/machine/t{}", t), [t](benchmark::State &s, bool) {
            for (auto _ : s) cache_buffers->copy(t);
            set_counters(s, limit_case, t, -1, 0, cache_buffers->copy_bytes());
        });
        add(fmt::format("limit:copy-dram/machine/t{}", t), [t](benchmark::State &s, bool) {
            BandwidthBuffers &buf = dram_buffers(current_copy);
            for (auto _ : s) buf.copy(t);
            set_counters(s, limit_case, t, -1, 0, buf.copy_bytes());
        });
        add(fmt::format("limit:read-dram/machine/t{}", t), [t](benchmark::State &s, bool) {
            BandwidthBuffers &buf = dram_buffers(current_copy);
            float sink = 0;
            for (auto _ : s) sink += buf.read(t);
            benchmark::DoNotOptimize(sink);
            set_counters(s, limit_case, t, -1, 0, buf.read_bytes());
        });
        add(fmt::format("limit:stream/machine/t{}", t), [t](benchmark::State &s, bool) {
            BandwidthBuffers &buf = dram_buffers(current_copy);
            for (auto _ : s) buf.stream(t);
            set_counters(s, limit_case, t, -1, 0, buf.copy_bytes());
        });
        add(fmt::format("limit:stream-cached/machine/t{}", t), [t](benchmark::State &s, bool) {
            BandwidthBuffers &buf = dram_buffers(current_copy);
            for (auto _ : s) buf.stream_cached(t);
            set_counters(s, limit_case, t, -1, 0, buf.copy_bytes());
        });
    }
    static const std::vector<BenchCase> grid = o.streaming_sweep ? streaming_sweep_grid()
                                               : o.goals           ? goals_grid()
                                                                   : benchmark_grid(o.quick);
    // The grids call each kernel the way users do; the sweep times it through both entries.
    std::vector<std::pair<Stores, const char *>> entries{{Stores::by_size, ""}};
    if (o.streaming_sweep) entries = {{Stores::cached, " (cached stores)"}, {Stores::streaming, " (streaming stores)"}};
    for (const BenchCase &c : grid) {
        std::vector<std::pair<const Peer *, std::vector<std::string>>> peer_names;
        for (const Peer &peer : found_peers()) peer_names.push_back({&peer, peer_op_names(peer, tiny_case(c.family()))});
        for (int t : o.threads) {
            for (const std::string &v : c.variants) {
                for (const auto &[stores, suffix] : entries) {
                    const std::string name = fmt::format("{}/halogen:{}{}/t{}", c.name, v, suffix, t);
                    add(name, [name, &c, v, stores = stores, t, b = o.budget_s](benchmark::State &s, bool slow) {
                        time_variant(s, name, c, v, stores, t, slow, b);
                    });
                }
            }
            if (o.streaming_sweep) continue;   // halogen's two entries only
            for (const auto &[peer, names] : peer_names) {
                for (const std::string &op : names) {
                    if (o.goals && !c.goal_reference(peer->name + ":" + op)) continue;
                    add(fmt::format("{}/{}:{}/t{}", c.name, peer->name, op, t),
                        [&c, peer = peer, op, t, b = o.budget_s](benchmark::State &s, bool slow) {
                            time_peer_op(s, c, *peer, op, t, slow, b);
                        });
                }
            }
        }
    }
    return all;
}

void register_each(const std::vector<Timed> &benchmarks) {
    for (const Timed &b : benchmarks) {
        benchmark::RegisterBenchmark(b.name.c_str(), b.fn)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->DisplayAggregatesOnly(true);
    }
}

// The goal points of the goals grid whose label ("{case}/t{threads}") matches `filter` (Google
// Benchmark's syntax: a regex, a leading '-' negates), each a group of the kernel and its
// references at one thread count (conv: 2 threads only), a norm's with limit:stream; and
// limit:stream-cached alone at each thread count of a norm group, which the report names beside
// the norms' ratios.
std::vector<PairGroup> goal_groups(const std::vector<Timed> &benchmarks, const Options &o, std::string filter) {
    const bool negated = !filter.empty() && filter[0] == '-';
    const std::regex chosen(negated ? filter.substr(1) : filter.empty() ? "." : filter, std::regex::extended);
    std::map<std::string, const Timed *> by_name;
    for (const Timed &b : benchmarks) by_name[b.name] = &b;
    std::vector<PairGroup> groups;
    std::set<int> norm_threads;
    for (const BenchCase &c : goals_grid()) {
        for (int t : o.threads) {
            const auto &only = c.goal_threads;
            if (!only.empty() && std::find(only.begin(), only.end(), t) == only.end()) continue;
            PairGroup g{fmt::format("{}/t{}", c.name, t), {}};
            if (std::regex_search(g.label, chosen) == negated) continue;
            const std::string prefix = c.name + "/", suffix = fmt::format("/t{}", t);
            for (const Timed &b : benchmarks) {
                if (b.name.rfind(prefix, 0) == 0 && b.name.size() > suffix.size() &&
                    b.name.compare(b.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
                    g.members.push_back(b);
                }
            }
            for (const std::string &limit : c.goal_limits) {
                g.members.push_back(*by_name.at(fmt::format("limit:{}/machine/t{}", limit, t)));
                if (limit == "stream") norm_threads.insert(t);
            }
            groups.push_back(std::move(g));
        }
    }
    for (int t : norm_threads) {
        const std::string name = fmt::format("limit:stream-cached/machine/t{}", t);
        groups.push_back({fmt::format("limit:stream-cached/t{}", t), {*by_name.at(name)}});
    }
    return groups;
}

// The full grid in rounds: a group per case and thread count, its variants and peers back to back,
// the limits each a group of their own. One case's buffers live at a time, as with --goals: the
// grid's DRAM-sized cases (the matmul weights cycled through four times the last-level cache, the
// lm_head) together outgrow the machine's memory.
std::vector<PairGroup> case_groups(const std::vector<Timed> &benchmarks) {
    std::vector<PairGroup> groups;
    std::map<std::string, std::size_t> index;
    for (const Timed &b : benchmarks) {
        const std::size_t impl = b.name.find('/'), threads = b.name.rfind('/');
        const std::string label = b.name.substr(0, impl) + b.name.substr(threads);
        auto [it, fresh] = index.emplace(label, groups.size());
        if (fresh) groups.push_back({label, {}});
        groups[it->second].members.push_back(b);
    }
    return groups;
}

void add_context(const Options &o) {
    std::string peer_list;
    for (const Peer &p : found_peers()) peer_list += (peer_list.empty() ? "" : ",") + p.name;
    benchmark::AddCustomContext("peers", peer_list);
    benchmark::AddCustomContext("halogen_commit", source_version());
    benchmark::AddCustomContext("repetitions", std::to_string(o.repetitions));
    if (o.goals) benchmark::AddCustomContext("placements", std::to_string(o.placements));
    benchmark::AddCustomContext("interleaved", in_rounds(o) ? "paired" : o.in_order ? "no" : "yes");
    benchmark::AddCustomContext("grid", o.streaming_sweep ? "streaming-sweep"
                                        : o.goals         ? "goals"
                                        : o.quick         ? "quick"
                                                          : "full");
    benchmark::AddCustomContext("streaming_threshold_bytes", std::to_string(streaming_threshold_bytes()));
    // The BLAS Debian's libtorch calls: whatever libblas.so.3 the alternatives system points at.
    std::error_code ec;
    const auto blas = std::filesystem::canonical("/usr/lib/x86_64-linux-gnu/libblas.so.3", ec);
    benchmark::AddCustomContext("libtorch_blas", ec ? "unknown" : blas.string());
    // The registry (schedules/registry.def), so that perf/report groups and orders what it reads
    // without a list of its own: "family:home" and "family:variant,variant,..." joined by ';'.
    std::string homes, variants;
    for (const Family &f : families()) {
        std::string vs;
        for (const Variant &v : variants_of(f.name)) vs += (vs.empty() ? "" : ",") + v.name;
        homes += (homes.empty() ? "" : ";") + f.name + ":" + f.home;
        variants += (variants.empty() ? "" : ";") + f.name + ":" + vs;
    }
    benchmark::AddCustomContext("families", homes);
    benchmark::AddCustomContext("variants", variants);
    if (const std::string cpu = cpu_model(); !cpu.empty()) benchmark::AddCustomContext("cpu_model", cpu);
}

}  // namespace

}  // namespace halogen::perf

int main(int argc, char **argv) {
    halogen::perf::Options o;
    CLI::App app{"halogen_perf: halogen's kernels, peer libraries and the machine's limits, timed in one process. "
                 "Google Benchmark's own flags (--benchmark_filter, --benchmark_out, ...) pass through."};
    app.allow_extras();
    auto *quick = app.add_flag("--quick", o.quick, "the regression subset that CI runs");
    app.add_flag("--streaming-sweep", o.streaming_sweep,
                 "the kernels with a streamed twin at outputs of 2 to 48 MiB, each timed with cached and with "
                 "streaming stores (where the streaming threshold belongs), no peers")
        ->excludes(quick);
    auto *goals = app.add_flag("--goals", o.goals,
                 "only what the goals compare (docs/perf.md), in paired rounds: each kernel timed right next to its "
                 "references, --repetitions rounds; --benchmark_out=FILE gets the JSON of all rounds")
        ->excludes(quick)
        ->excludes("--streaming-sweep");
    app.add_option("--placements", o.placements,
                   "with --goals: allocate each case's buffers (and the DRAM limits') this many times and "
                   "run round r on set r mod N, so that the medians span where buffers land in memory")
        ->check(CLI::PositiveNumber)
        ->needs(goals);
    app.add_option("--threads", o.threads, "thread counts, each a column")->delimiter(',');
    auto *budget = app.add_option("--budget", o.budget_s,
                                  "skip an implementation whose one call takes longer (seconds; with --goals, "
                                  "no budget unless given: a skipped reference leaves its goal unmeasured)");
    app.add_option("--repetitions", o.repetitions,
                   "repetitions of each benchmark (rounds with --goals and in the full grid)");
    app.add_option("--min-time", o.min_time_s, "seconds per repetition");
    app.add_option("--slow-down", o.slow_down, "regex: matching benchmarks take twice as long (a planted regression)");
    app.add_flag("--in-order", o.in_order,
                 "the quick grid and the sweep: each benchmark's repetitions back to back (default: randomly "
                 "interleaved with the others')");
    try {
        app.parse(argc, argv);
        if (o.in_order && halogen::perf::in_rounds(o)) {
            throw CLI::ValidationError("--in-order", "applies to --quick and --streaming-sweep only: the full grid and "
                                                     "--goals run in paired rounds");
        }
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    }
    if (o.goals && budget->count() == 0) o.budget_s = std::numeric_limits<double>::infinity();
    // Repetitions and time per repetition go in as Google Benchmark's own flags (before the
    // passed-through ones, which win), so that benchmark names stay "{case}/{impl}/t{threads}".
    // Interleaved, a benchmark's repetitions are spread over the whole run: a burst of load from
    // the machine's other tenants then slows one of them, and the best of the rest stands, where
    // back to back it could slow all three (perf/notes.md).
    // With --goals and in the full grid the rounds are runs of one repetition each, in the order
    // paired_rounds.cpp sets, and the JSON file is written at the end (Google Benchmark would
    // rewrite it every round).
    const bool rounds = halogen::perf::in_rounds(o);
    std::vector<std::string> rest = {fmt::format("--benchmark_repetitions={}", rounds ? 1 : o.repetitions),
                                     fmt::format("--benchmark_min_time={}", o.min_time_s),
                                     fmt::format("--benchmark_enable_random_interleaving={}",
                                                 !o.in_order && !rounds)};
    // With --goals, --benchmark_filter chooses goal points, not single benchmarks (goal_groups).
    std::string rounds_out, goals_filter;
    for (const std::string &r : app.remaining()) {
        if (rounds && r.rfind("--benchmark_out=", 0) == 0) {
            rounds_out = r.substr(r.find('=') + 1);
        } else if (o.goals && r.rfind("--benchmark_filter=", 0) == 0) {
            goals_filter = r.substr(r.find('=') + 1);
        } else if (!(rounds && r.rfind("--benchmark_out_format=", 0) == 0)) {
            rest.push_back(r);
        }
    }
    std::vector<char *> args = {argv[0]};
    for (std::string &r : rest) args.push_back(r.data());
    int n = int(args.size());
    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
    try {
        halogen::perf::one_case_at_a_time = rounds;
        const auto benchmarks = halogen::perf::all_benchmarks(o);
        halogen::perf::add_context(o);
        if (o.goals) {
            halogen::perf::run_paired_rounds(halogen::perf::goal_groups(benchmarks, o, goals_filter), o.repetitions,
                                             rounds_out,
                                             [&](int round) { halogen::perf::current_copy = round % o.placements; });
        } else if (rounds) {
            halogen::perf::run_paired_rounds(halogen::perf::case_groups(benchmarks), o.repetitions, rounds_out);
        } else {
            halogen::perf::register_each(benchmarks);
            benchmark::RunSpecifiedBenchmarks();
        }
    } catch (const std::exception &e) {
        fmt::print(stderr, "halogen_perf: {}\n", e.what());
        return 1;
    }
    benchmark::Shutdown();
    return 0;
}
