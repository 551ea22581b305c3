// Reading compare's flags (case_args.h).
#include "schedules/case_args.h"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

int64_t parse_int(const std::string &flag, const std::string &text) {
    std::size_t used = 0;
    long long v = -1;
    try {
        v = std::stoll(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != text.size() || v < 0) {
        throw ShapeError(fmt::format("--{}: expected a whole number >= 0, got '{}'", flag, text));
    }
    return v;
}

}  // namespace

int64_t arg_int(const CaseArgs &args, const std::string &flag, int64_t fallback) {
    auto it = args.find(flag);
    return it == args.end() ? fallback : parse_int(flag, it->second);
}

double arg_double(const CaseArgs &args, const std::string &flag, double fallback) {
    auto it = args.find(flag);
    if (it == args.end()) return fallback;
    std::size_t used = 0;
    double v = NAN;
    try {
        v = std::stod(it->second, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used == 0 || used != it->second.size() || !std::isfinite(v)) {
        throw ShapeError(fmt::format("--{}: expected a number, got '{}'", flag, it->second));
    }
    return v;
}

std::vector<int64_t> arg_shape(const CaseArgs &args, const std::string &flag, std::vector<int64_t> fallback) {
    auto it = args.find(flag);
    if (it == args.end()) return fallback;
    std::vector<int64_t> out;
    std::stringstream ss(it->second);
    for (std::string part; std::getline(ss, part, 'x');) out.push_back(parse_int(flag, part));
    if (out.empty()) throw ShapeError(fmt::format("--{}: expected extents like 8x512x4096, got '{}'", flag, it->second));
    return out;
}

std::string shape_label(const std::vector<int64_t> &shape) {
    std::string out;
    for (int64_t d : shape) out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
}

std::string si_number(double v) {
    const char *units[] = {"", "k", "M", "G", "T", "P"};
    int u = 0;
    while (std::abs(v) >= 1000 && u < 5) v /= 1000, ++u;
    return fmt::format("{:.3g}{}", v, units[u]);
}

}  // namespace halogen
