// halogen compare (compare.h).
#include "cli/compare.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/threads_flag.h"
#include "frontend/errors.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "schedules/case_args.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Result {
    std::string variant, note;
    int kernels = 0;
    double median_ms = -1, max_abs_err = -1;
    bool streamed = false;   // written through the kernel's streamed twin
};

// The time of one memcpy of `bytes / 2` (it moves `bytes`: read plus write), best of several.
double memcpy_seconds(double bytes) {
    std::vector<char> src(std::size_t(bytes / 2), 1), dst(std::size_t(bytes / 2), 2);
    double best = 1e9;
    for (int r = 0; r < 7; ++r) {
        auto t0 = Clock::now();
        std::memcpy(dst.data(), src.data(), src.size());
        best = std::min(best, seconds_since(t0));
    }
    return best;
}

// Halide's autoschedulers print their search to stderr while a kernel is JIT-compiled; that goes to
// /dev/null unless asked for (-v), so compare's own progress lines stay readable.
class QuietStderr {
public:
    explicit QuietStderr(bool quiet) {
        if (!quiet) return;
        std::fflush(stderr);
        saved_ = dup(STDERR_FILENO);
        const int null = open("/dev/null", O_WRONLY);
        if (saved_ >= 0 && null >= 0) dup2(null, STDERR_FILENO);
        if (null >= 0) close(null);
    }
    ~QuietStderr() {
        if (saved_ < 0) return;
        std::fflush(stderr);
        dup2(saved_, STDERR_FILENO);
        close(saved_);
    }

private:
    int saved_ = -1;
};

FamilyKernel kernel_for(const Case &c, const Variant &v, bool verbose) {
    if (!c.jit) return FamilyKernel::aot(c.family, v.name);
    QuietStderr quiet(!verbose);
    return FamilyKernel::jit(c.jit, v.name);
}

// Times one variant (a probe first where the variant asks, a warm-up, repetitions) and checks its
// output against `want`, which the first variant to run sets when the interpreter did not.
// `compile_s`, the seconds a JIT-compiled variant took to compile, counts against the budget.
void time_variant(const Case &c, const CompareOptions &o, const FamilyKernel &k, double compile_s, CaseInputs &in,
                  std::optional<Array> &want, Result &r) {
    const DType out_type = k.family().graph().outputs().at(0).dtype();   // bfloat16 for the bf16 packing
    Array out(out_type, in.out_shape);
    if (c.probe) {   // every family: a call predicted to run over the budget is skipped
        Probe p = c.probe(in, k.variant());
        Array small(out_type, p.out_shape);
        KernelCall probe = k.call(p.refs, small.ref(), p.dims);
        auto t0 = Clock::now();
        probe.run();   // a warm-up, unless it alone shows the whole call over the budget
        double predicted = seconds_since(t0) * std::max(1.0, p.scale);
        if (compile_s + predicted <= o.budget_s) {
            t0 = Clock::now();
            probe.run();
            predicted = seconds_since(t0) * p.scale;
        }
        if (compile_s + predicted > o.budget_s) {
            r.note = compile_s > 0 ? fmt::format("skipped: compiled in {:.3g} s, then about {:.3g} s per run, over the "
                                                 "{:.3g} s budget", compile_s, predicted, o.budget_s)
                                   : fmt::format("skipped: about {:.3g} s per run, over the {:.3g} s budget", predicted,
                                                 o.budget_s);
            return;
        }
    }
    KernelCall call = k.call(in.refs, out.ref(), in.dims);
    std::vector<double> samples;
    auto start = Clock::now();
    call.run();   // warm-up, and the result that is checked
    const double first = seconds_since(start);
    if (first > o.budget_s) samples.push_back(first);
    start = Clock::now();
    while (samples.empty() || (samples.size() < 50 && (samples.size() < 5 || seconds_since(start) < o.min_time_s) &&
                               seconds_since(start) < o.budget_s)) {
        auto t0 = Clock::now();
        call.run();
        samples.push_back(seconds_since(t0));
    }
    std::sort(samples.begin(), samples.end());
    r.median_ms = samples[samples.size() / 2] * 1e3;
    r.streamed = call.streams();
    if (!want) want = out;
    r.max_abs_err = max_abs_diff(*want, out);
}

