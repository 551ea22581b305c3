// Every golden fixture made by PyTorch (tests/fixtures/*.json, see generate.py) is rebuilt as a
// halogen graph from the nn layer, with the fixture's symbolic axes declared as symbolic dims and
// bound at run time, then checked twice against PyTorch's output: through the reference
// interpreter, and grouped + lowered + JIT-compiled under every generic schedule.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <unistd.h>

#include <gtest/gtest.h>

#include "frontend/halogen.h"
#include "frontend/nn/nn.h"
#include "tests/support/fixtures.h"
#include "halide_gen/compiler/schedule.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using testing::CompiledGraph;
using testing::Fixture;
using testing::FixtureError;

// The fixture's inputs as graph inputs (symbolic axes as Dim::sym), and the bindings that match the data.
struct Declared {
    std::map<std::string, Tensor> tensors;
    Bindings bindings;

    Tensor operator[](const std::string &name) const {
        auto it = tensors.find(name);
        if (it == tensors.end()) throw FixtureError("the fixture has no input '" + name + "'");
        return it->second;
    }
    Tensor optional(const std::string &name) const {   // Tensor() ("none") when the fixture omits it
        auto it = tensors.find(name);
        return it == tensors.end() ? Tensor() : it->second;
    }
};

Declared declare(const Fixture &f) {
    Declared d;
    for (const auto &[name, a] : f.inputs) {
        const auto syms = f.symbolic_axes(name);
        Shape s;
        for (std::size_t k = 0; k < a.shape().size(); ++k) {
            if (syms.empty() || syms[k].empty()) {
                s.push_back(a.shape()[k]);
                continue;
            }
            s.push_back(Dim::sym(syms[k]));
            auto [it, fresh] = d.bindings.emplace(syms[k], a.shape()[k]);
            if (!fresh && it->second != a.shape()[k]) {
                throw FixtureError(f.path + ": symbol " + syms[k] + " is bound to two different extents");
            }
        }
        d.tensors.emplace(name, input(name, a.dtype(), s));
    }
    return d;
}

double param(const Fixture &f, const char *key, double dflt) {
    return f.params.contains(key) ? f.params[key].get<double>() : dflt;
}

std::vector<int64_t> ints(const Fixture &f, const char *key) {
    return f.params.contains(key) ? f.params[key].get<std::vector<int64_t>>() : std::vector<int64_t>{};
}

using Builder = std::function<Tensor(const Fixture &, const Declared &)>;

const std::map<std::string, Builder> &builders() {
    static const std::map<std::string, Builder> b = {
        {"embedding", [](const Fixture &, const Declared &d) { return nn::embedding(d["ids"], d["weight"]); }},
        {"linear",
         [](const Fixture &, const Declared &d) { return nn::linear(d["x"], d["weight"], d.optional("bias")); }},
        {"layer_norm",
         [](const Fixture &f, const Declared &d) {
             return nn::layer_norm(d["x"], f.params.at("normalized_ndim").get<int>(), d.optional("weight"),
                                   d.optional("bias"), param(f, "eps", 1e-5));
         }},
        {"rms_norm",
         [](const Fixture &f, const Declared &d) {
             return nn::rms_norm(d["x"], d.optional("weight"), param(f, "eps", 1e-6));
         }},
        {"batch_norm_inference",
         [](const Fixture &f, const Declared &d) {
             return nn::batch_norm_inference(d["x"], d["running_mean"], d["running_var"], d.optional("weight"),
                                             d.optional("bias"), param(f, "eps", 1e-5));
         }},
        {"batch_norm_training",
         [](const Fixture &f, const Declared &d) {
             return nn::batch_norm_training(d["x"], d.optional("weight"), d.optional("bias"), param(f, "eps", 1e-5));
         }},
        {"group_norm",
         [](const Fixture &f, const Declared &d) {
             return nn::group_norm(d["x"], f.params.at("groups").get<int64_t>(), d.optional("weight"),
                                   d.optional("bias"), param(f, "eps", 1e-5));
         }},
        {"conv",
         [](const Fixture &f, const Declared &d) {
             nn::ConvOptions o{ints(f, "stride"), ints(f, "padding"), ints(f, "dilation"),
                               int64_t(param(f, "groups", 1))};
             return nn::conv(d["x"], d["weight"], d.optional("bias"), o);
         }},
        {"relu", [](const Fixture &, const Declared &d) { return nn::relu(d["x"]); }},
        {"sigmoid", [](const Fixture &, const Declared &d) { return nn::sigmoid(d["x"]); }},
        {"tanh", [](const Fixture &, const Declared &d) { return nn::tanh(d["x"]); }},
        {"gelu", [](const Fixture &, const Declared &d) { return nn::gelu(d["x"]); }},
        {"silu", [](const Fixture &, const Declared &d) { return nn::silu(d["x"]); }},
        {"softmax",
         [](const Fixture &f, const Declared &d) { return nn::softmax(d["x"], int(param(f, "axis", -1))); }},
        {"attention", [](const Fixture &, const Declared &d) { return nn::attention(d["q"], d["k"], d["v"]); }},
    };
    return b;
}

Tensor build(const Fixture &f, const Declared &d) {
    auto it = builders().find(f.op);
    if (it == builders().end()) throw FixtureError(f.path + ": unknown op '" + f.op + "'");
    return it->second(f, d);
}

std::vector<std::string> files() { return testing::fixture_files(HALOGEN_FIXTURES_DIR); }

std::string stem(const std::string &path) { return std::filesystem::path(path).stem().string(); }

class NnFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(NnFixture, InterpreterAndJitMatchPyTorch) {
    const Fixture f = testing::load_fixture(GetParam());
    const Declared d = declare(f);
    const Tensor out = build(f, d);
    ASSERT_EQ(out.dtype(), f.output.dtype()) << f.name;
    ASSERT_EQ(eval_shape(out.shape(), d.bindings, "output"), f.output.shape()) << f.name;
    if (f.params.contains("symbolic")) {   // the graph really is symbolic
        EXPECT_FALSE(Graph({out}).symbols().empty()) << f.name;
    }

    EXPECT_TRUE(arrays_near(f.output, interpret(out, f.inputs, d.bindings), f.atol, f.rtol))
        << f.name << ": interpreter vs PyTorch";
    for (const std::string &schedule : schedule_names()) {
        CompiledGraph kernel(out, schedule);
        EXPECT_TRUE(arrays_near(f.output, kernel.run(f.inputs, d.bindings), f.atol, f.rtol))
            << f.name << ": JIT (" << schedule << ") vs PyTorch";

        // One compiled program serves every binding: at other values of the symbols, the JIT must
        // still equal the interpreter (random data; no PyTorch reference there).
        if (!d.bindings.empty()) {
            Bindings other = d.bindings;
            for (auto &[sym, v] : other) v = v + 2;
            const Inputs in = testing::random_inputs(Graph({out}), other, 7);
            EXPECT_TRUE(arrays_near(interpret(out, in, other), kernel.run(in, other), 1e-4, 1e-4))
                << f.name << ": JIT (" << schedule << ") vs interpreter at bindings + 2";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(PyTorch, NnFixture, ::testing::ValuesIn(files()),
                         [](const auto &info) { return stem(info.param); });

TEST(NnFixtures, EveryOpHasFixturesAndEveryFixtureLoads) {
    const auto paths = files();
    ASSERT_GE(paths.size(), 30u) << "run tests/fixtures/generate.py";
    std::map<std::string, int> per_op;
    int symbolic = 0;
    for (const auto &p : paths) {
        const Fixture f = testing::load_fixture(p);
        EXPECT_EQ(f.name, stem(p));
        EXPECT_TRUE(builders().count(f.op)) << p << ": op " << f.op;
        per_op[f.op]++;
        symbolic += f.params.contains("symbolic");
    }
    for (const auto &[op, b] : builders()) EXPECT_GE(per_op[op], 1) << "no fixture for " << op;
    EXPECT_GE(symbolic, 5);
}

// Malformed fixtures fail with a message naming the file and the problem.
class MalformedFixture : public ::testing::Test {
protected:
    std::string write(const std::string &text) {
        path_ = (std::filesystem::temp_directory_path() / ("halogen_bad_fixture_" + std::to_string(::getpid()) + ".json"))
                    .string();
        std::ofstream(path_) << text;
        return path_;
    }
    void TearDown() override {
        if (!path_.empty()) std::remove(path_.c_str());
    }
    std::string message(const std::string &text) {
        try {
            testing::load_fixture(write(text));
        } catch (const FixtureError &e) {
            return e.what();
        }
        return "(no error)";
    }
    std::string path_;
};

const char *kGood = R"({"name":"t","op":"relu","params":{},
    "inputs":{"x":{"dtype":"float32","shape":[2],"data":[1.5,-2]}},
    "output":{"dtype":"float32","shape":[2],"data":[1.5,0]},"atol":0,"rtol":0})";

TEST_F(MalformedFixture, GoodOneLoads) {
    const Fixture f = testing::load_fixture(write(kGood));
    EXPECT_EQ(f.op, "relu");
    ASSERT_EQ(f.inputs.at("x").shape(), std::vector<int64_t>{2});
    EXPECT_EQ(f.inputs.at("x").get(0), 1.5);
    EXPECT_EQ(f.output.get(1), 0.0);
}

TEST_F(MalformedFixture, ErrorsNameTheProblem) {
    auto replace = [](std::string s, const std::string &from, const std::string &to) {
        return s.replace(s.find(from), from.size(), to);
    };
    EXPECT_NE(message("{not json").find("invalid JSON"), std::string::npos);
    EXPECT_NE(message(replace(kGood, R"("op":"relu",)", "")).find("no field 'op'"), std::string::npos);
    EXPECT_NE(message(replace(kGood, "[1.5,-2]", "[1.5]")).find("has 1 values but shape [2] needs 2"),
              std::string::npos);
    EXPECT_NE(message(replace(kGood, R"("dtype":"float32","shape":[2],"data":[1.5,-2])",
                              R"("dtype":"float64","shape":[2],"data":[1.5,-2])"))
                  .find("float64"),
              std::string::npos);
    EXPECT_NE(message(replace(kGood, R"("shape":[2],"data":[1.5,-2])", R"("shape":[-2],"data":[1.5,-2])"))
                  .find("non-negative integer"),
              std::string::npos);
    EXPECT_NE(message(replace(kGood, R"("params":{})", R"("params":{"symbolic":{"x":["B","S"]}})"))
                  .find("one entry per axis"),
              std::string::npos);
    EXPECT_NE(message(replace(kGood, "[1.5,0]", R"([1.5,"oops"])")).find("output.data[1]"), std::string::npos);
    const std::string m = message(replace(kGood, R"(,"rtol":0)", ""));
    EXPECT_NE(m.find("no field 'rtol'"), std::string::npos) << m;
    EXPECT_NE(m.find(path_), std::string::npos) << m;
}

}  // namespace
}  // namespace halogen
