// halogen compare: cases (family + shape + inputs), each variant's kernel (AOT, or JIT for a conv
// geometry the AOT kernels do not cover) timed on them.
#include "cli/compare.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/errors.h"
#include "frontend/families.h"
#include "frontend/family_inputs.h"
#include "frontend/interpreter.h"
#include "halide_gen/aot_runner.h"
#include "halide_gen/family_pipeline.h"
#include "schedules/variants.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

struct Case {
    std::string family;                       // the AOT family: embedding, layernorm, conv2d, ...
    std::string shape;                        // printable
    std::map<std::string, std::shared_ptr<Array>> inputs;   // shared: a 2 GiB table is not copied
    std::vector<int64_t> out_shape;
    double interpreter_work = 0;              // elements the interpreter would materialize
    double flops = 0;                         // useful floating-point work (conv), else 0
    double bytes = 0;                         // bytes an O(n) kernel must move (read + written)
    std::string reference;                    // variant standing in for the interpreter on big shapes
    double tolerance = 0;                     // max |error| accepted
    std::function<std::string(const std::string &variant)> work;   // algorithmic work per variant
    std::function<bool(const std::string &variant)> scales_with_vocab;   // embedding: probe first
    std::optional<Family> jit_family;         // set: every variant JIT-compiled on this graph, no AOT
};

// One variant ready to run: an AOT kernel, or a JIT-compiled FamilyKernel.
struct Runnable {
    int kernels = 0;
    std::function<void(const std::map<std::string, BufferRef> &, const BufferRef &)> run;
    std::shared_ptr<bool> streamed = std::make_shared<bool>(false);   // the last run went through the twin
};

struct Result {
    std::string variant, note;
    int kernels = 0;
    double median_ms = -1, max_abs_err = -1;
    bool ok = true;
    bool streamed = false;   // written through the kernel's streamed twin (halide_gen/aot_runner.h)
};

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string dims_x(const std::vector<int64_t> &s) {
    std::string out;
    for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
}

std::string engineering(double v) {
    const char *units[] = {"", "k", "M", "G", "T"};
    int u = 0;
    while (std::abs(v) >= 1000 && u < 4) v /= 1000, ++u;
    return fmt::format("{:.3g}{}", v, units[u]);
}

Case embedding_case(int64_t V, int64_t D, int64_t T, int64_t ids_max, const std::shared_ptr<Array> &table) {
    Case c;
    c.family = "embedding";
    c.shape = fmt::format("V={} D={} T={}{}", V, D, T, ids_max != V ? fmt::format(" ids<{}", ids_max) : "");
    FamilyInputs f = embedding_inputs(table, T, ids_max);
    c.inputs = std::move(f.inputs);
    c.interpreter_work = 4.0 * T * V * D;     // the one-hot [T, V, D] and its views
    c.out_shape = std::move(f.out_shape);
    c.bytes = 2.0 * T * D * 4;
    c.reference = "gather";
    // Only gather and onehot_inline are O(T*D); every other variant, the autoscheduled ones
    // included, runs the one-hot sum as written.
    auto scales = [](const std::string &v) { return v != "gather" && v != "onehot_inline"; };
    c.scales_with_vocab = scales;
    c.work = [=](const std::string &v) {
        return scales(v) ? engineering(double(T) * V * D) + " MAC" : engineering(double(T) * D) + " copies";
    };
    return c;
}

Case norm_case(const std::string &op, const std::vector<int64_t> &shape) {
    Case c;
    c.family = op;
    c.shape = dims_x(shape);
    c.reference = "naive";
    c.tolerance = 1e-3;
    const int64_t total = [&] { int64_t n = 1; for (int64_t d : shape) n *= d; return n; }();
    c.bytes = 2.0 * total * 4;
    c.interpreter_work = 12.0 * total;
    c.work = [=](const std::string &) { return engineering(double(total)) + " elems"; };
    FamilyInputs f = norm_inputs(op, shape);
    c.inputs = std::move(f.inputs);
    c.out_shape = std::move(f.out_shape);
    return c;
}

