// The oneDNN peer. ops() builds every primitive, memory object and reorder of a case; a timed call
// is one execute() on the shared stream and a wait. The caller's buffers are wrapped as
// dnnl::memory without copies. The own-layout conv keeps weights, src and dst in memory oneDNN
// allocates in the layouts it chose; its weights and src are reordered once at setup, as a
// framework packs weights at load time, and the activation reorders are timed as ops of their own.
// oneDNN 2.6 (OpenMP runtime) runs on omp_get_max_threads() threads of the calling thread.
#include "perf/peers/onednn_peer.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <oneapi/dnnl/dnnl.hpp>

#include "frontend/bfloat16.h"
#include "frontend/errors.h"
#include "frontend/nn/batch_norm.h"
#include "frontend/nn/conv.h"
#include "frontend/nn/layer_norm.h"
#include "frontend/nn/linear.h"

namespace halogen::perf {

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using Flags = dnnl::normalization_flags;

// One CPU engine and one stream, shared by every op of every case.
struct Device {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
};

Device &device() {
    static Device d;
    return d;
}

// A primitive with its arguments bound: what one timed call executes.
struct Call {
    dnnl::primitive prim;
    std::unordered_map<int, memory> args;

    void operator()() const {
        prim.execute(device().stream, args);
        device().stream.wait();
    }
};

// The dense row-major layout of a rank-n tensor: a, ab, abc, abcd, abcde.
Tag plain(std::size_t rank) {
    static const Tag tags[] = {Tag::a, Tag::ab, Tag::abc, Tag::abcd, Tag::abcde};
    if (rank < 1 || rank > 5) throw ShapeError(fmt::format("onednn: a tensor of rank {} (1 to 5 supported)", rank));
    return tags[rank - 1];
}

memory::desc f32(const std::vector<int64_t> &shape, Tag tag) { return {shape, memory::data_type::f32, tag}; }

// A caller's buffer as oneDNN memory, viewed with `shape` (its own by default), without a copy.
memory wrap(const BufferRef &b, std::vector<int64_t> shape = {}) {
    if (shape.empty()) shape = b.shape;
    return memory(f32(shape, plain(shape.size())), device().engine, b.data);
}

double bytes_of(const memory &m) { return double(m.get_desc().get_size()); }

const BufferRef &input(const PeerCase &c, const char *name) {
    auto it = c.inputs.find(name);
    if (it == c.inputs.end()) throw BufferError(fmt::format("onednn {}: no input '{}'", c.family, name));
    if (it->second.dtype != DType::Float32) {
        throw DTypeError(fmt::format("onednn {}: input '{}' is {}, not float32", c.family, name, dtype_name(it->second.dtype)));
    }
    return it->second;
}

// "x [2, 3, 9], weight [4, 3, 3], ... -> out [2, 4, 9]": the shapes an error message names.
std::string shapes(const PeerCase &c) {
    std::string s;
    for (const auto &[name, b] : c.inputs) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, dims_str(b.shape));
    return fmt::format("{} -> out {}", s, dims_str(c.output.shape));
}

// A timed op running `call`; a dnnl::error it raises becomes a halogen::Error naming op and shapes.
PeerOp timed(const std::string &name, const std::string &where, Call call, bool writes_output, double bytes = 0) {
    auto c = std::make_shared<Call>(std::move(call));
    PeerOp op;
    op.name = name;
    op.writes_output = writes_output;
    op.bytes = bytes;
    op.run = [c, what = fmt::format("onednn {}: {}", name, where)] {
        try {
            (*c)();
        } catch (const dnnl::error &e) {
            throw Error(fmt::format("{}: {}", what, e.what()));
        }
    };
    return op;
}

