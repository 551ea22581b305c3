// The OpenBLAS peer (openblas_peer.h). y[M, N] = x[M, K] . W[N, K]^T (+ bias): one sgemv for a
// single token, one sgemm otherwise; a bias is copied into y first and the product added to it
// (beta = 1), as a BLAS user computes Linear. Both are one operation, "sgemm", whatever M is:
// halogen_perf reads a peer's operation names off a family's tiny case (peer_op_names), so a name
// that changed with the shape would leave the other shapes without their OpenBLAS time.
#include "perf/peers/openblas_peer.h"

#include <cstring>

#include <cblas.h>
#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/linear.h"

namespace halogen::perf {

namespace {

std::vector<PeerOp> ops(const PeerCase &c) {
    if (c.op != nn::ops::kLinear) return {};
    const BufferRef &x = c.inputs.at("x"), &w = unpacked_weight(c);
    if (w.dtype != DType::Float32) return {};   // OpenBLAS has no float32 x bfloat16 product
    const int M = int(x.shape.at(0)), K = int(x.shape.at(1)), N = int(w.shape.at(0));
    const float *xp = static_cast<const float *>(x.data), *wp = static_cast<const float *>(w.data);
    float *yp = static_cast<float *>(c.output.data);
    const float *bias = c.inputs.count("bias") ? static_cast<const float *>(c.inputs.at("bias").data) : nullptr;
    PeerOp op;
    op.name = bias ? "sgemm + bias" : "sgemm";   // sgemv at M = 1
    op.writes_output = true;
    op.run = [=] {
        if (bias) {
            for (int m = 0; m < M; ++m) std::memcpy(yp + std::size_t(m) * N, bias, std::size_t(N) * sizeof(float));
        }
        const float beta = bias ? 1.0f : 0.0f;
        if (M == 1) {
            cblas_sgemv(CblasRowMajor, CblasNoTrans, N, K, 1.0f, wp, K, xp, 1, beta, yp, 1);
        } else {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, 1.0f, xp, K, wp, K, beta, yp, N);
        }
    };
    return {op};
}

}  // namespace

Peer openblas_peer() {
    return {"openblas", [](int threads) { openblas_set_num_threads(threads); }, ops, true};
}

}  // namespace halogen::perf
