// The expression half of the evaluator (evaluator.h): names, literals, attributes and items,
// slices, calls, filters, tests, and the operators with Python's semantics (value_ops.h).
#include "jinja/attributes.h"
#include "jinja/evaluator.h"
#include "jinja/filters.h"
#include "jinja/template_error.h"
#include "jinja/value_ops.h"
#include "jinja/value_tests.h"

namespace halogen::jinja {

namespace {

std::optional<int64_t> slice_index(const Value &v) {
    if (v.is_none()) return std::nullopt;
    if (v.is_undefined()) fail_undefined(v);
    if (!v.is_integral()) throw TemplateError(0, "slice indices must be integers or None");
    return v.as_int();
}

}  // namespace

Value Evaluator::eval(const Expr &e) {
    Depth depth(*this, e.line);
    try {
        Value v = eval_inner(e);
        charge(0);   // the comparisons and searches it did
        return v;
    } catch (const TemplateError &err) {
        if (err.line() != 0) throw;
        throw TemplateError(e.line, err.detail());
    }
}

CallArgs Evaluator::eval_args(const Expr &e, size_t first) {
    CallArgs args;
    for (size_t i = first; i < e.children.size(); ++i) args.positional.push_back(eval(*e.children[i]));
    for (const auto &[key, value] : e.keywords) args.keyword.emplace_back(key, eval(*value));
    return args;
}

Value Evaluator::call(const Value &callee, const CallArgs &args, int line) {
    if (callee.is_undefined()) fail_undefined(callee);
    if (!callee.is(Value::Kind::Function))
        throw TemplateError(line, std::string("'") + type_name(callee) + "' object is not callable");
    return callee.as_function().call(args, *this, line);
}

Value Evaluator::eval_compare(const Expr &e) {
    Value left = eval(*e.children[0]);
    for (size_t i = 0; i < e.compare_ops.size(); ++i) {
        Value right = eval(*e.children[i + 1]);
        const std::string &op = e.compare_ops[i];
        bool holds;
        if (op == "==") holds = equals(left, right);
        else if (op == "!=") holds = !equals(left, right);
        else if (op == "in") holds = contains(right, left);
        else if (op == "not in") holds = !contains(right, left);
        else {
            const int o = order(left, right, op.c_str());
            if (op == "<") holds = o == -1;
            else if (op == "<=") holds = o == -1 || o == 0;
            else if (op == ">") holds = o == 1;
            else holds = o == 1 || o == 0;
        }
        if (!holds) return Value::boolean(false);
        left = std::move(right);
    }
    return Value::boolean(true);
}

Value Evaluator::eval_inner(const Expr &e) {
    using K = Expr::Kind;
    switch (e.kind) {
    case K::Literal: return e.literal;
    case K::Name: return lookup(e.name);
    case K::List:
    case K::Tuple: {
        List items;
        for (const auto &c : e.children) items.push_back(eval(*c));
        Value v = Value::list(std::move(items), e.kind == K::Tuple);
        if (v.depth() > 2 * limits_.max_nesting + 2) throw TemplateError(e.line, "a list nests too deeply");
        return v;
    }
    case K::Dict: {
        Dict d;
        for (size_t i = 0; i + 1 < e.children.size(); i += 2) {
            Value key = eval(*e.children[i]);
            if (key.is(Value::Kind::List) && !key.is_tuple()) throw TemplateError(e.line, "unhashable type: 'list'");
            if (key.is(Value::Kind::Dict) || key.is(Value::Kind::Namespace))
                throw TemplateError(e.line, std::string("unhashable type: '") + type_name(key) + "'");
            d.set(std::move(key), eval(*e.children[i + 1]));
        }
        Value v = Value::dict(std::move(d));
        if (v.depth() > 2 * limits_.max_nesting + 2) throw TemplateError(e.line, "a dict nests too deeply");
        return v;
    }
    case K::Attr: return get_attr(eval(*e.children[0]), e.name, limits_);
    case K::Item: {
        const Value obj = eval(*e.children[0]);
        return get_item(obj, eval(*e.children[1]), limits_);
    }
    case K::Slice: {
        const Value obj = eval(*e.children[0]);
        if (obj.is_undefined()) fail_undefined(obj);
        std::optional<int64_t> start, stop, step;
        if (e.start) start = slice_index(eval(*e.start));
        if (e.stop) stop = slice_index(eval(*e.stop));
        if (e.step) step = slice_index(eval(*e.step));
        if (!obj.is_string() && !obj.is(Value::Kind::List)) return Value::undefined(std::string("a '") + type_name(obj) + "' cannot be sliced");
        charge(length(obj) / 16);
        return slice(obj, start, stop, step);
    }
    case K::Call: {
        const Value callee = eval(*e.children[0]);
        return call(callee, eval_args(e, 1), e.line);
    }
    case K::Filter: {
        const Value input = eval(*e.children[0]);
        return apply_filter(e.name, input, eval_args(e, 1), *this, e.line);
    }
    case K::Test: {
        const Value input = eval(*e.children[0]);
        const bool holds = run_test(e.name, input, eval_args(e, 1), *this);
        return Value::boolean(holds != e.negated);
    }
    case K::Not: return Value::boolean(!truthy(eval(*e.children[0])));
    case K::Neg: return negate(eval(*e.children[0]));
    case K::Pos: return unary_plus(eval(*e.children[0]));
    case K::And: {
        Value left = eval(*e.children[0]);
        return truthy(left) ? eval(*e.children[1]) : left;
    }
    case K::Or: {
        Value left = eval(*e.children[0]);
        return truthy(left) ? left : eval(*e.children[1]);
    }
    case K::Binary: {
        const Value left = eval(*e.children[0]);
        const Value right = eval(*e.children[1]);
        Value result = binary(e.op, left, right, limits_);
        if (result.is_string()) charge(static_cast<int64_t>(result.as_string().size() / 64));
        if (result.is(Value::Kind::List)) charge(static_cast<int64_t>(result.as_list().size()));
        return result;
    }
    case K::Concat: {
        std::string text = to_str(eval(*e.children[0]), limits_);
        const std::string right = to_str(eval(*e.children[1]), limits_);
        check_string_size(text.size() + right.size(), limits_);
        text += right;
        charge(static_cast<int64_t>(text.size() / 64));
        return Value::string(std::move(text));
    }
    case K::Compare: return eval_compare(e);
    case K::Conditional:
        if (truthy(eval(*e.children[0]))) return eval(*e.children[1]);
        if (e.children.size() > 2) return eval(*e.children[2]);
        return Value::undefined("the conditional expression has no else branch");
    }
    return Value();
}

}  // namespace halogen::jinja
