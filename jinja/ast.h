// The parsed template: statements (text, output, if, for, set, macro, break, continue) holding
// expressions. Every node keeps its source line for errors and its depth, which the parser
// bounds (Limits::max_nesting) so that evaluating and freeing a tree cannot overflow the stack.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jinja/value.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
    enum class Kind {
        Literal,   // literal
        Name,      // name
        List,      // children: items
        Tuple,     // children: items
        Dict,      // children: key, value, key, value, ...
        Attr,      // children[0].name
        Item,      // children[0][children[1]]
        Slice,     // children[0][start:stop:step], each of the three may be null
        Call,      // children[0](children[1:], keywords)
        Filter,    // children[0] | name(children[1:], keywords)
        Test,      // children[0] is [not] name(children[1:], keywords)
        Not, Neg, Pos,          // children[0]
        And, Or,                // children[0], children[1]
        Binary,                 // children[0] op children[1]
        Concat,                 // children[0] ~ children[1]
        Compare,                // children[0] compare_ops[0] children[1] compare_ops[1] children[2] ...
        Conditional,            // children[1] if children[0] else children[2] (absent: undefined)
    };
    Kind kind;
    int line = 0;
    int depth = 1;
    Value literal;
    std::string name;
    BinaryOp op = BinaryOp::Add;
    std::vector<std::string> compare_ops;   // "==", "!=", "<", "<=", ">", ">=", "in", "not in"
    std::vector<ExprPtr> children;
    std::vector<std::pair<std::string, ExprPtr>> keywords;
    ExprPtr start, stop, step;               // Slice
    bool negated = false;                    // Test: `is not`
};

struct Node;
using NodePtr = std::unique_ptr<Node>;
using Body = std::vector<NodePtr>;

struct Node {
    enum class Kind {
        Text,       // text
        Output,     // {{ expr }}
        If,         // branches, else_body
        For,        // for targets in expr [if filter]: body, else_body
        Set,        // set targets = expr (several targets: unpacking)
        SetAttr,    // set targets[0].targets[1] = expr (a namespace's attribute)
        SetBlock,   // set targets[0]: body rendered
        Macro,      // macro targets[0](params with defaults): body
        Break,
        Continue,
        Scoped,     // body rendered in a scope of its own (Hugging Face's {% generation %})
    };
    Kind kind;
    int line = 0;
    std::string text;
    ExprPtr expr;
    ExprPtr filter;
    std::vector<std::string> targets;
    std::vector<std::string> params;
    std::vector<ExprPtr> defaults;           // one per param, null where none
    std::vector<std::pair<ExprPtr, Body>> branches;
    Body body, else_body;
};

}  // namespace halogen::jinja
