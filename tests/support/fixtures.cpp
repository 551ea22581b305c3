// Fixture loading: JSON -> halogen Arrays, with every field checked.
#include "tests/support/fixtures.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

namespace halogen::testing {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string &path, const std::string &why) {
    throw FixtureError(fmt::format("fixture {}: {}", path, why));
}

const json &field(const std::string &path, const json &obj, const std::string &key, const std::string &where) {
    if (!obj.is_object() || !obj.contains(key)) fail(path, fmt::format("{} has no field '{}'", where, key));
    return obj.at(key);
}

double number(const std::string &path, const json &v, const std::string &where) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {   // JSON has no NaN/Inf: accept them spelled as strings
        const std::string s = v.get<std::string>();
        if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf" || s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-inf" || s == "-Infinity") return -std::numeric_limits<double>::infinity();
    }
    fail(path, fmt::format("{} is not a number: {}", where, v.dump()));
}

Array tensor(const std::string &path, const json &t, const std::string &where) {
    const json &dt = field(path, t, "dtype", where);
    const json &shape = field(path, t, "shape", where);
    const json &data = field(path, t, "data", where);
    if (!dt.is_string()) fail(path, where + ".dtype is not a string");
    DType dtype;
    const std::string d = dt.get<std::string>();
    if (d == "float32") dtype = DType::Float32;
    else if (d == "int32") dtype = DType::Int32;
    else if (d == "bool") dtype = DType::Bool;
    else fail(path, fmt::format("{}.dtype '{}' is not float32, int32 or bool", where, d));
    if (!shape.is_array()) fail(path, where + ".shape is not an array");
    std::vector<int64_t> dims;
    int64_t count = 1;
    for (const json &e : shape) {
        if (!e.is_number_integer() || e.get<int64_t>() < 0) {
            fail(path, fmt::format("{}.shape {} holds a value that is not a non-negative integer", where, shape.dump()));
        }
        dims.push_back(e.get<int64_t>());
        count *= dims.back();
    }
    if (!data.is_array()) fail(path, where + ".data is not an array");
    if (int64_t(data.size()) != count) {
        fail(path, fmt::format("{}.data has {} values but shape {} needs {}", where, data.size(), dims_str(dims), count));
    }
    Array a(dtype, dims);
    for (int64_t k = 0; k < count; ++k) {
        const double v = number(path, data[k], fmt::format("{}.data[{}]", where, k));
        if (dtype == DType::Int32 && (v != std::floor(v) || v < INT32_MIN || v > INT32_MAX)) {
            fail(path, fmt::format("{}.data[{}] = {} is not an int32", where, k, v));
        }
        if (dtype == DType::Bool && v != 0 && v != 1) fail(path, fmt::format("{}.data[{}] = {} is not 0/1", where, k, v));
        a.set(k, v);
    }
    return a;
}

}  // namespace

std::vector<std::string> Fixture::symbolic_axes(const std::string &input) const {
    std::vector<std::string> out;
    if (!params.contains("symbolic") || !params["symbolic"].contains(input)) return out;
    const json &axes = params["symbolic"][input];
    auto it = inputs.find(input);
    if (!axes.is_array() || it == inputs.end() || axes.size() != it->second.shape().size()) {
        fail(path, fmt::format("params.symbolic.{} must be an array with one entry per axis of input '{}'", input,
                               input));
    }
    for (const json &a : axes) {
        if (a.is_null()) out.emplace_back();
        else if (a.is_string() && !a.get<std::string>().empty()) out.push_back(a.get<std::string>());
        else fail(path, fmt::format("params.symbolic.{} holds {}, not a symbol name or null", input, a.dump()));
    }
    return out;
}

Fixture load_fixture(const std::string &path) {
    std::ifstream in(path);
    if (!in) fail(path, "cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    json j;
    try {
        j = json::parse(ss.str());
    } catch (const json::exception &e) {
        fail(path, fmt::format("invalid JSON: {}", e.what()));
    }
    if (!j.is_object()) fail(path, "the top level is not an object");
    Fixture f;
    f.path = path;
    for (const char *key : {"name", "op"}) {
        if (!field(path, j, key, "the fixture").is_string()) fail(path, fmt::format("'{}' is not a string", key));
    }
    f.name = j["name"].get<std::string>();
    f.op = j["op"].get<std::string>();
    f.params = j.contains("params") ? j["params"] : json::object();
    if (!f.params.is_object()) fail(path, "'params' is not an object");
    if (f.params.contains("symbolic") && !f.params["symbolic"].is_object()) {
        fail(path, "'params.symbolic' is not an object");
    }
    const json &inputs = field(path, j, "inputs", "the fixture");
    if (!inputs.is_object() || inputs.empty()) fail(path, "'inputs' is not a non-empty object");
    for (const auto &[name, t] : inputs.items()) f.inputs.emplace(name, tensor(path, t, "inputs." + name));
    f.output = tensor(path, field(path, j, "output", "the fixture"), "output");
    f.atol = number(path, field(path, j, "atol", "the fixture"), "atol");
    f.rtol = number(path, field(path, j, "rtol", "the fixture"), "rtol");
    if (!(f.atol >= 0) || !(f.rtol >= 0)) fail(path, "atol and rtol must be non-negative");
    if (f.params.contains("symbolic")) {
        for (const auto &[name, axes] : f.params["symbolic"].items()) {
            if (!f.inputs.count(name)) fail(path, fmt::format("params.symbolic names unknown input '{}'", name));
            f.symbolic_axes(name);   // validates
        }
    }
    return f;
}

std::vector<std::string> fixture_files(const std::string &dir) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path().string());
    }
    if (ec) throw FixtureError(fmt::format("fixtures: cannot list directory {}: {}", dir, ec.message()));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace halogen::testing
