// Numeric edge cases across every variant of every family (issue 6, part 5): NaN and +-Inf inputs,
// denormals, empty tensors, single elements, very long rows (D = 65536) and an embedding table
// above 2 GiB. Each variant runs as a JIT FamilyKernel (hand-scheduled variants) and as its AOT
// kernel (every kernel in the registry), on the same inputs, and is checked twice:
//   - against the reference interpreter (NaN matches NaN, Inf the same Inf), and
//   - against the semantics each case states, independently of the interpreter (e.g. a NaN in an
//     unselected embedding row never reaches the output; a NaN in a norm row makes that row NaN
//     and no other).
// Outputs are pre-filled with a sentinel and followed by a canary, so a kernel that silently
// skips its work or writes past the end is caught. An autoscheduled AOT kernel may reject a shape
// smaller than its tiles -- only with a typed Error carrying Halide's message, never with numbers;
// so may a hand-scheduled kernel that reads its inputs clamped (kClampInputs) when an input is
// empty (a clamped read asks for one element). Every such rejection is printed ("REJECTED ...")
// so the report can list them.
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <chrono>
#include <random>

#include <sys/mman.h>

#include <gtest/gtest.h>

#include "frontend/errors.h"
#include "frontend/halogen.h"
#include "halide_gen/compiler/program.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/kernel.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/expect_error.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using Shapes = std::map<std::string, std::vector<int64_t>>;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
const float kSentinel = -1234.5f;   // what an output holds before a kernel writes it

// ---------------------------------------------------------------------------------------------
// Cases

struct Case {
    std::string name;
    Shapes shapes;
    std::function<void(Inputs &)> prepare;                        // the edge values
    std::function<void(const Inputs &, const Array &)> semantics;  // checks without the interpreter
    double atol = 1e-5, rtol = 1e-5;
};