Case conv_case(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel, int64_t stride, int64_t pad) {
    Case c;
    const int rank = int(x.size()) - 2;
    c.family = fmt::format("conv{}d", rank);
    const int64_t C = x[1];
    // The AOT kernels cover 3-wide windows, stride 1 and pad 1; any other geometry is JIT-compiled
    // for this exact shape, every variant (the autoschedulers too) from the same family graph.
    Family f = make_conv_family(x, kernel, stride, pad);
    bool shipped = stride == 1 && pad == 1;
    for (std::size_t a = 1; a < kernel.size(); ++a) shipped = shipped && kernel[a] == 3;
    c.shape = fmt::format("x {} w {}{}", dims_x(x), dims_x(kernel),
                          shipped ? "" : fmt::format(" stride {} pad {} (JIT)", stride, pad));
    FamilyInputs in = conv_inputs(x, kernel, stride, pad);
    c.inputs = std::move(in.inputs);
    c.out_shape = eval_shape(f.graph.outputs()[0].shape(), {}, c.family + " output");
    double points = 1, window = double(C);
    for (int64_t e : c.out_shape) points *= double(e);
    for (std::size_t a = 1; a < kernel.size(); ++a) window *= double(kernel[a]);
    const double flops = 2 * points * window;
    c.flops = flops;
    c.interpreter_work = 4 * points * window;   // windows and products are materialized
    c.reference = "naive";
    c.tolerance = 1e-3 * std::sqrt(window);
    c.work = [flops](const std::string &) { return engineering(flops) + " FLOP"; };
    if (!shipped) c.jit_family = std::move(f);
    return c;
}

std::map<std::string, BufferRef> refs(std::map<std::string, std::shared_ptr<Array>> &inputs) {
    std::map<std::string, BufferRef> out;
    for (auto &[name, a] : inputs) out.emplace(name, a->ref());
    return out;
}

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

// Times one variant on the case (probe, warm-up, repetitions) and checks its output.
void time_variant(Case &c, const CompareOptions &o, const Runnable &k, std::map<std::string, BufferRef> &in,
                  std::optional<Array> &want, bool interpretable, Result &r, int &failures) {
    Array out(DType::Float32, c.out_shape);
        // Variants whose cost grows with the vocabulary are first timed on one token.
        if (c.scales_with_vocab && c.scales_with_vocab(r.variant) && c.out_shape[0] > 1) {
            auto one = in;
            one.at("ids").shape = {1};
            BufferRef out1{out.data<float>(), DType::Float32, {1, c.out_shape[1]}};
            auto t0 = Clock::now();
            k.run(one, out1);
            const double predicted = seconds_since(t0) * double(c.out_shape[0]);
            if (predicted > o.budget_s) {
                r.note = fmt::format("skipped: about {:.3g} s per run (measured {:.3g} s for one token), over the "
                                     "{:.3g} s budget", predicted, predicted / double(c.out_shape[0]), o.budget_s);
                std::cerr << " skipped\n";
                return;
            }
        }
        std::vector<double> samples;
        auto start = Clock::now();
        k.run(in, out.ref());   // warm-up (and the result we check)
        const double first = seconds_since(start);
        if (first > o.budget_s) samples.push_back(first);
        start = Clock::now();
        while (samples.empty() || (samples.size() < 50 && (samples.size() < 5 || seconds_since(start) < o.min_time_s) &&
                                   seconds_since(start) < o.budget_s)) {
            auto t0 = Clock::now();
            k.run(in, out.ref());
            samples.push_back(seconds_since(t0));
        }
        std::sort(samples.begin(), samples.end());
        r.median_ms = samples[samples.size() / 2] * 1e3;
        if (!want) want = out;   // the reference variant runs first
        r.max_abs_err = max_abs_diff(*want, out);
        r.ok = r.max_abs_err <= c.tolerance;
        if (!r.ok) {
            ++failures;
            r.note = fmt::format("MISMATCH vs {}", interpretable ? "interpreter" : c.reference);
        }
        std::cerr << fmt::format(" {:.4g} ms\n", r.median_ms);
}

