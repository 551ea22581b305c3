// Helpers of the llama tests: a temporary directory, the largest difference of two logit vectors.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace halogen_test {

// A temporary directory, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "halogen_llama_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string str() const { return path.string(); }
    std::string file(const std::string &name) const { return (path / name).string(); }
};

// The largest |a[i] - b[i]|; infinite when the sizes differ or a difference is NaN.
inline double max_diff(const std::vector<float> &a, const std::vector<float> &b) {
    if (a.size() != b.size()) return INFINITY;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs(double(a[i]) - double(b[i]));
        if (std::isnan(d)) return INFINITY;
        m = std::max(m, d);
    }
    return m;
}

}  // namespace halogen_test
