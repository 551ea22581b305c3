// ConvND (n = 1, 2, 3): x [N, C, L1..Ln] * weight [K, C, R1..Rn] + bias [K], written the
// tinygrad/Caten way with pad, windows, mul and a sum (frontend/nn/conv.h). The AOT kernels take
// 3-wide windows, stride 1 and padding 1 at any extents; a case of another geometry compiles its
// own graph with the JIT (geometry()).
#pragma once

#include <memory>

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::conv {

Family conv1d();
Family conv2d();
Family conv3d();

// The conv family of one exact geometry, every extent constant: x [N, C, L1..Ln], `kernel`
// [K, R1..Rn], the same stride and padding on every spatial axis (ShapeError when they do not fit).
std::shared_ptr<const Family> geometry(const std::vector<int64_t> &x, const std::vector<int64_t> &kernel,
                                       int64_t stride, int64_t pad);

// The register-tiled schedule (schedules.cpp); `naive` is Halide's defaults.
void tiled(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen::conv