std::vector<Result> run_case(Case &c, const CompareOptions &o, nlohmann::json &records, int &failures) {
    std::vector<Result> results;
    auto in = refs(c.inputs);
    // The reference: the interpreter when it is cheap, else the reference variant.
    std::optional<Array> want;
    const Family fam = c.jit_family ? *c.jit_family : make_family(c.family);
    const bool interpretable = c.interpreter_work < 2e7;
    if (interpretable) {
        std::map<std::string, std::vector<int64_t>> shapes;
        for (auto &[n, a] : c.inputs) shapes[n] = a->shape();
        Inputs copies;
        for (auto &[n, a] : c.inputs) copies.emplace(n, *a);
        want = interpret(fam.graph.outputs()[0], copies, bind_family(fam, shapes));
    }
    std::vector<const Variant *> order;
    for (const Variant &v : variants_of(c.family)) {
        if (v.name == c.reference) order.insert(order.begin(), &v);
        else order.push_back(&v);
    }
    for (const Variant *v : order) {
        Result r{v->name, "", 0, -1, -1, true};
        std::cerr << fmt::format("  {} {} {} ...", c.family, c.shape, v->name) << std::flush;
        Runnable k;
        try {
            if (c.jit_family) {
                auto jit = std::make_shared<FamilyKernel>(*c.jit_family, v->name);
                k = {jit->kernels(), [jit](const auto &in, const BufferRef &out) { jit->run(in, out); }};
            } else if (const AotKernel *aot = find_aot_kernel(c.family, v->name)) {
                auto streamed = std::make_shared<bool>(false);
                k = {aot_kernel_count(*aot),
                     [aot, streamed](const auto &in, const BufferRef &out) {
                         AotCall call(*aot, in, out);
                         *streamed = call.streamed();
                         call.run();
                     },
                     streamed};
            }
        } catch (const Halide::Error &e) {   // e.g. an autoscheduler that cannot schedule this graph
            std::string what = e.what();
            r.note = fmt::format("did not compile: {}", what.substr(0, what.find('\n')));
        }
        if (!k.run) {
            if (r.note.empty()) r.note = "not built";
            results.push_back(r);
            std::cerr << " " << r.note << "\n";
            continue;
        }
        r.kernels = k.kernels;
        try {
            time_variant(c, o, k, in, want, interpretable, r, failures);
            r.streamed = *k.streamed;
            if (r.streamed) r.note += r.note.empty() ? "streaming stores" : ", streaming stores";
        } catch (const Error &e) {
            // A kernel that rejects these inputs (a typed error, e.g. a buffer too large for
            // Halide's 32-bit extents) is a result too, not a wrong answer.
            r.median_ms = -1;
            r.note = fmt::format("rejected these inputs: {}", e.what());
            std::cerr << " failed\n";
        }
        results.push_back(r);
    }
    // The table.
    double slowest = 0;
    for (const Result &r : results) slowest = std::max(slowest, r.median_ms);
    const double copy_s = c.bytes > 0 ? memcpy_seconds(c.bytes) : 0;
    fmt::print("\n{} {}  (reference: {})\n", c.family, c.shape, interpretable ? "interpreter" : c.reference + " variant");
    fmt::print("  {:<16} {:>7} {:>14} {:>11} {:>13} {:>10} {:>11}  {}\n", "variant", "kernels", "work", "median ms",
               c.flops > 0 ? "GFLOP/s" : "GB/s", "speedup", "max|err|", "");
    for (const Result &r : results) {
        nlohmann::json rec = {{"family", c.family}, {"variant", r.variant}, {"shape", c.shape}, {"kernels", r.kernels}};
        if (r.median_ms < 0) {
            fmt::print("  {:<16} {:>7} {:>14} {:>11} {:>13} {:>10} {:>11}  {}\n", r.variant, r.kernels ? std::to_string(r.kernels) : "-",
                       c.work(r.variant), "-", "-", "-", "-", r.note);
            rec["median_ms"] = nullptr;
            rec["max_abs_err"] = nullptr;
            rec["skipped"] = r.note;
            records.push_back(rec);
            continue;
        }
        const double s = r.median_ms / 1e3;
        const double rate = c.flops > 0 ? c.flops / s / 1e9 : c.bytes / s / 1e9;
        fmt::print("  {:<16} {:>7} {:>14} {:>11.4g} {:>13.4g} {:>9.1f}x {:>11.3g}  {}\n", r.variant, r.kernels,
                   c.work(r.variant), r.median_ms, rate, slowest / r.median_ms, r.max_abs_err, r.note);
        rec["median_ms"] = r.median_ms;
        rec["max_abs_err"] = r.max_abs_err;
        rec["streaming_stores"] = r.streamed;
        rec[c.flops > 0 ? "gflops" : "gbps"] = rate;
        if (copy_s > 0) rec["memcpy_gbps"] = c.bytes / copy_s / 1e9;
        records.push_back(rec);
    }
    if (copy_s > 0) {
        fmt::print("  {:<16} {:>7} {:>14} {:>11.4g} {:>13.4g}  (same bytes, same process)\n", "memcpy", "-",
                   engineering(c.bytes / 2) + "B", copy_s * 1e3, c.bytes / copy_s / 1e9);
    }
    return results;
}

