// Tests of symbolic dims (frontend/dim.h): polynomial arithmetic, equality, printing, evaluation
// under bindings (and BindingError for an unbound symbol), numel, shape_str and eval_shape.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "frontend/halogen.h"

namespace halogen {
namespace {

const Dim B = Dim::sym("B");
const Dim S = Dim::sym("S");

TEST(Dim, ConstantsAreConstant) {
    EXPECT_TRUE(Dim(7).is_constant());
    EXPECT_EQ(Dim(7).constant(), 7);
    EXPECT_EQ(Dim().constant(), 0);
    EXPECT_EQ(Dim(-3).constant(), -3);
    EXPECT_TRUE(Dim(7).symbols().empty());
}

TEST(Dim, SymbolIsNotConstant) {
    EXPECT_FALSE(B.is_constant());
    EXPECT_FALSE(B.constant().has_value());
    EXPECT_EQ(B.symbols(), (std::set<std::string>{"B"}));
    EXPECT_EQ((B * S + 1).symbols(), (std::set<std::string>{"B", "S"}));
}

TEST(Dim, ConstantArithmetic) {
    EXPECT_EQ(Dim(3) + Dim(4), Dim(7));
    EXPECT_EQ(Dim(3) - Dim(4), Dim(-1));
    EXPECT_EQ(Dim(3) * Dim(4), Dim(12));
    EXPECT_EQ(Dim(3) * Dim(0), Dim(0));
    EXPECT_EQ((Dim(3) - Dim(3)).constant(), 0);
}

TEST(Dim, SymbolicArithmeticIsPolynomial) {
    EXPECT_EQ(B + B, Dim(2) * B);
    EXPECT_EQ(B * S, S * B);                          // monomials are commutative
    EXPECT_EQ((B + 1) * (B - 1), B * B - 1);          // (B+1)(B-1) = B^2 - 1
    EXPECT_EQ((B + S) * 2, B * 2 + S * 2);
    EXPECT_EQ(B - B, Dim(0));
    EXPECT_TRUE((B - B).is_constant());
    EXPECT_TRUE((B * S - S * B + 5).is_constant());
    EXPECT_EQ((B * S - S * B + 5).constant(), 5);
}

TEST(Dim, Equality) {
    EXPECT_EQ(Dim(0), Dim());
    EXPECT_NE(B, S);
    EXPECT_NE(B, Dim(1));
    EXPECT_NE(B * 2, B * 3);
    EXPECT_NE(B + 1, B);
    EXPECT_EQ(Dim::sym("B"), B);
}

TEST(Dim, Str) {
    EXPECT_EQ(Dim(0).str(), "0");
    EXPECT_EQ(Dim(30).str(), "30");
    EXPECT_EQ(Dim(-5).str(), "-5");
    EXPECT_EQ(B.str(), "B");
    EXPECT_EQ((B * 2).str(), "2*B");
    EXPECT_EQ((B * S).str(), "B*S");
    EXPECT_EQ((S * B).str(), "B*S");
    EXPECT_EQ((B * S + 2).str(), "B*S + 2");
    EXPECT_EQ((B - 3).str(), "B - 3");
    EXPECT_EQ((Dim(0) - B).str(), "-B");
    EXPECT_EQ((B * S * 3 + B - 1).str(), "3*B*S + B - 1");
}

TEST(Dim, EvalWithBindings) {
    const Bindings b = {{"B", 4}, {"S", 7}};
    EXPECT_EQ(Dim(9).eval({}), 9);
    EXPECT_EQ(B.eval(b), 4);
    EXPECT_EQ((B * S).eval(b), 28);
    EXPECT_EQ((B * S * 2 - B + 3).eval(b), 2 * 28 - 4 + 3);
    EXPECT_EQ((B * B).eval(b), 16);
    EXPECT_EQ((B - S).eval(b), -3);   // Dim::eval itself does not reject negative values
}

TEST(Dim, EvalUnboundSymbolThrowsBindingErrorNamingIt) {
    const Dim d = B * S;
    EXPECT_THROW(d.eval({{"B", 2}}), BindingError);
    try {
        d.eval({{"B", 2}}, "input 'x'");
        FAIL() << "expected BindingError";
    } catch (const BindingError &e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("'S'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("input 'x'"), std::string::npos) << msg;
    }
    EXPECT_NO_THROW(d.eval({{"B", 2}, {"S", 3}, {"unused", 9}}));
}

TEST(Dim, Numel) {
    EXPECT_EQ(numel({}), Dim(1));   // a scalar has one element
    EXPECT_EQ(numel({Dim(3), Dim(4)}), Dim(12));
    EXPECT_EQ(numel({Dim(3), Dim(0), Dim(4)}), Dim(0));
    EXPECT_EQ(numel({B, Dim(30)}), B * 30);
    EXPECT_EQ(numel({B, S, Dim(2)}).eval({{"B", 3}, {"S", 5}}), 30);
}

TEST(Dim, ShapeStr) {
    EXPECT_EQ(shape_str({}), "[]");
    EXPECT_EQ(shape_str({Dim(3)}), "[3]");
    EXPECT_EQ(shape_str({Dim(3), Dim(4)}), "[3, 4]");
    EXPECT_EQ(shape_str({B, Dim(30)}), "[B, 30]");
    EXPECT_EQ(shape_str({B * S, S * 2 + 1}), "[B*S, 2*S + 1]");
}

TEST(Dim, ShapeSymbols) {
    EXPECT_TRUE(shape_symbols({Dim(3), Dim(4)}).empty());
    EXPECT_EQ(shape_symbols({B, S * 2, Dim(1)}), (std::set<std::string>{"B", "S"}));
}

TEST(Dim, EvalShape) {
    EXPECT_EQ(eval_shape({B, Dim(30), B * 2}, {{"B", 5}}, "t"), (std::vector<int64_t>{5, 30, 10}));
    EXPECT_THROW(eval_shape({B - 10}, {{"B", 5}}, "t"), BindingError);   // negative extent
    EXPECT_THROW(eval_shape({B}, {}, "t"), BindingError);                // unbound
}

TEST(Dim, ArithmeticBeyondInt64IsAShapeError) {
    const int64_t max = std::numeric_limits<int64_t>::max(), min = std::numeric_limits<int64_t>::min();
    const Dim p40 = Dim(int64_t(1) << 40);
    EXPECT_THROW(p40 * p40, ShapeError);                        // 2^80 (wrapped to 0 before)
    EXPECT_THROW(Dim(max) + Dim(1), ShapeError);
    EXPECT_THROW(Dim(min) - Dim(1), ShapeError);
    EXPECT_THROW(Dim(min) * Dim(-1), ShapeError);
    EXPECT_THROW((B * p40) * (S * p40), ShapeError);            // a coefficient of a product
    EXPECT_THROW(B * Dim(max) + B, ShapeError);                 // a coefficient of a sum
    try {
        p40 * p40;
    } catch (const ShapeError &e) {
        EXPECT_EQ(std::string(e.what()), "dim: (1099511627776) * (1099511627776) overflows int64");
    }
    // Right at the edge, exact.
    EXPECT_EQ(Dim(int64_t(1) << 31) * Dim(int64_t(1) << 31), Dim(int64_t(1) << 62));
    EXPECT_EQ((Dim(max) - Dim(1)).constant(), max - 1);
    EXPECT_EQ((Dim(min) + Dim(max)).constant(), -1);
    EXPECT_EQ((Dim(max) * Dim(-1)).constant(), -max);
    EXPECT_EQ(B * Dim(max) - B * Dim(max), Dim(0));
}

}  // namespace
}  // namespace halogen
