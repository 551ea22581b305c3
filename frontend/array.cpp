// Host arrays.
#include "frontend/array.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/bfloat16.h"

namespace halogen {

namespace {
int64_t count(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) throw ShapeError(fmt::format("array: negative extent in shape {}", dims_str(shape)));
        n *= d;
    }
    return n;
}
}  // namespace

Array::Array(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), bytes_(count(shape_) * dtype_size(dtype)) {}

int64_t Array::size() const { return count(shape_); }

double Array::get(int64_t k) const {
    switch (dtype_) {
    case DType::Float32: return data<float>()[k];
    case DType::Int32: return data<int32_t>()[k];
    case DType::Bool: return data<uint8_t>()[k] != 0;
    case DType::BFloat16: return bfloat16_bits_to_float(data<uint16_t>()[k]);
    }
    return 0;
}

void Array::set(int64_t k, double v) {
    switch (dtype_) {
    case DType::Float32: data<float>()[k] = static_cast<float>(v); break;
    case DType::Int32: data<int32_t>()[k] = static_cast<int32_t>(v); break;
    case DType::Bool: data<uint8_t>()[k] = v != 0; break;
    case DType::BFloat16: data<uint16_t>()[k] = float_to_bfloat16_bits(static_cast<float>(v)); break;
    }
}

std::string dims_str(const std::vector<int64_t> &shape) {
    return "[" + fmt::format("{}", fmt::join(shape, ", ")) + "]";
}

double max_abs_diff(const Array &a, const Array &b) {
    if (a.shape() != b.shape()) return INFINITY;
    double m = 0;
    if (a.dtype() == DType::Float32 && b.dtype() == DType::Float32) {
        const float *pa = a.data<float>(), *pb = b.data<float>();
        for (int64_t k = 0; k < a.size(); ++k) {
            const double d = std::abs(double(pa[k]) - double(pb[k]));
            m = std::isnan(d) ? INFINITY : std::max(m, d);
        }
        return m;
    }
    for (int64_t k = 0; k < a.size(); ++k) {   // any other element type, by value
        const double d = std::abs(a.get(k) - b.get(k));
        m = std::isnan(d) ? INFINITY : std::max(m, d);
    }
    return m;
}

}  // namespace halogen