std::vector<int64_t> or_default(const std::vector<int64_t> &given, std::vector<int64_t> fallback) {
    return given.empty() ? fallback : given;
}

}  // namespace

int run_compare(const CompareOptions &o) {
    const auto &f = o.family;
    if (f != "embedding" && f != "norms" && f != "conv" && f != "all") {
        throw Error(fmt::format("compare: unknown family '{}' (known: embedding, norms, conv, all)", f));
    }
    nlohmann::json records = nlohmann::json::array();
    int failures = 0;
    auto run = [&](Case c) { run_case(c, o, records, failures); };
    if (f == "embedding" || f == "all") {
        std::vector<std::array<int64_t, 4>> shapes;   // V, D, T, ids_max
        if (o.vocab || o.dim || o.tokens) {
            const int64_t V = o.vocab ? o.vocab : 128256, D = o.dim ? o.dim : 4096, T = o.tokens ? o.tokens : 16;
            shapes.push_back({V, D, T, o.ids_max ? o.ids_max : V});
        } else {
            shapes = {{128256, 4096, 1, 128256}, {128256, 4096, 16, 128256}, {128256, 4096, 16, 1024},
                      {1024, 4096, 16, 1024}, {128256, 4096, 2048, 128256}};
        }
        std::map<std::pair<int64_t, int64_t>, std::shared_ptr<Array>> tables;   // one table per (V, D)
        for (const auto &[V, D, T, ids_max] : shapes) {
            if (ids_max < 1 || ids_max > V) throw Error(fmt::format("compare: --ids-max {} must be in [1, {}]", ids_max, V));
            auto &t = tables[{V, D}];
            if (!t) {
                std::cerr << fmt::format("embedding: filling a {} x {} table ({:.2f} GB)\n", V, D, double(V) * D * 4 / 1e9);
                t = std::make_shared<Array>(random_floats({V, D}, 7));
            }
            run(embedding_case(V, D, T, ids_max, t));
        }
    }
    if (f == "norms" || f == "all") {
        std::vector<std::pair<std::string, std::vector<int64_t>>> cases;
        if (!o.op.empty()) {
            cases.push_back({o.op, or_default(o.shape, {8, 512, 4096})});
        } else {
            cases = {{"layernorm", {8, 512, 4096}}, {"rmsnorm", {8, 512, 4096}},
                     {"batchnorm", {8, 256, 56, 56}}, {"groupnorm", {8, 256, 56, 56}}};
        }
        for (const auto &[op, shape] : cases) {
            if (op != "layernorm" && op != "rmsnorm" && op != "batchnorm" && op != "groupnorm") {
                throw Error(fmt::format("compare: unknown --op '{}' (known: layernorm, rmsnorm, batchnorm, groupnorm)", op));
            }
            run(norm_case(op, shape));
        }
    }
    if (f == "conv" || f == "all") {
        std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases;
        if (!o.shape.empty()) {
            std::vector<int64_t> k = o.kernel;
            if (k.empty()) {
                k = {o.shape[1]};
                k.insert(k.end(), o.shape.size() - 2, 3);
            }
            cases.push_back({o.shape, k});
        } else {
            cases = {{{1, 64, 56, 56}, {64, 3, 3}}, {{8, 256, 1024}, {256, 3}}, {{1, 32, 16, 56, 56}, {32, 3, 3, 3}}};
        }
        for (const auto &[x, k] : cases) {
            if (x.size() < 3 || x.size() > 5 || k.size() != x.size() - 1) {
                throw Error(fmt::format("compare: conv needs --shape NxCxL.. (1 to 3 spatial axes) and --kernel KxR.. "
                                        "with one window extent per spatial axis, got {} and {}", dims_x(x), dims_x(k)));
            }
            run(conv_case(x, k, o.stride, o.pad));
        }
    }
    if (!o.json_path.empty()) {
        std::ofstream out(o.json_path);
        if (!out) throw Error(fmt::format("compare: cannot write '{}'", o.json_path));
        out << records.dump(2) << "\n";
    }
    if (failures) {
        fmt::print("\n{} variant(s) disagree with the reference\n", failures);
        return 1;
    }
    return 0;
}

}  // namespace halogen