void print_table(const Case &c, const std::vector<Result> &results, const std::string &reference,
                 nlohmann::json &records) {
    double slowest = 0;
    for (const Result &r : results) slowest = std::max(slowest, r.median_ms);
    const double copy_s = c.bytes > 0 && c.flops == 0 ? memcpy_seconds(c.bytes) : 0;
    const char *rate_name = c.flops > 0 ? "GFLOP/s" : "GB/s";
    fmt::print("\n{}:{}  (checked against the {}; {} thread{})\n", c.family, c.label, reference, kernel_threads(),
               kernel_threads() == 1 ? "" : "s");
    fmt::print("  {:<16} {:>7} {:>16} {:>11} {:>10} {:>12} {:>10}  {}\n", "variant", "kernels", "work", "median ms",
               rate_name, "vs slowest", "max|err|", "");
    for (const Result &r : results) {
        nlohmann::json rec = {{"family", c.family}, {"case", c.label},     {"variant", r.variant},
                              {"kernels", r.kernels}, {"threads", kernel_threads()}};
        const std::string work = c.work ? c.work(find_variant(c.family, r.variant)) : "";
        if (r.median_ms < 0) {
            fmt::print("  {:<16} {:>7} {:>16} {:>11} {:>10} {:>12} {:>10}  {}\n", r.variant,
                       r.kernels ? std::to_string(r.kernels) : "-", work, "-", "-", "-", "-", r.note);
            rec["median_ms"] = nullptr;
            rec["skipped"] = r.note;
            records.push_back(rec);
            continue;
        }
        const double rate = (c.flops > 0 ? c.flops : c.bytes) / (r.median_ms / 1e3) / 1e9;
        fmt::print("  {:<16} {:>7} {:>16} {:>11.4g} {:>10.4g} {:>11.4g}x {:>10.3g}  {}\n", r.variant, r.kernels, work,
                   r.median_ms, rate, slowest / r.median_ms, r.max_abs_err, r.note);
        rec["median_ms"] = r.median_ms;
        rec["max_abs_err"] = r.max_abs_err;
        rec["streaming_stores"] = r.streamed;
        rec[c.flops > 0 ? "gflops" : "gbps"] = rate;
        if (copy_s > 0) rec["memcpy_gbps"] = c.bytes / copy_s / 1e9;
        records.push_back(rec);
    }
    if (copy_s > 0) {
        fmt::print("  {:<16} {:>7} {:>16} {:>11.4g} {:>10.4g}  (the same bytes copied, same process)\n", "memcpy", "-",
                   si_number(c.bytes / 2) + "B", copy_s * 1e3, c.bytes / copy_s / 1e9);
    }
}

// Runs every variant of the family on the case; returns how many disagree with the reference.
int run_case(const Case &c, const CompareOptions &o, CaseInputs &in, nlohmann::json &records) {
    const Family &family = c.jit ? *c.jit : find_family(c.family);
    std::optional<Array> want;
    const std::string deflt = default_variant(c.family).name;
    const bool interpretable = c.interpreter_work < 2e7;
    if (interpretable) want = interpret_call(family, in.refs, in.dims);
    std::vector<const Variant *> order;   // the default variant first: the reference when not interpretable
    for (const Variant &v : variants_of(c.family)) {
        if (v.name == deflt) order.insert(order.begin(), &v);
        else order.push_back(&v);
    }
    int failures = 0;
    std::vector<Result> results;
    for (const Variant *v : order) {
        Result r;
        r.variant = v->name;
        std::cerr << fmt::format("  {}:{} {} ...", c.family, c.label, v->name) << std::flush;
        try {
            const auto compiling = Clock::now();
            FamilyKernel k = kernel_for(c, *v, o.verbose);
            const double compile_s = c.jit ? seconds_since(compiling) : 0;   // AOT kernels come compiled
            r.kernels = k.kernels();
            time_variant(c, o, k, compile_s, in, want, r);
            if (r.median_ms >= 0 && r.max_abs_err > c.tolerance) {
                ++failures;
                r.note = fmt::format("MISMATCH vs {}", interpretable ? "interpreter" : deflt);
            }
            if (r.streamed) r.note += r.note.empty() ? "streaming stores" : ", streaming stores";
        } catch (const Halide::Error &e) {   // an autoscheduler that cannot schedule this graph
            const std::string what = e.what();
            r.note = fmt::format("did not compile: {}", what.substr(0, what.find('\n')));
        } catch (const Error &e) {   // a kernel that rejects these inputs is a result, not a wrong answer
            r.note = fmt::format("rejected these inputs: {}", e.what());
        }
        std::cerr << (r.median_ms >= 0 ? fmt::format(" {:.4g} ms\n", r.median_ms) : " " + r.note + "\n");
        results.push_back(r);
    }
    print_table(c, results, interpretable ? "interpreter" : deflt + " variant", records);
    return failures;
}