// conv (of any rank): stride 1, pad 1, with bias; forward inference.
std::vector<PeerOp> conv_ops(const PeerCase &c, const std::string &where) {
    const BufferRef &x = input(c, "x"), &w = input(c, "weight"), &b = input(c, "bias");
    const memory::dims ones(x.shape.size() - 2, 1);   // strides and paddings, every spatial axis
    const auto &eng = device().engine;
    auto make = [&](Tag act, Tag weights) {
        dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                          f32(x.shape, act), f32(w.shape, weights), f32(b.shape, Tag::a),
                                          f32(c.output.shape, act), ones, ones, ones);
        return dnnl::convolution_forward::primitive_desc(d, eng);
    };
    memory xm = wrap(x), wm = wrap(w), bm = wrap(b), ym = wrap(c.output);

    // On the caller's buffers, in their plain layouts.
    const auto direct = make(plain(x.shape.size()), plain(w.shape.size()));
    Call nchw{dnnl::convolution_forward(direct),
              {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, ym}}};

    // In the layouts oneDNN picks. Weights and src are reordered once here; dst is touched.
    const auto own = make(Tag::any, Tag::any);
    memory xo(own.src_desc(), eng), wo(own.weights_desc(), eng), yo(own.dst_desc(), eng);
    dnnl::reorder(wm, wo).execute(device().stream, wm, wo);
    Call src_in{dnnl::reorder(xm, xo), {{DNNL_ARG_FROM, xm}, {DNNL_ARG_TO, xo}}};
    src_in();
    std::memset(yo.get_data_handle(), 0, yo.get_desc().get_size());
    Call conv{dnnl::convolution_forward(own),
              {{DNNL_ARG_SRC, xo}, {DNNL_ARG_WEIGHTS, wo}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, yo}}};
    Call dst_out{dnnl::reorder(yo, ym), {{DNNL_ARG_FROM, yo}, {DNNL_ARG_TO, ym}}};

    return {timed("conv (nchw)", where, std::move(nchw), true),
            timed("reorder src to own layout", where, std::move(src_in), false, bytes_of(xm) + bytes_of(xo)),
            timed("conv (own layout)", where, std::move(conv), false),
            timed("reorder dst from own layout", where, std::move(dst_out), true, bytes_of(yo) + bytes_of(ym))};
}

// The check's bound for a product that rounds x to bfloat16: each term x*w moves by at most
// 2^-9 |x| |w|, and K independent such errors sum to about sqrt(K) of them; eight times that, on
// the largest |x| and |w|. At K = 2048 and inputs in [-1, 1] that is 0.71, where a wrong element
// order or a missed block of K moves an output by its own size, about sqrt(K) / 3 = 15.
double rounded_x_tolerance(const BufferRef &x, const BufferRef &w) {
    const int64_t K = x.shape.at(1);
    float x_max = 0, w_max = 0;
    const auto *xs = static_cast<const float *>(x.data);
    for (int64_t k = 0; k < x.shape.at(0) * K; ++k) x_max = std::max(x_max, std::fabs(xs[k]));
    const auto *ws = static_cast<const uint16_t *>(w.data);
    for (int64_t k = 0; k < w.shape.at(0) * K; ++k) w_max = std::max(w_max, std::fabs(bfloat16_bits_to_float(ws[k])));
    return 8.0 * std::sqrt(double(K)) * std::ldexp(1.0, -9) * double(x_max) * double(w_max);
}

// linear: y[M, N] = x[M, K] . W[N, K]^T (+ bias). The weights are reordered once, at setup,
// into the layout oneDNN picks (as a framework packs weights at load time); x and y stay the
// caller's. A bfloat16 weight multiplies a bfloat16 x: the op converts x each call (oneDNN 2.6 has
// no float32 x bfloat16 product, and no bfloat16 product at all on a CPU without AVX-512).
std::vector<PeerOp> matmul_ops(const PeerCase &c, const std::string &where) {
    const BufferRef &x = input(c, "x"), &w = unpacked_weight(c);
    const int64_t M = x.shape.at(0), K = x.shape.at(1), N = w.shape.at(0);
    const bool bf16 = w.dtype == DType::BFloat16;
    const auto wt = bf16 ? memory::data_type::bf16 : memory::data_type::f32;
    const auto &eng = device().engine;
    const memory::desc src_any({M, K}, wt, Tag::ab), wei_any({K, N}, wt, Tag::any), dst({M, N}, memory::data_type::f32, Tag::ab);
    const bool with_bias = c.inputs.count("bias") > 0;
    const memory::desc bias_md = with_bias ? memory::desc({1, N}, memory::data_type::f32, Tag::ab) : memory::desc();
    dnnl::matmul::primitive_desc pd;
    try {
        pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(src_any, wei_any, bias_md, dst), eng);
    } catch (const dnnl::error &e) {
        // oneDNN 2.6 multiplies bfloat16 only on AVX-512 CPUs: elsewhere the peer has no such op.
        if (bf16 && e.status == dnnl_unimplemented) return {};
        throw;
    }
    memory wm(memory::desc({K, N}, wt, Tag::ba), eng, w.data), wo(pd.weights_desc(), eng);
    dnnl::reorder(wm, wo).execute(device().stream, wm, wo);
    device().stream.wait();
    memory xm = wrap(x), ym = wrap(c.output);
    std::unordered_map<int, memory> args = {{DNNL_ARG_WEIGHTS, wo}, {DNNL_ARG_DST, ym}};
    if (with_bias) args[DNNL_ARG_BIAS] = memory(bias_md, eng, c.inputs.at("bias").data);
    if (!bf16) {
        args[DNNL_ARG_SRC] = xm;
        return {timed("matmul (weights reordered at setup)", where, Call{dnnl::matmul(pd), args}, true)};
    }
    memory xb(pd.src_desc(), eng);
    args[DNNL_ARG_SRC] = xb;
    auto to_bf16 = std::make_shared<Call>(Call{dnnl::reorder(xm, xb), {{DNNL_ARG_FROM, xm}, {DNNL_ARG_TO, xb}}});
    auto product = std::make_shared<Call>(Call{dnnl::matmul(pd), args});
    PeerOp op;
    op.name = "matmul (bfloat16 weights and x)";
    op.writes_output = true;
    op.tolerance = rounded_x_tolerance(x, w);
    op.run = [to_bf16, product, what = fmt::format("onednn matmul: {}", where)] {
        try {
            (*to_bf16)();
            (*product)();
        } catch (const dnnl::error &e) {
            throw Error(fmt::format("{}: {}", what, e.what()));
        }
    };
    return {op};
}

