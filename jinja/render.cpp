// The statement half of the evaluator (evaluator.h): output, if, for, set, macros, break and
// continue, scopes and the bounds on work, output and depth.
#include "jinja/builtins.h"
#include "jinja/evaluator.h"
#include "jinja/template_error.h"
#include "jinja/value_ops.h"

namespace halogen::jinja {

const Value *Scope::find(const std::string &name) const {
    for (const auto &entry : vars)
        if (entry.first == name) return &entry.second;
    return nullptr;
}

void Scope::set(const std::string &name, Value value) {
    for (auto &entry : vars)
        if (entry.first == name) {
            entry.second = std::move(value);
            return;
        }
    vars.emplace_back(name, std::move(value));
}

Depth::Depth(Evaluator &ev, int line) : ev_(ev) {
    if (++ev_.depth_ > ev_.limits_.max_call_depth) {
        --ev_.depth_;
        throw TemplateError(line, "the template recurses deeper than " + std::to_string(ev_.limits_.max_call_depth) +
                                      " levels (the limit)");
    }
}

Evaluator::Evaluator(const Limits &limits, const Variables &variables, const RenderOptions &options)
    : limits_(limits), variables_(variables), options_(options), builtins_(builtin_functions()),
      scope_(std::make_shared<Scope>()) {
    take_work();   // work counted outside a render is not this render's
}

void Evaluator::charge(int64_t steps) {
    steps_ += steps + take_work();
    if (steps_ > limits_.max_steps)
        throw TemplateError(0, "the render took more than " + std::to_string(limits_.max_steps) +
                                   " steps (the limit; a loop that does not end?)");
}

std::string Evaluator::render(const Body &body) {
    std::string out;
    exec(body, out);
    return out;
}

void Evaluator::append(std::string &out, const std::string &text) {
    if (out.size() + text.size() > limits_.max_output_bytes)
        throw TemplateError(0, "the output grew past " + std::to_string(limits_.max_output_bytes) + " bytes (the limit)");
    charge(static_cast<int64_t>(text.size() / 64));
    out += text;
}

Value Evaluator::lookup(const std::string &name) const {
    for (const Scope *s = scope_.get(); s; s = s->parent.get())
        if (const Value *v = s->find(name)) return *v;
    if (auto it = variables_.find(name); it != variables_.end()) return it->second;
    if (auto it = builtins_.find(name); it != builtins_.end()) return it->second;
    return Value::undefined("'" + name + "' is undefined");
}

Evaluator::Flow Evaluator::exec(const Body &body, std::string &out) {
    for (const NodePtr &node : body) {
        const Flow flow = exec(*node, out);
        if (flow != Flow::Normal) return flow;
    }
    return Flow::Normal;
}

void Evaluator::assign(const std::vector<std::string> &targets, const Value &value, int line) {
    if (targets.size() == 1) return scope_->set(targets[0], value);
    if (value.is_undefined()) fail_undefined(value);
    const List items = iterate(value);
    if (items.size() != targets.size())
        throw TemplateError(line, (items.size() > targets.size() ? "too many values to unpack (expected "
                                                                 : "not enough values to unpack (expected ") +
                                      std::to_string(targets.size()) + ", got " + std::to_string(items.size()) + ")");
    for (size_t i = 0; i < targets.size(); ++i) scope_->set(targets[i], items[i]);
}

// Restores the scope on the way out of a loop iteration or a macro call, errors included.
class ScopeGuard {
public:
    ScopeGuard(std::shared_ptr<Scope> &slot, std::shared_ptr<Scope> inner) : slot_(slot), outer_(slot) {
        slot_ = std::move(inner);
    }
    ~ScopeGuard() { slot_ = outer_; }
    ScopeGuard(const ScopeGuard &) = delete;
    ScopeGuard &operator=(const ScopeGuard &) = delete;

private:
    std::shared_ptr<Scope> &slot_;
    std::shared_ptr<Scope> outer_;
};

Evaluator::Flow Evaluator::exec_for(const Node &node, std::string &out) {
    const Value iterable = eval(*node.expr);
    if (iterable.is(Value::Kind::Namespace) || iterable.is(Value::Kind::Function) || iterable.is_number() ||
        iterable.is_none())
        throw TemplateError(node.line, std::string("'") + type_name(iterable) + "' object is not iterable");
    List items = iterate(iterable);
    charge(static_cast<int64_t>(items.size()));
    if (node.filter) {
        List kept;
        for (const Value &item : items) {
            ScopeGuard guard(scope_, std::make_shared<Scope>(Scope{scope_, {}}));
            assign(node.targets, item, node.line);
            if (truthy(eval(*node.filter))) kept.push_back(item);
        }
        items = std::move(kept);
    }
    const auto n = static_cast<int64_t>(items.size());
    for (int64_t i = 0; i < n; ++i) {
        charge(1);
        ScopeGuard guard(scope_, std::make_shared<Scope>(Scope{scope_, {}}));
        assign(node.targets, items[static_cast<size_t>(i)], node.line);
        Dict loop;
        loop.entries.reserve(11);
        auto put = [&](const char *key, Value v) { loop.entries.emplace_back(Value::string(key), std::move(v)); };
        put("index", Value::integer(i + 1));
        put("index0", Value::integer(i));
        put("revindex", Value::integer(n - i));
        put("revindex0", Value::integer(n - i - 1));
        put("first", Value::boolean(i == 0));
        put("last", Value::boolean(i == n - 1));
        put("length", Value::integer(n));
        put("depth", Value::integer(1));
        put("depth0", Value::integer(0));
        if (i > 0) put("previtem", items[static_cast<size_t>(i - 1)]);
        if (i + 1 < n) put("nextitem", items[static_cast<size_t>(i + 1)]);
        scope_->set("loop", Value::dict(std::move(loop)));
        if (exec(node.body, out) == Flow::Break) break;
    }
    if (n == 0) return exec(node.else_body, out);
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec(const Node &node, std::string &out) {
    Depth depth(*this, node.line);
    try {
        switch (node.kind) {
        case Node::Kind::Text: append(out, node.text); return Flow::Normal;
        case Node::Kind::Output: append(out, to_str(eval(*node.expr), limits_)); return Flow::Normal;
        case Node::Kind::If:
            for (const auto &[cond, body] : node.branches)
                if (truthy(eval(*cond))) return exec(body, out);
            return exec(node.else_body, out);
        case Node::Kind::For: return exec_for(node, out);
        case Node::Kind::Set: assign(node.targets, eval(*node.expr), node.line); return Flow::Normal;
        case Node::Kind::SetAttr: {
            const Value target = lookup(node.targets[0]);
            if (!target.is(Value::Kind::Namespace))
                throw TemplateError(node.line, "cannot assign the attribute '" + node.targets[1] + "' of '" +
                                                   node.targets[0] + "', which is not a namespace");
            Value value = eval(*node.expr);
            if (value.holds_namespace())
                throw TemplateError(node.line, "a namespace cannot hold another namespace ('" + node.targets[0] + "." +
                                                   node.targets[1] + "')");
            if (value.depth() > limits_.max_nesting)
                throw TemplateError(node.line, "a namespace holds values nested at most " +
                                                   std::to_string(limits_.max_nesting) + " levels deep");
            target.namespace_attrs().set(Value::string(node.targets[1]), std::move(value));
            return Flow::Normal;
        }
        case Node::Kind::SetBlock: {
            std::string text;
            const Flow flow = exec(node.body, text);
            if (flow != Flow::Normal) return flow;   // a break or continue leaves the loop before the set, as in Jinja
            scope_->set(node.targets[0], Value::string(std::move(text)));
            return Flow::Normal;
        }
        case Node::Kind::Macro: {
            const Node *macro = &node;
            const std::weak_ptr<Scope> closure = scope_;
            scope_->set(node.targets[0],
                        Value::function("macro '" + node.targets[0] + "'",
                                        [macro, closure](const CallArgs &args, Evaluator &ev, int line) {
                                            return ev.call_macro(*macro, closure, args, line);
                                        }));
            return Flow::Normal;
        }
        case Node::Kind::Scoped: {
            ScopeGuard guard(scope_, std::make_shared<Scope>(Scope{scope_, {}}));
            exec(node.body, out);
            return Flow::Normal;
        }
        case Node::Kind::Break: return Flow::Break;
        case Node::Kind::Continue: return Flow::Continue;
        }
    } catch (const TemplateError &e) {
        if (e.line() != 0) throw;
        if (const auto *raised = dynamic_cast<const TemplateRaised *>(&e)) throw TemplateRaised(node.line, raised->message());
        throw TemplateError(node.line, e.detail());
    }
    return Flow::Normal;
}

Value Evaluator::call_macro(const Node &macro, const std::weak_ptr<Scope> &closure, const CallArgs &args, int line) {
    std::shared_ptr<Scope> parent = closure.lock();
    if (!parent) throw TemplateError(line, "the macro '" + macro.targets[0] + "' is called after its scope ended");
    charge(1);
    const std::string &name = macro.targets[0];
    if (args.positional.size() > macro.params.size())
        throw TemplateError(line, "the macro '" + name + "' takes at most " + std::to_string(macro.params.size()) +
                                      " argument(s), got " + std::to_string(args.positional.size()));
    std::vector<const Value *> given(macro.params.size(), nullptr);
    for (size_t i = 0; i < args.positional.size(); ++i) given[i] = &args.positional[i];
    for (const auto &[key, value] : args.keyword) {
        size_t i = 0;
        while (i < macro.params.size() && macro.params[i] != key) ++i;
        if (i == macro.params.size()) throw TemplateError(line, "the macro '" + name + "' takes no argument named '" + key + "'");
        if (given[i]) throw TemplateError(line, "the macro '" + name + "' got the argument '" + key + "' twice");
        given[i] = &value;
    }
    ScopeGuard guard(scope_, std::make_shared<Scope>(Scope{parent, {}}));
    for (size_t i = 0; i < macro.params.size(); ++i) {
        if (given[i]) scope_->set(macro.params[i], *given[i]);
        else if (macro.defaults[i]) scope_->set(macro.params[i], eval(*macro.defaults[i]));
        else scope_->set(macro.params[i], Value::undefined("the macro '" + name + "' was called without '" + macro.params[i] + "'"));
    }
    std::string text;
    exec(macro.body, text);
    return Value::string(std::move(text));
}

}  // namespace halogen::jinja