// A flag given must be one every selected family takes.
void check_flags(const CompareOptions &o, const std::vector<const Family *> &families) {
    for (const auto &[flag, value] : o.args) {
        for (const Family *f : families) {
            const bool takes = std::any_of(f->options.begin(), f->options.end(), [&](const CaseOption &c) { return c.flag == flag; });
            if (takes) continue;
            std::vector<std::string> flags;
            for (const CaseOption &c : f->options) flags.push_back("--" + c.flag);
            throw Error(fmt::format("compare {}: --{} does not apply to {} (it takes {})", o.name, flag, f->name,
                                    flags.empty() ? "no flags" : fmt::format("{}", fmt::join(flags, ", "))));
        }
    }
}

}  // namespace

int run_compare(const CompareOptions &o) {
    const std::vector<const Family *> families = select_families(o.name);
    check_flags(o, families);
    use_threads("compare", o.threads);
    std::ofstream json;
    if (!o.json_path.empty()) {   // checked before anything runs
        json.open(o.json_path);
        if (!json) throw Error(fmt::format("compare: cannot write '{}'", o.json_path));
    }
    // In a group, a family that refuses the flags' shape is listed with its reason; the others run.
    // Without flags, each family runs its compare cases.
    std::vector<Case> cases;
    std::vector<std::string> refused;
    for (const Family *f : families) {
        std::vector<Case> made;
        try {
            for (const CaseArgs &args : o.args.empty() ? f->compare_cases : std::vector<CaseArgs>{o.args}) {
                for (Case &c : f->cases(args)) made.push_back(std::move(c));
            }
        } catch (const Error &e) {
            if (families.size() == 1) throw;
            const std::string why = e.what(), own = f->name + ": ";   // most reasons begin with the family's name
            refused.push_back(why.rfind(own, 0) == 0 ? why : own + why);
            continue;
        }
        for (Case &c : made) {
            cases.push_back(std::move(c));
        }
    }
    if (cases.empty()) {
        throw Error(fmt::format("compare {}: no family there takes these flags' shapes{}", o.name,
                                refused.empty() ? "" : fmt::format(" ({})", fmt::join(refused, "; "))));
    }
    if (!refused.empty()) {
        fmt::print("not run: {} of the {} families of '{}' do not take this shape:\n", refused.size(), families.size(),
                   o.name);
        for (const std::string &r : refused) fmt::print("  {}\n", r);
    }
    nlohmann::json records = nlohmann::json::array();
    int failures = 0;
    CaseInputs previous;   // held until the next case's inputs are made: they may share a table
    for (const Case &c : cases) {
        CaseInputs in = c.make();
        previous = CaseInputs();
        failures += run_case(c, o, in, records);
        previous = std::move(in);
    }
    if (json.is_open()) json << records.dump(2) << "\n";
    if (failures) {
        fmt::print("\n{} variant(s) disagree with the reference\n", failures);
        return 1;
    }
    return 0;
}

}  // namespace halogen