// layernorm: x [R, D] normalized over D, with scale and shift; statistics computed per call.
std::vector<PeerOp> layernorm_ops(const PeerCase &c, const std::string &where) {
    const BufferRef &x = input(c, "x"), &w = input(c, "weight"), &b = input(c, "bias");
    dnnl::layer_normalization_forward::desc d(dnnl::prop_kind::forward_inference, f32(x.shape, plain(x.shape.size())),
                                              1e-5f, Flags::use_scale | Flags::use_shift);
    dnnl::layer_normalization_forward::primitive_desc pd(d, device().engine);
    Call call{dnnl::layer_normalization_forward(pd),
              {{DNNL_ARG_SRC, wrap(x)}, {DNNL_ARG_SCALE, wrap(w)}, {DNNL_ARG_SHIFT, wrap(b)}, {DNNL_ARG_DST, wrap(c.output)}}};
    return {timed("layer_normalization", where, std::move(call), true)};
}

// batchnorm: x [N, C, S] seen as NCHW with H = S, W = 1; the given mean and variance.
std::vector<PeerOp> batchnorm_ops(const PeerCase &c, const std::string &where) {
    const BufferRef &x = input(c, "x");
    if (x.shape.size() != 3) throw ShapeError(fmt::format("onednn batchnorm: x must be [N, C, S], got {}", dims_str(x.shape)));
    const std::vector<int64_t> nchw = {x.shape[0], x.shape[1], x.shape[2], 1};
    dnnl::batch_normalization_forward::desc d(dnnl::prop_kind::forward_inference, f32(nchw, Tag::nchw), 1e-5f,
                                              Flags::use_global_stats | Flags::use_scale | Flags::use_shift);
    dnnl::batch_normalization_forward::primitive_desc pd(d, device().engine);
    Call call{dnnl::batch_normalization_forward(pd),
              {{DNNL_ARG_SRC, wrap(x, nchw)},
               {DNNL_ARG_MEAN, wrap(input(c, "mean"))},
               {DNNL_ARG_VARIANCE, wrap(input(c, "var"))},
               {DNNL_ARG_SCALE, wrap(input(c, "weight"))},
               {DNNL_ARG_SHIFT, wrap(input(c, "bias"))},
               {DNNL_ARG_DST, wrap(c.output, nchw)}}};
    return {timed("batch_normalization", where, std::move(call), true)};
}

std::vector<PeerOp> ops(const PeerCase &c) {
    const std::string where = shapes(c);
    try {
        if (c.op == nn::ops::kConv) return conv_ops(c, where);
        if (c.op == nn::ops::kLayerNorm) return layernorm_ops(c, where);
        if (c.op == nn::ops::kBatchNormInference) return batchnorm_ops(c, where);
        if (c.op == nn::ops::kLinear) return matmul_ops(c, where);
    } catch (const dnnl::error &e) {
        throw Error(fmt::format("onednn {}: {}: {}", c.family, where, e.what()));
    }
    return {};   // RMSNorm, GroupNorm, embedding, panel packing, attention: no oneDNN 2.6 primitive
}

}  // namespace

Peer onednn_peer() {
    return {"onednn", [](int threads) { omp_set_num_threads(threads); }, ops};
}

}  // namespace halogen::perf