int64_t count(const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

bool same_value(double want, double got) { return (std::isnan(want) && std::isnan(got)) || want == got; }

// Denormal float32 values (below 2^-126 ~ 1.18e-38), signed, at least 2^-140 in magnitude.
float denormal(std::mt19937 &rng) {
    std::uniform_real_distribution<float> u(0.05f, 0.95f);
    const float v = u(rng) * std::numeric_limits<float>::min();
    return (rng() & 1) ? v : -v;
}

void fill_denormals(Array &a, uint32_t seed) {
    std::mt19937 rng(seed);
    for (int64_t k = 0; k < a.size(); ++k) a.set(k, denormal(rng));
}

// --- embedding: ids [T], weight [V, D] -> out [T, D]

// Every output row is exactly the selected table row (NaN where it is NaN, the same Inf, the same
// denormal), or zeros for an id outside [0, V); nothing of an unselected row reaches the output.
void embedding_rows(const Inputs &in, const Array &out) {
    const Array &ids = in.at("ids"), &w = in.at("weight");
    const int64_t V = w.shape()[0], D = w.shape()[1];
    int64_t bad = 0;
    for (int64_t t = 0; t < ids.size(); ++t) {
        const int64_t id = int64_t(ids.get(t));
        for (int64_t d = 0; d < D; ++d) {
            const double want = (id >= 0 && id < V) ? w.get(id * D + d) : 0.0;
            if (!same_value(want, out.get(t * D + d)) && bad++ < 3) {
                ADD_FAILURE() << "out[" << t << ", " << d << "] = " << out.get(t * D + d) << ", the row of id " << id
                              << " holds " << want;
            }
        }
    }
}

void set_row(Array &w, int64_t row, float v) {
    const int64_t D = w.shape()[1];
    for (int64_t d = 0; d < D; ++d) w.set(row * D + d, v);
}

void set_ids(Array &ids, const std::vector<int32_t> &values) {
    for (int64_t t = 0; t < ids.size(); ++t) ids.set(t, values[t % values.size()]);
}

std::vector<Case> embedding_cases() {
    const int64_t V = 37, D = 33;
    Shapes s = {{"ids", {9}}, {"weight", {V, D}}};
    return {
        {"nan_inf_unselected_rows", s,
         [](Inputs &in) {
             Array &w = in.at("weight");
             set_row(w, 2, kNaN);
             set_row(w, 3, kInf);
             set_row(w, 4, -kInf);
             w.set(36 * 33 + 5, kNaN);   // one NaN in the last row, which no id selects either
             set_ids(in.at("ids"), {0, 1, 5, 35, -1, 37, 1000, 6, 1});
         },
         embedding_rows},
        {"nan_inf_selected_rows", s,
         [](Inputs &in) {
             Array &w = in.at("weight");
             set_row(w, 2, kNaN);
             set_row(w, 3, kInf);
             set_row(w, 4, -kInf);
             w.set(7 * 33 + 0, kNaN);     // mixed rows: one non-finite element each
             w.set(8 * 33 + 32, kInf);
             w.set(36 * 33 + 16, -kInf);
             set_ids(in.at("ids"), {2, 3, 4, 7, 8, 36, 0, -1, 2});
         },
         embedding_rows},
        {"denormal_rows", s,
         [](Inputs &in) {
             fill_denormals(in.at("weight"), 5);
             set_ids(in.at("ids"), {0, 36, 17, 17, 1, -5, 2, 3, 4});
         },
         embedding_rows, 0, 0},
        {"zero_tokens", {{"ids", {0}}, {"weight", {V, D}}}, nullptr, embedding_rows},
        {"zero_dim", {{"ids", {4}}, {"weight", {V, 0}}}, [](Inputs &in) { set_ids(in.at("ids"), {0, 1, 36, 2}); },
         embedding_rows},
        {"empty_table", {{"ids", {3}}, {"weight", {0, D}}}, [](Inputs &in) { set_ids(in.at("ids"), {0, -1, 5}); },
         embedding_rows},
        // Wide rows of an empty table: a masked read clamped into the empty axis must not touch
        // memory (the table has none) -- 4 MiB per row here.
        {"empty_wide_table", {{"ids", {2}}, {"weight", {0, 1 << 20}}}, [](Inputs &in) { set_ids(in.at("ids"), {0, 1}); },
         embedding_rows},
        {"single_element", {{"ids", {1}}, {"weight", {1, 1}}}, [](Inputs &in) { set_ids(in.at("ids"), {0}); },
         embedding_rows, 0, 0},
        {"single_token_out_of_range", {{"ids", {1}}, {"weight", {1, 1}}},
         [](Inputs &in) { set_ids(in.at("ids"), {1}); }, embedding_rows, 0, 0},
    };
}

// --- attention: q [T, H, D], k and v [G, S, D] -> out [T, H*D]

void attention_finite(const Inputs &, const Array &out) {
    for (int64_t k = 0; k < out.size(); ++k) {
        if (!std::isfinite(out.get(k))) {
            ADD_FAILURE() << "attention out[" << k << "] = " << out.get(k) << ": not finite";
            return;
        }
    }
}

Shapes attention_shapes(int64_t T, int64_t S, int64_t H, int64_t G, int64_t D) {
    return {{"q", {T, H, D}}, {"k", {G, S, D}}, {"v", {G, S, D}}};
}

// Scores that overflow to -inf (q = 1e20, k = -1e20) are clamped, all equal: each output is the
// average of the visible values, finite. Empty queries or heads give an empty output.
std::vector<Case> attention_cases() {
    auto fill = [](Array &a, float v) {
        for (int64_t k = 0; k < a.size(); ++k) a.set(k, v);
    };
    return {
        {"overflowing_scores", attention_shapes(4, 9, 4, 2, 16),
         [fill](Inputs &in) {
             fill(in.at("q"), 1e20f);
             fill(in.at("k"), -1e20f);
         },
         attention_finite},
        {"long_cache", attention_shapes(1, 4099, 4, 1, 64), nullptr, attention_finite},
        {"odd_prefill", attention_shapes(9, 70, 6, 2, 17), nullptr, attention_finite},
        {"single_element", attention_shapes(1, 1, 1, 1, 1), nullptr, attention_finite},
        {"zero_queries", attention_shapes(0, 5, 4, 2, 16), nullptr, nullptr},
        {"zero_head_dim", attention_shapes(2, 5, 4, 2, 0), nullptr, nullptr},
    };
}

// --- layernorm, rmsnorm: x [R, D], weight [D] (, bias [D]) -> out [R, D]

// A row with a NaN is NaN everywhere. A row with +-Inf (and no NaN) is NaN everywhere under
// LayerNorm (x - mean is inf - inf); under RMSNorm the scale 1/sqrt(inf) is 0, so the Inf
// elements are NaN (inf * 0) and the others 0. A finite row stays finite: nothing crosses rows.
void row_norm_rows(const std::string &family, const Inputs &in, const Array &out) {
    const Array &x = in.at("x");
    const int64_t R = x.shape()[0], D = x.shape()[1];
    for (int64_t r = 0; r < R; ++r) {
        bool has_nan = false, has_inf = false;
        for (int64_t d = 0; d < D; ++d) {
            has_nan = has_nan || std::isnan(x.get(r * D + d));
            has_inf = has_inf || std::isinf(x.get(r * D + d));
        }
        for (int64_t d = 0; d < D; ++d) {
            const double xv = x.get(r * D + d), o = out.get(r * D + d);
            bool ok;
            if (!has_nan && !has_inf) {
                ok = std::isfinite(o);
            } else if (has_nan || family == "layernorm") {
                ok = std::isnan(o);
            } else {
                ok = std::isinf(xv) ? std::isnan(o) : o == 0;
            }
            if (!ok) {
                ADD_FAILURE() << family << " out[" << r << ", " << d << "] = " << o << " (x = " << xv
                              << (has_nan ? ", the row has a NaN" : has_inf ? ", the row has an Inf" : ", a finite row")
                              << ")";
                return;
            }
        }
    }
}

// Denormal inputs are not flushed to zero: RMSNorm scales them by 1/sqrt(eps) into normal
// numbers, so every output is nonzero where x and weight are.
void rmsnorm_not_flushed(const Inputs &in, const Array &out) {
    const Array &x = in.at("x"), &w = in.at("weight");
    const int64_t D = x.shape()[1];
    for (int64_t k = 0; k < x.size(); ++k) {
        if (x.get(k) != 0 && w.get(k % D) != 0 && out.get(k) == 0) {
            ADD_FAILURE() << "rmsnorm: denormal x[" << k << "] = " << x.get(k) << " was flushed to zero";
            return;
        }
    }
}

Shapes row_shapes(const std::string &family, int64_t R, int64_t D) {
    Shapes s = {{"x", {R, D}}, {"weight", {D}}};
    if (family == "layernorm") s["bias"] = {D};
    return s;
}

std::vector<Case> row_norm_cases(const std::string &family) {
    auto rows = [family](const Inputs &in, const Array &out) { row_norm_rows(family, in, out); };
    std::vector<Case> cases = {
        {"nan_in_one_row", row_shapes(family, 4, 33), [](Inputs &in) { in.at("x").set(1 * 33 + 5, kNaN); }, rows},
        {"inf_in_rows", row_shapes(family, 4, 33),
         [](Inputs &in) {
             in.at("x").set(2 * 33 + 7, kInf);
             in.at("x").set(3 * 33 + 32, -kInf);
         },
         rows},
        {"nan_at_end_of_long_row", row_shapes(family, 3, 65536),
         [](Inputs &in) { in.at("x").set(2 * 65536 - 1, kNaN); }, rows, 1e-4, 1e-4},
        {"long_rows", row_shapes(family, 3, 65536), nullptr, rows, 1e-4, 1e-4},
        {"long_single_row", row_shapes(family, 1, 65536), nullptr, rows, 1e-4, 1e-4},
        {"zero_rows", row_shapes(family, 0, 33), nullptr, rows},
        {"zero_dim", row_shapes(family, 3, 0), nullptr, rows},
        {"single_element", row_shapes(family, 1, 1), nullptr, rows},
    };
    // Denormal rows: weight 1 and bias 0, so the outputs stay near the inputs' scale and a
    // flush to zero shows against a tolerance far below it.
    Case den{"denormal_rows", row_shapes(family, 3, 33),
             [](Inputs &in) {
                 fill_denormals(in.at("x"), 7);
                 std::mt19937 rng(3);
                 for (int64_t d = 0; d < 33; ++d) {   // row 2 mixes denormals and normal numbers
                     in.at("x").set(2 * 33 + d, d % 2 ? denormal(rng) : 0.5 + d);
                     in.at("weight").set(d, 1.0);
                     if (in.count("bias")) in.at("bias").set(d, 0.0);
                 }
             },
             family == "rmsnorm" ? std::function<void(const Inputs &, const Array &)>(rmsnorm_not_flushed)
                                 : std::function<void(const Inputs &, const Array &)>(rows),
             1e-42, 2e-3};
    cases.push_back(den);
    return cases;
}

// --- batchnorm and groupnorm: x [N, C, S] -> out [N, C, S] (groupnorm: 32 groups of C/32 channels)

// BatchNorm (inference) is elementwise with per-channel statistics: an output is finite exactly
// when its x and its channel's mean, var, weight and bias are.
void batchnorm_elements(const Inputs &in, const Array &out) {
    const Array &x = in.at("x");
    const int64_t C = x.shape()[1], S = x.shape()[2];
    for (int64_t k = 0; k < x.size(); ++k) {
        const int64_t c = (k / S) % C;
        bool want_finite = std::isfinite(x.get(k));
        for (const char *p : {"mean", "var", "weight", "bias"}) want_finite = want_finite && std::isfinite(in.at(p).get(c));
        if (bool(std::isfinite(out.get(k))) != want_finite) {
            ADD_FAILURE() << "batchnorm out[" << k << "] = " << out.get(k) << " (x = " << x.get(k) << ", channel " << c << ")";
            return;
        }
    }
}

// GroupNorm: 32 groups of C/32 channels per sample; a non-finite x anywhere in a group makes the
// whole group NaN (its mean is non-finite, x - mean is NaN or Inf, its variance NaN); every other
// group stays finite.
void groupnorm_groups(const Inputs &in, const Array &out) {
    const Array &x = in.at("x");
    if (x.size() == 0) return;
    const int64_t N = x.shape()[0], group = x.shape()[1] / 32 * x.shape()[2];   // contiguous elements per group
    for (int64_t g = 0; g < N * 32; ++g) {
        bool finite = true;
        for (int64_t k = g * group; k < (g + 1) * group; ++k) finite = finite && std::isfinite(x.get(k));
        for (int64_t k = g * group; k < (g + 1) * group; ++k) {
            if (finite ? !std::isfinite(out.get(k)) : !std::isnan(out.get(k))) {
                ADD_FAILURE() << "groupnorm out[" << k << "] = " << out.get(k) << " in group " << g
                              << (finite ? " (a finite group)" : " (a group with a non-finite x)");
                return;
            }
        }
    }
}

Shapes channel_shapes(const std::string &family, int64_t N, int64_t C, int64_t S) {
    if (family == "groupnorm") return {{"x", {N, C, S}}, {"weight", {C}}, {"bias", {C}}};
    return {{"x", {N, C, S}}, {"weight", {C}}, {"bias", {C}}, {"mean", {C}}, {"var", {C}}};
}

std::vector<Case> channel_norm_cases(const std::string &family) {
    auto check = family == "batchnorm" ? std::function<void(const Inputs &, const Array &)>(batchnorm_elements)
                                       : std::function<void(const Inputs &, const Array &)>(groupnorm_groups);
    const int64_t C = family == "batchnorm" ? 5 : 64;
    std::vector<Case> cases = {
        {"nan_inf_in_x", channel_shapes(family, 2, C, 7),
         [C](Inputs &in) {
             in.at("x").set((0 * C + 1) * 7 + 2, kNaN);
             in.at("x").set((1 * C + 4) * 7 + 6, kInf);
             in.at("x").set((1 * C + C - 1) * 7 + 0, -kInf);
         },
         check},
        {"denormal_x", channel_shapes(family, 2, C, 7),
         [](Inputs &in) {
             fill_denormals(in.at("x"), 9);
             for (int64_t c = 0; c < in.at("weight").size(); ++c) in.at("bias").set(c, 0.0);
         },
         check, 1e-42, 2e-3},
        {"zero_batch", channel_shapes(family, 0, C, 7), nullptr, check},
        {"zero_spatial", channel_shapes(family, 2, C, 0), nullptr, check},
        {"zero_channels", channel_shapes(family, 2, 0, 7), nullptr, check},
        {"single_element", channel_shapes(family, 1, family == "batchnorm" ? 1 : 32, 1), nullptr, check},
    };
    if (family == "batchnorm") {
        cases.push_back({"nan_in_channel_mean", channel_shapes(family, 2, C, 7),
                         [](Inputs &in) { in.at("mean").set(3, kNaN); }, check});
        // BatchNorm's denormal outputs: (x - mean) * scale with mean 0, weight 1, var 1 - eps.
        cases[1].prepare = [](Inputs &in) {
            fill_denormals(in.at("x"), 9);
            for (int64_t c = 0; c < in.at("mean").size(); ++c) {
                in.at("mean").set(c, 0.0);
                in.at("bias").set(c, 0.0);
                in.at("weight").set(c, 1.0);
            }
        };
    }
    return cases;
}

// --- conv1d/2d/3d: x [N, C, L..], weight [K, C, 3..], bias [K], stride 1, pad 1

// An output is non-finite exactly when its 3^n window (over every input channel of its sample)
// holds a non-finite x; weights are finite and nonzero.
void conv_windows(const Inputs &in, const Array &out) {
    const Array &x = in.at("x");
    const auto &xs = x.shape(), &os = out.shape();
    const int rank = int(xs.size()) - 2;
    std::vector<std::vector<int64_t>> poisoned;   // (n, l1..) of non-finite x
    std::vector<int64_t> idx(xs.size());
    for (int64_t k = 0; k < x.size(); ++k) {
        int64_t rem = k;
        for (int a = int(xs.size()) - 1; a >= 0; --a) idx[a] = rem % xs[a], rem /= xs[a];
        if (!std::isfinite(x.get(k))) {
            std::vector<int64_t> p = {idx[0]};
            for (int a = 0; a < rank; ++a) p.push_back(idx[2 + a]);
            poisoned.push_back(p);
        }
    }
    std::vector<int64_t> o(os.size());
    for (int64_t k = 0; k < out.size(); ++k) {
        int64_t rem = k;
        for (int a = int(os.size()) - 1; a >= 0; --a) o[a] = rem % os[a], rem /= os[a];
        bool hit = false;
        for (const auto &p : poisoned) {
            bool in_window = p[0] == o[0];
            for (int a = 0; a < rank; ++a) in_window = in_window && std::abs(p[1 + a] - o[2 + a]) <= 1;
            hit = hit || in_window;
        }
        if (bool(std::isfinite(out.get(k))) == hit) {
            ADD_FAILURE() << "conv out[" << k << "] = " << out.get(k)
                          << (hit ? " is finite, its window holds a non-finite x" : " is not finite, its window is finite");
            return;
        }
    }
}

// No input channels: every output is its channel's bias.
void conv_bias_only(const Inputs &in, const Array &out) {
    const Array &b = in.at("bias");
    const int64_t K = b.size(), inner = K ? out.size() / (out.shape()[0] * K) : 0;
    for (int64_t k = 0; k < out.size(); ++k) {
        if (out.get(k) != b.get((k / inner) % K)) {
            ADD_FAILURE() << "conv with C = 0: out[" << k << "] = " << out.get(k) << ", bias " << b.get((k / inner) % K);
            return;
        }
    }
}

Shapes conv_shapes(int rank, int64_t N, int64_t C, int64_t K, int64_t L) {
    std::vector<int64_t> xs = {N, C}, ws = {K, C};
    for (int a = 0; a < rank; ++a) {
        xs.push_back(L + a);   // spatial extents L, L+1, L+2: distinct, so no axis is mixed up
        ws.push_back(3);
    }
    if (L == 0) xs.back() = 0;
    if (L == 1) std::fill(xs.begin() + 2, xs.end(), 1);
    return {{"x", xs}, {"weight", ws}, {"bias", {K}}};
}

std::vector<Case> conv_cases(int rank) {
    const int64_t L = rank == 3 ? 4 : 6;
    auto poison = [](Inputs &in) {
        Array &x = in.at("x");
        x.set(x.size() / 3, kNaN);            // sample 0
        x.set(x.size() - 1, kInf);            // the last element: a corner of the last sample
        x.set(x.size() / 2 + 1, -kInf);       // sample 1
    };
    return {
        {"nan_inf_in_x", conv_shapes(rank, 2, 3, 5, L), poison, conv_windows, 1e-4, 1e-4},
        {"denormal_x", conv_shapes(rank, 2, 3, 5, L),
         [](Inputs &in) {
             fill_denormals(in.at("x"), 13);
             for (int64_t k = 0; k < in.at("bias").size(); ++k) in.at("bias").set(k, 0.0);
         },
         conv_windows, 1e-42, 2e-3},
        {"zero_batch", conv_shapes(rank, 0, 3, 5, L), nullptr, conv_windows},
        {"zero_spatial", conv_shapes(rank, 2, 3, 5, 0), nullptr, conv_windows},
        {"zero_out_channels", conv_shapes(rank, 2, 3, 0, L), nullptr, conv_windows},
        {"zero_in_channels", conv_shapes(rank, 2, 0, 5, L), nullptr, conv_bias_only},
        {"single_spatial_point", conv_shapes(rank, 1, 1, 1, 1), nullptr, conv_windows, 1e-5, 1e-5},
        {"single_point_many_channels", conv_shapes(rank, 1, 7, 9, 1), nullptr, conv_windows, 1e-4, 1e-4},
        // Fewer output channels than a register tile holds, with output rows past a tile's
        // width: the channel tail must be guarded whatever the spatial extents are.
        {"few_out_channels_many_rows", conv_shapes(rank, 1, 3, 5, 33), nullptr, conv_windows, 1e-4, 1e-4},
    };
}

// --- matmul families: x [M, K], weight [N, K] or packed [N/32, K, 32] (, bias [N]) -> out [M, N];
// the packing families: weight [N, K] -> [N/32, K, 32]

bool packed_family(const std::string &family) { return family.rfind("matmul_packed", 0) == 0; }
bool packing_family(const std::string &family) { return family.rfind("matmul_pack", 0) == 0 && !packed_family(family); }

Shapes matmul_shapes(const std::string &family, int64_t M, int64_t K, int64_t N) {
    if (packing_family(family)) return {{"weight", {N, K}}};
    Shapes s = {{"x", {M, K}}};
    if (packed_family(family)) s["packed"] = {N / 32, K, 32};
    else s["weight"] = {N, K};
    if (family == "linear") s["bias"] = {N};
    return s;
}

// W[n, k] of a multiplying family's inputs, whatever their layout.
double weight_at(const Inputs &in, int64_t n, int64_t k) {
    if (in.count("packed")) {
        const Array &p = in.at("packed");
        const int64_t K = p.shape()[1];
        return p.get(((n / 32) * K + k) * 32 + n % 32);
    }
    const Array &w = in.at("weight");
    return w.get(n * w.shape()[1] + k);
}

// Row 1 of x holds a NaN and row 3 one +Inf: row 1 of the output is NaN everywhere, row 3 is
// +-Inf with the sign of the weight the Inf meets, and every other row is finite.
void matmul_nan_inf_rows(const Inputs &in, const Array &out) {
    const int64_t M = out.shape()[0], N = out.shape()[1];
    int64_t bad = 0;
    for (int64_t m = 0; m < M; ++m) {
        for (int64_t n = 0; n < N; ++n) {
            const double v = out.get(m * N + n);
            const bool ok = m == 1 ? std::isnan(v) : m == 3 ? v == (weight_at(in, n, 0) > 0 ? kInf : -kInf) : std::isfinite(v);
            if (!ok && bad++ < 3) ADD_FAILURE() << "out[" << m << ", " << n << "] = " << v;
        }
    }
}

// K = 0: every output is the bias (or 0).
void matmul_bias_only(const Inputs &in, const Array &out) {
    const int64_t N = out.shape()[1];
    for (int64_t k = 0; k < out.size(); ++k) {
        const double want = in.count("bias") ? in.at("bias").get(k % N) : 0.0;
        if (out.get(k) != want) {
            ADD_FAILURE() << "out[" << k << "] = " << out.get(k) << ", want " << want;
            return;
        }
    }
}

// The packing moves every value as it is: NaN, Inf, denormals included.
void packed_in_panels(const Inputs &in, const Array &out) {
    const Array &w = in.at("weight");
    const int64_t N = w.shape()[0], K = w.shape()[1];
    int64_t bad = 0;
    for (int64_t n = 0; n < N; ++n) {
        for (int64_t k = 0; k < K; ++k) {
            const double want = w.get(n * K + k), got = out.get(((n / 32) * K + k) * 32 + n % 32);
            if (!same_value(want, got) && bad++ < 3) ADD_FAILURE() << "W[" << n << ", " << k << "] = " << want << " packed as " << got;
        }
    }
}

std::vector<Case> matmul_cases(const std::string &family) {
    const int64_t N = packed_family(family) || packing_family(family) ? 64 : 13;
    if (packing_family(family)) {
        return {
            {"nan_inf_denormal_weights", matmul_shapes(family, 0, 37, N),
             [](Inputs &in) {
                 Array &w = in.at("weight");
                 w.set(3, kNaN);
                 w.set(40, kInf);
                 w.set(41, -kInf);
                 std::mt19937 rng(3);
                 for (int64_t k = 100; k < 140; ++k) w.set(k, denormal(rng));
             },
             packed_in_panels, 0, 0},
            {"zero_panels", matmul_shapes(family, 0, 5, 0), nullptr, packed_in_panels},
            {"zero_depth", matmul_shapes(family, 0, 0, N), nullptr, packed_in_panels},
            {"one_panel_one_k", matmul_shapes(family, 0, 1, 32), nullptr, packed_in_panels, 0, 0},
        };
    }
    return {
        {"nan_inf_rows", matmul_shapes(family, 5, 37, N),
         [](Inputs &in) {
             Array &x = in.at("x");
             x.set(1 * 37 + 3, kNaN);
             x.set(3 * 37 + 0, kInf);
         },
         matmul_nan_inf_rows, 1e-4, 1e-5},
        {"denormal_x", matmul_shapes(family, 4, 21, N), [](Inputs &in) { fill_denormals(in.at("x"), 9); }, nullptr,
         1e-36, 1e-5},
        {"zero_tokens", matmul_shapes(family, 0, 7, N), nullptr, nullptr},
        {"zero_depth", matmul_shapes(family, 3, 0, N), nullptr, matmul_bias_only, 0, 0},
        {"zero_outputs", matmul_shapes(family, 3, 7, 0), nullptr, nullptr},
        {"single_element", matmul_shapes(family, 1, 1, packed_family(family) ? 32 : 1), nullptr, nullptr, 1e-6, 1e-6},
    };
}

std::vector<Case> cases_of(const std::string &family) {
    if (family == "embedding") return embedding_cases();
    if (family == "layernorm" || family == "rmsnorm") return row_norm_cases(family);
    if (family == "batchnorm" || family == "groupnorm") return channel_norm_cases(family);
    if (family == "matmul" || family == "linear" || family.rfind("matmul_", 0) == 0) return matmul_cases(family);
    if (family == "attention") return attention_cases();
    return conv_cases(family[4] - '0');
}

Inputs make_inputs(const Family &f, const Case &c, uint32_t seed) {
    Inputs in = testing::random_inputs_shaped(f.graph(), c.shapes, seed);
    if (in.count("var")) {   // a variance must be positive
        Array &var = in.at("var");
        for (int64_t k = 0; k < var.size(); ++k) var.set(k, std::abs(var.get(k)) + 0.5);
    }
    if (f.name == "embedding") set_ids(in.at("ids"), {0});
    if (c.prepare) c.prepare(in);
    return in;
}

// ---------------------------------------------------------------------------------------------
// Running a variant

struct Runner {
    std::string family, variant;
    bool aot = false;
    bool autoscheduled = false;
    bool clamped = false;   // reads its inputs clamped (Recipe::clamp_inputs)
    std::string label() const { return family + " " + variant + (aot ? " (AOT)" : " (JIT)"); }
};

std::vector<Runner> runners() {
    std::vector<Runner> out;
    for (const std::string &f : family_names()) {
        for (const Variant &v : variants_of(f)) {
            const bool as = !v.recipe.autoscheduler.empty();
            const bool clamped = v.recipe.clamp_inputs;
            if (!as) out.push_back({f, v.name, false, false, clamped});
            if (find_aot_kernel(f, v.name)) out.push_back({f, v.name, true, as, clamped});
        }
    }
    return out;
}

// Caller memory for an output: the elements pre-filled with the sentinel, then a canary.
class GuardedOutput {
public:
    GuardedOutput(const std::vector<int64_t> &shape, DType t = DType::Float32)
        : shape_(shape), n_(count(shape)), storage_(t, {int64_t(n_ + kCanary)}) {
        for (int64_t k = 0; k < storage_.size(); ++k) storage_.set(k, kSentinel);
        sentinel_ = storage_.get(0);   // as the element type holds it
    }
    BufferRef ref() { return {storage_.data<uint8_t>(), storage_.dtype(), shape_}; }
    bool canary_intact() const {
        for (int64_t k = int64_t(n_); k < storage_.size(); ++k) {
            if (storage_.get(k) != sentinel_) return false;
        }
        return true;
    }
    Array array() const {
        Array a(storage_.dtype(), shape_);
        if (n_) std::memcpy(a.data<uint8_t>(), storage_.data<uint8_t>(), n_ * dtype_size(storage_.dtype()));
        return a;
    }

private:
    static constexpr std::size_t kCanary = 64;
    std::vector<int64_t> shape_;
    std::size_t n_;
    Array storage_;
    double sentinel_ = 0;
};

FamilyKernel &jit_kernel(const std::string &family, const std::string &variant) {
    static std::map<std::string, std::unique_ptr<FamilyKernel>> cache;
    auto &k = cache[family + "/" + variant];
    if (!k) k = std::make_unique<FamilyKernel>(FamilyKernel::jit(family, variant));
    return *k;
}

// Runs `r` on `refs`; returns false (after checking the error is Halide's typed rejection by an
// autoscheduled kernel, or by a clamped one of an empty input) when the kernel rejected the call.
bool run_refs(const Runner &r, const std::string &what, const BufferRefs &refs, Array &out) {
    const Family &f = find_family(r.family);
    Shapes shapes;
    for (const auto &[name, ref] : refs) shapes[name] = ref.shape;
    GuardedOutput buf(f.contract.output_shapes(shapes).at(0), f.graph().outputs().at(0).dtype());
    try {
        if (r.aot) {
            FamilyKernel::aot(r.family, r.variant).run(refs, buf.ref());
        } else {
            jit_kernel(r.family, r.variant).run(refs, buf.ref());
        }
    } catch (const Error &e) {
        const std::string msg = e.what();
        bool empty_input = false;
        for (const auto &[name, ref] : refs) empty_input |= count(ref.shape) == 0;
        EXPECT_TRUE(r.autoscheduled || (r.clamped && empty_input))
            << r.label() << " " << what << ": a hand-scheduled variant rejected it: " << msg;
        EXPECT_NE(msg.find("kernel failed"), std::string::npos) << r.label() << " " << what << ": " << msg;
        std::cout << "REJECTED " << r.label() << " " << what << ": " << msg.substr(0, 200) << "\n";
        EXPECT_TRUE(buf.canary_intact()) << r.label() << " " << what << ": wrote past its output";
        return false;
    }
    EXPECT_TRUE(buf.canary_intact()) << r.label() << " " << what << ": wrote past the end of its output";
    out = buf.array();
    return true;
}

bool run(const Runner &r, const std::string &what, const Inputs &in, Array &out) {
    BufferRefs refs;
    for (const auto &[name, a] : in) refs.emplace(name, const_cast<Array &>(a).ref());
    return run_refs(r, what, refs, out);
}

void PrintTo(const Runner &r, std::ostream *os) { *os << r.label(); }

class EdgeCases : public ::testing::TestWithParam<Runner> {};

TEST_P(EdgeCases, MatchInterpreterAndStatedSemantics) {
    const Runner &r = GetParam();
    const Family &f = find_family(r.family);
    int ran = 0, rejected = 0;
    uint32_t seed = 100;
    for (const Case &c : cases_of(r.family)) {
        SCOPED_TRACE(r.label() + " " + c.name);
        Inputs in = make_inputs(f, c, seed++);
        BufferRefs refs;
        for (auto &[name, a] : in) refs.emplace(name, a.ref());
        const Array want = interpret_call(f, refs);
        Array got;
        if (!run(r, c.name, in, got)) {
            ++rejected;
            continue;
        }
        ++ran;
        EXPECT_TRUE(arrays_near(want, got, c.atol, c.rtol)) << "against the interpreter";
        if (c.semantics) c.semantics(in, got);
    }
    std::cout << r.label() << ": " << ran << " cases ran, " << rejected << " rejected\n";
    if (!r.autoscheduled && !r.clamped) {
        EXPECT_EQ(rejected, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, EdgeCases, ::testing::ValuesIn(runners()), [](const auto &info) {
    return info.param.family + "_" + info.param.variant + (info.param.aot ? "_aot" : "_jit");
});

TEST(EdgeCaseRegistry, EveryFamilyHasHandAndAotRunners) {
    for (const std::string &f : family_names()) {
        int jit = 0, aot = 0;
        for (const Runner &r : runners()) {
            if (r.family == f) ++(r.aot ? aot : jit);
        }
        EXPECT_GE(jit, 2) << f;
        EXPECT_EQ(aot, int(variants_of(f).size())) << f;   // every registered variant's AOT kernel
    }
}

// ---------------------------------------------------------------------------------------------
// Buffers at the edge: null pointers, empty buffers, empty outputs whose inputs do not fit.

// Halide reads a null host pointer as a bounds query and returns success without computing, so a
// non-empty buffer without memory must be refused before the kernel is called, never "run".
TEST(EdgeCaseBuffers, NullPointerOfANonEmptyBufferIsATypedError) {
    Array x(DType::Float32, {2, 3}), w(DType::Float32, {3});
    BufferRef null_x{nullptr, DType::Float32, {2, 3}}, null_out{nullptr, DType::Float32, {2, 3}};
    Array out(DType::Float32, {2, 3});
    FamilyKernel &k = jit_kernel("rmsnorm", "fused");
    testing::expect_error<BufferError>([&] { k.run({{"x", null_x}, {"weight", w.ref()}}, out.ref()); }, {"x", "null"});
    testing::expect_error<BufferError>([&] { k.run({{"x", x.ref()}, {"weight", w.ref()}}, null_out); }, {"output", "null"});
    const FamilyKernel a = FamilyKernel::aot("rmsnorm", "fused");
    testing::expect_error<BufferError>([&] { a.run({{"x", null_x}, {"weight", w.ref()}}, out.ref()); }, {"x", "null"});
    testing::expect_error<BufferError>([&] { a.run({{"x", x.ref()}, {"weight", w.ref()}}, null_out); }, {"output", "null"});
}

// An empty output is returned without calling Halide, but its inputs must still fit the family.
TEST(EdgeCaseBuffers, EmptyOutputStillChecksTheInputs) {
    Array x(DType::Float32, {0, 4}), w(DType::Float32, {5}), b(DType::Float32, {4}), out(DType::Float32, {0, 4});
    for (const Variant &v : variants_of("layernorm")) {
        SCOPED_TRACE(v.name);
        {
            const FamilyKernel a = FamilyKernel::aot("layernorm", v.name);
            testing::expect_error<BufferError>([&] { a.run({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, out.ref()); },
                                               {"weight", "[5]"});
            Array w4(DType::Float32, {4}), out5(DType::Float32, {0, 5});
            testing::expect_error<BufferError>([&] { a.run({{"x", x.ref()}, {"weight", w4.ref()}, {"bias", b.ref()}}, out5.ref()); },
                                               {"output", "[0, 5]"});
            a.run({{"x", x.ref()}, {"weight", w4.ref()}, {"bias", b.ref()}}, out.ref());   // fits: nothing to do
        }
        if (v.recipe.autoscheduler.empty()) {
            testing::expect_error<BufferError>(
                [&] { jit_kernel("layernorm", v.name).run({{"x", x.ref()}, {"weight", w.ref()}, {"bias", b.ref()}}, out.ref()); },
                {"weight", "[5]"});
        }
    }
}

// A graph's empty input (null data, as an empty Array has) is a valid input: a sum over an empty
// axis is 0, never refused as a "null data pointer".
TEST(EdgeCaseBuffers, ProgramSumsAnEmptyAxisToZero) {
    const Dim N = Dim::sym("N"), K = Dim::sym("K");
    Tensor y = sum(input("x", DType::Float32, {N, K}), {1});
    Program p(Graph({y}), "simd");
    Array x(DType::Float32, {3, 0});
    GuardedOutput out({3});
    p.run({{"x", x.ref()}}, {out.ref()}, {{"N", 3}, {"K", 0}});
    EXPECT_TRUE(arrays_near(interpret(y, {{"x", x}}, {{"N", 3}, {"K", 0}}), out.array()));
    EXPECT_TRUE(out.canary_intact());
}

// Memory that faults on any access: one PROT_NONE page.
class FaultingPage {
public:
    FaultingPage() : p_(mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) {}
    ~FaultingPage() { munmap(p_, 4096); }
    void *get() const { return p_; }

private:
    void *p_;
};

// An empty input has no element, so its memory must never be read, even by a masked read whose
// value is dropped: handed a page that faults on any access, every variant still computes the
// zero rows of an empty table and the bias of a conv without input channels.
TEST(EdgeCaseBuffers, EmptyInputMemoryIsNeverRead) {
    FaultingPage page;
    ASSERT_NE(page.get(), MAP_FAILED);
    int checked = 0;
    for (const Runner &r : runners()) {
        if (r.family != "embedding" && r.family.rfind("conv", 0) != 0) continue;
        if (r.family != "embedding" && !r.aot) continue;   // JIT-compiling tiled conv takes 5-20 s; its AOT twin runs
        SCOPED_TRACE(r.label());
        const Family &f = find_family(r.family);
        Case c = r.family == "embedding" ? Case{"", {{"ids", {3}}, {"weight", {0, 1 << 16}}}, nullptr, nullptr}
                                         : conv_cases(r.family[4] - '0')[0];
        c.prepare = nullptr;
        if (r.family != "embedding") c.shapes.at("x")[1] = c.shapes.at("weight")[1] = 0;   // C = 0
        Inputs in = make_inputs(f, c, 3);
        if (r.family == "embedding") set_ids(in.at("ids"), {0, -1, 5});
        BufferRefs refs;
        for (auto &[name, a] : in) refs.emplace(name, a.ref());
        const std::string empty = r.family == "embedding" ? "weight" : "x";
        refs.at(empty).data = page.get();
        Array got;
        if (!run_refs(r, "empty input on a faulting page", refs, got)) continue;
        EXPECT_TRUE(arrays_near(interpret_call(f, refs), got));
        ++checked;
    }
    EXPECT_GE(checked, 4 + 4 + 3 * 2);   // the hand variants: embedding JIT and AOT, conv AOT
}

// ---------------------------------------------------------------------------------------------
// An embedding table above 2 GiB: V * D * 4 bytes = 2^31 + 2 rows. The one token selects the last
// row, whose byte offset does not fit in 31 bits; the row before it is NaN and row 1 is +Inf, both
// unselected; every variant must return exactly the selected row. The interpreter would
// materialize [T, V, D] one-hot tensors, so the expected row is read off the table. D = 16 keeps
// the O(T*V*D) variants at a few seconds: onehot streams the table once per column (16 passes),
// onehot_permuted does one 16-wide vector per row (at D = 1 it took 7 s per token).

TEST(EdgeCasesLargeTable, EmbeddingAbove2GiBEveryVariant) {
    const int64_t D = 16, V = (int64_t(1) << 29) / D + 2;
    ASSERT_GT(V * D * 4, int64_t(1) << 31);
    Inputs in;
    in.emplace("weight", Array(DType::Float32, {V, D}));
    Array &w = in.at("weight");
    float *wd = w.data<float>();
    for (int64_t k = 0; k < V * D; ++k) wd[k] = float(k % 8191) * 0.25f + 1.0f;   // exact, nonzero
    set_row(w, V - 2, kNaN);      // both past 2 GiB, never selected
    set_row(w, 1, kInf);
    const std::vector<int32_t> ids_v = {int32_t(V - 1)};   // T = 1: the one-hot variants read all of V
    in.emplace("ids", Array(DType::Int32, {int64_t(ids_v.size())}));
    set_ids(in.at("ids"), ids_v);
    int ran = 0;
    for (const Runner &r : runners()) {
        // Left out: adams2019 took 88 s on this table at T = 1, and li2018 5 s with 4 GiB of its
        // own allocations beside the table (6.4 GiB peak); mullapudi2016 takes 0.2 s.
        if (r.family != "embedding" || r.variant == "adams2019" || r.variant == "li2018") continue;
        SCOPED_TRACE(r.label());
        const auto t0 = std::chrono::steady_clock::now();
        Array got;
        if (!run(r, "table_above_2GiB", in, got)) continue;
        ++ran;
        embedding_rows(in, got);
        std::cout << r.label() << " table above 2 GiB: "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
    }
    EXPECT_GE(ran, 4 + 4);   // every hand variant, JIT and AOT
}

}  // namespace
}  // namespace halogen
