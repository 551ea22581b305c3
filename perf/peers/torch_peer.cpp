// The PyTorch C++ peer (libtorch 1.13): every family's case computed by the ATen operator a PyTorch
// user would call, on tensors that wrap the case's buffers (at::from_blob: no copies). Views and
// temporaries are made once, when the ops are; a timed call only runs operators, in InferenceMode.
//
// Where 1.13 has a real out= kernel (index_select, the element-wise and reduction ops of the
// RMSNorm composite) the result is written straight into the case's output and a call allocates no
// tensor memory. LayerNorm, GroupNorm and convolution only have generated out= wrappers, which run
// the functional operator and copy its result into `out`; batch norm's out= variant has no CPU
// kernel in 1.13, so it is the functional operator plus a copy. Those ops say "(allocates)": their
// time includes a fresh result and its copy, page faults when the result is over glibc's 32 MiB mmap
// threshold (mapped anew on every call), and for convolution (oneDNN underneath) the reorders of x,
// weights and result between the plain and the blocked layouts.
//
// Attention has no fused kernel in 1.13: the peer is the composite Hugging Face's eager llama runs,
// repeat_kv's copy of K and V for the query heads, bmm, the causal mask added, softmax, bmm, into
// preallocated tensors (a model allocates them per call).
#include "perf/peers/torch_peer.h"

#include <cmath>
#include <limits>
#include <memory>

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_softmax.h>
#include <ATen/ops/add.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/batch_norm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/convolution.h>
#include <ATen/ops/div.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/full.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/native_group_norm.h>
#include <ATen/ops/native_layer_norm.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/sum.h>
#include <c10/core/InferenceMode.h>
#include <c10/util/Exception.h>
#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/attention.h"
#include "frontend/nn/batch_norm.h"
#include "frontend/nn/conv.h"
#include "frontend/nn/embedding.h"
#include "frontend/nn/group_norm.h"
#include "frontend/nn/layer_norm.h"
#include "frontend/nn/linear.h"
#include "frontend/nn/rms_norm.h"
#include "perf/peers/blas_threads.h"

namespace halogen::perf {

namespace {


const BufferRef &buffer(const PeerCase &c, const std::string &name) {
    auto it = c.inputs.find(name);
    if (it == c.inputs.end()) throw BufferError(fmt::format("libtorch {}: input '{}' is missing", c.family, name));
    return it->second;
}

// A tensor over a caller's buffer, in the buffer's shape or in `shape`, a free view of the same
// dense memory (it must have the same element count).
at::Tensor wrap(const BufferRef &b, const std::vector<int64_t> &shape) {
    if (b.dtype != DType::Float32 && b.dtype != DType::Int32) {
        throw DTypeError(fmt::format("libtorch: a {} buffer; the cases use float32 and int32", dtype_name(b.dtype)));
    }
    int64_t have = 1, want = 1;
    for (int64_t e : b.shape) have *= e;
    for (int64_t e : shape) want *= e;
    if (have != want) throw ShapeError(fmt::format("libtorch: cannot view a {} buffer as {}", dims_str(b.shape), dims_str(shape)));
    return at::from_blob(b.data, shape, at::TensorOptions().dtype(b.dtype == DType::Int32 ? at::kInt : at::kFloat));
}
at::Tensor wrap(const BufferRef &b) { return wrap(b, b.shape); }

at::Tensor floats(std::vector<int64_t> shape) { return at::empty(shape, at::TensorOptions().dtype(at::kFloat)); }

// One op: `body` runs on preallocated tensors and writes PeerCase::output; a torch error becomes a
// halogen::Error naming the op and the case's shapes.
PeerOp op(const PeerCase &c, std::string name, std::function<void()> body) {
    std::string shapes = "out " + dims_str(c.output.shape);
    for (const auto &[n, b] : c.inputs) shapes += ", " + n + " " + dims_str(b.shape);
    auto run = [label = fmt::format("libtorch {} '{}' on {}", c.family, name, shapes), body = std::move(body)] {
        try {
            c10::InferenceMode inference;   // no autograd bookkeeping, as a deployed model runs
            body();
        } catch (const c10::Error &e) {
            throw Error(fmt::format("{}: {}", label, e.what_without_backtrace()));
        }
    };
    PeerOp o;
    o.name = std::move(name);
    o.run = std::move(run);
    o.writes_output = true;
    return o;
}

std::vector<PeerOp> embedding(const PeerCase &c) {
    // index_select takes int32 indices on CPU: the ids are used as they are.
    auto ids = wrap(buffer(c, "ids")), weight = wrap(buffer(c, "weight")), out = wrap(c.output);
    return {op(c, "index_select", [=]() mutable { at::index_select_out(out, weight, 0, ids); })};
}

std::vector<PeerOp> layernorm(const PeerCase &c) {
    struct State { at::Tensor x, w, b, out, mean, rstd; };
    auto s = std::make_shared<State>();
    s->x = wrap(buffer(c, "x")), s->w = wrap(buffer(c, "weight")), s->b = wrap(buffer(c, "bias"));
    s->out = wrap(c.output);
    s->mean = floats({s->x.size(0), 1}), s->rstd = floats({s->x.size(0), 1});
    return {op(c, "native_layer_norm (allocates)", [s] {
        at::native_layer_norm_out(s->out, s->mean, s->rstd, s->x, {s->x.size(1)}, s->w, s->b, 1e-5);
    })};
}

std::vector<PeerOp> rmsnorm(const PeerCase &c) {
    struct State { at::Tensor x, w, out, squares, scale, count, eps; };
    auto s = std::make_shared<State>();
    s->x = wrap(buffer(c, "x")), s->w = wrap(buffer(c, "weight")), s->out = wrap(c.output);
    s->squares = floats(s->x.sizes().vec()), s->scale = floats({s->x.size(0), 1});
    // Scalars as preallocated 0-dim tensors: an at::Scalar operand is wrapped in a fresh tensor per call.
    s->count = at::full({}, double(s->x.size(1)), at::kFloat), s->eps = at::full({}, 1e-6, at::kFloat);
    return {op(c, "rmsnorm composite", [s] {
        // x * rsqrt(mean(x * x, -1, keepdim) + 1e-6) * w, every step into preallocated memory. The mean
        // is sum_out then a division, which is what mean_out does on CPU, minus its scalar allocations.
        at::mul_out(s->squares, s->x, s->x);
        at::sum_out(s->scale, s->squares, {-1}, /*keepdim=*/true);
        at::div_out(s->scale, s->scale, s->count);
        at::add_out(s->scale, s->scale, s->eps);
        at::rsqrt_out(s->scale, s->scale);
        at::mul_out(s->out, s->x, s->scale);
        at::mul_out(s->out, s->out, s->w);
    })};
}

std::vector<PeerOp> batchnorm(const PeerCase &c) {
    struct State { at::Tensor x, mean, var, w, b, out; };
    auto s = std::make_shared<State>();
    s->x = wrap(buffer(c, "x")), s->out = wrap(c.output);
    s->mean = wrap(buffer(c, "mean")), s->var = wrap(buffer(c, "var"));
    s->w = wrap(buffer(c, "weight")), s->b = wrap(buffer(c, "bias"));
    return {op(c, "batch_norm (allocates)", [s] {
        s->out.copy_(at::batch_norm(s->x, s->w, s->b, s->mean, s->var, /*training=*/false, 0.1, 1e-5,
                                    /*cudnn_enabled=*/false));
    })};
}

std::vector<PeerOp> groupnorm(const PeerCase &c) {
    // The kernel's x [N, G, C/G, S] is the same memory as x [N, C, S]; weight [G, C/G] as [C].
    const auto &xb = buffer(c, "x");
    if (xb.shape.size() != 4) {
        throw ShapeError(fmt::format("libtorch groupnorm: x {} is not [N, G, C/G, S]", dims_str(xb.shape)));
    }
    const int64_t N = xb.shape[0], G = xb.shape[1], C = G * xb.shape[2], S = xb.shape[3];
    struct State { at::Tensor x, w, b, out, mean, rstd; };
    auto s = std::make_shared<State>();
    s->x = wrap(xb, {N, C, S}), s->out = wrap(c.output, {N, C, S});
    s->w = wrap(buffer(c, "weight"), {C}), s->b = wrap(buffer(c, "bias"), {C});
    s->mean = floats({N, G}), s->rstd = floats({N, G});
    return {op(c, "native_group_norm (allocates)", [s, N, C, S, G] {
        at::native_group_norm_out(s->out, s->mean, s->rstd, s->x, s->w, s->b, N, C, S, G, 1e-5);
    })};
}

// linear: torch.nn.functional.linear's kernels on the caller's buffers: mm (no bias) and
// addmm (bias), both with out= and the weight [N, K] used transposed, as Linear stores it.
std::vector<PeerOp> linear(const PeerCase &c) {
    const BufferRef &wb = unpacked_weight(c);
    if (wb.dtype != DType::Float32) return {};   // a bfloat16 weight would need a cast per call
    struct State { at::Tensor x, w, b, out; };
    auto s = std::make_shared<State>();
    s->x = wrap(buffer(c, "x")), s->w = wrap(wb), s->out = wrap(c.output);
    if (c.inputs.count("bias")) {
        s->b = wrap(buffer(c, "bias"));
        return {op(c, "addmm", [s] { at::addmm_out(s->out, s->b, s->x, s->w.t()); })};
    }
    return {op(c, "mm", [s] { at::mm_out(s->out, s->x, s->w.t()); })};
}

// conv: x [N, C, L1..Ln], the rank n read off x.
std::vector<PeerOp> conv(const PeerCase &c) {
    struct State { at::Tensor x, w, b, out; std::vector<int64_t> ones, zeros; };
    auto s = std::make_shared<State>();
    const BufferRef &xb = buffer(c, "x");
    if (xb.shape.size() < 3) throw ShapeError(fmt::format("libtorch conv: x {} is not [N, C, L1..Ln]", dims_str(xb.shape)));
    const std::size_t rank = xb.shape.size() - 2;
    s->x = wrap(xb), s->w = wrap(buffer(c, "weight")), s->b = wrap(buffer(c, "bias"));
    s->out = wrap(c.output);
    s->ones.assign(rank, 1), s->zeros.assign(rank, 0);
    return {op(c, "convolution (allocates)", [s] {
        // stride 1, pad 1, dilation 1, not transposed, 1 group
        at::convolution_out(s->out, s->x, s->w, s->b, s->ones, s->ones, s->ones, false, s->zeros, 1);
    })};
}

// attention: q [T, H, D] (or the kernel's view of it, [T, G, H/G, D]), k and v [G, S, D]
// (head-major cache, as Hugging Face's), out [T, H*D]; query t sits at position S - T + t and query head h reads
// KV head h / (H / G).
std::vector<PeerOp> attention(const PeerCase &c) {
    const BufferRef &qb = buffer(c, "q"), &kb = buffer(c, "k");
    if ((qb.shape.size() != 3 && qb.shape.size() != 4) || kb.shape.size() != 3) {
        throw ShapeError(fmt::format("libtorch attention: q {} and k {}: expected [T, H, D] or [T, G, H/G, D] and [G, S, D]",
                                     dims_str(qb.shape), dims_str(kb.shape)));
    }
    const int64_t T = qb.shape[0], D = qb.shape.back(), S = kb.shape[1], G = kb.shape[0];
    const int64_t H = qb.shape.size() == 4 ? qb.shape[1] * qb.shape[2] : qb.shape[1], R = H / G;
    struct State { at::Tensor q, k, v, k_rep, v_rep, mask, scores, probs, heads, out; double scale; };
    auto s = std::make_shared<State>();
    s->q = wrap(qb, {T, H, D}).transpose(0, 1);                         // [H, T, D]
    s->k = wrap(kb).unsqueeze(1).expand({G, R, S, D});  // repeat_kv's view
    s->v = wrap(buffer(c, "v")).unsqueeze(1).expand({G, R, S, D});
    s->k_rep = floats({G, R, S, D}), s->v_rep = floats({G, R, S, D});
    s->mask = at::full({T, S}, 0.0f, at::TensorOptions().dtype(at::kFloat));
    float *mask = s->mask.data_ptr<float>();
    for (int64_t t = 0; t < T; ++t) {
        for (int64_t j = S - T + t + 1; j < S; ++j) mask[t * S + j] = -std::numeric_limits<float>::infinity();
    }
    s->scores = floats({H, T, S}), s->probs = floats({H, T, S}), s->heads = floats({H, T, D});
    s->out = wrap(c.output, {T, H, D});
    s->scale = 1.0 / std::sqrt(double(D));
    return {op(c, "composite (repeat_kv, bmm, softmax, bmm)", [s, H, S, D] {
        s->k_rep.copy_(s->k);
        s->v_rep.copy_(s->v);
        at::bmm_out(s->scores, s->q, s->k_rep.view({H, S, D}).transpose(1, 2));
        s->scores.mul_(s->scale).add_(s->mask);
        at::_softmax_out(s->probs, s->scores, -1, false);
        at::bmm_out(s->heads, s->probs, s->v_rep.view({H, S, D}));
        s->out.copy_(s->heads.transpose(0, 1));
    })};
}

}  // namespace

Peer torch_peer() {
    Peer p;
    p.name = "libtorch";
    p.calls_blas = true;   // mm, addmm and bmm
    // Intra-op threads only: these operators use no inter-op pool, and libtorch refuses to size that
    // pool a second time. The matmuls run in the BLAS's threads, which ATen's count does not reach.
    p.set_threads = [](int threads) {
        at::set_num_threads(threads);
        set_blas_threads(threads);
    };
    p.ops = [](const PeerCase &c) -> std::vector<PeerOp> {
        try {
            c10::InferenceMode inference;   // the tensors are inference tensors: no version counters
            if (c.op == nn::ops::kEmbedding) return embedding(c);
            if (c.op == nn::ops::kLayerNorm) return layernorm(c);
            if (c.op == nn::ops::kRmsNorm) return rmsnorm(c);
            if (c.op == nn::ops::kBatchNormInference) return batchnorm(c);
            if (c.op == nn::ops::kGroupNorm) return groupnorm(c);
            if (c.op == nn::ops::kConv) return conv(c);
            if (c.op == nn::ops::kLinear) return linear(c);
            if (c.op == nn::ops::kAttention) return attention(c);
            return {};   // nn.pack_panels: torch has no such op
        } catch (const c10::Error &e) {
            throw Error(fmt::format("libtorch {}: setting up the case failed: {}", c.family, e.what_without_backtrace()));
        }
    };
    return p;
}

}  // namespace halogen::perf
