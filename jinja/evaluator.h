// Renders a parsed template (ast.h): statements to text, expressions to values, with Jinja's
// scoping (each for-loop iteration and each macro call is a scope of its own; `if` is not; a
// namespace is the way out of a loop), the variables given, and the built-in functions
// (namespace, raise_exception, strftime_now, range, dict). Every render is bounded by Limits:
// steps, output size, string and list sizes, recursion depth.
#pragma once

#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jinja/ast.h"
#include "jinja/limits.h"
#include "jinja/value.h"

namespace halogen::jinja {

using Variables = std::map<std::string, Value>;

struct RenderOptions {
    std::optional<std::tm> now;   // what strftime_now() formats; the current local time when absent
};

// One level of variables: the render's top level, a loop iteration or a macro call.
struct Scope {
    std::shared_ptr<Scope> parent;
    std::vector<std::pair<std::string, Value>> vars;
    const Value *find(const std::string &name) const;
    void set(const std::string &name, Value value);
};

class Evaluator {
public:
    Evaluator(const Limits &limits, const Variables &variables, const RenderOptions &options);

    std::string render(const Body &body);

    // For filters, tests, methods and built-ins.
    const Limits &limits() const { return limits_; }
    const RenderOptions &options() const { return options_; }
    void charge(int64_t steps);                                     // counts work; fails past max_steps
    Value call(const Value &callee, const CallArgs &args, int line);
    Value call_macro(const Node &macro, const std::weak_ptr<Scope> &closure, const CallArgs &args, int line);

private:
    enum class Flow { Normal, Break, Continue };
    friend class Depth;

    Flow exec(const Body &body, std::string &out);
    Flow exec(const Node &node, std::string &out);
    Flow exec_for(const Node &node, std::string &out);
    void assign(const std::vector<std::string> &targets, const Value &value, int line);
    void append(std::string &out, const std::string &text);
    Value eval(const Expr &e);
    Value eval_inner(const Expr &e);
    Value eval_compare(const Expr &e);
    CallArgs eval_args(const Expr &e, size_t first);
    Value lookup(const std::string &name) const;

    const Limits &limits_;
    const Variables &variables_;
    const RenderOptions &options_;
    Variables builtins_;
    std::shared_ptr<Scope> scope_;
    int64_t steps_ = 0;
    int depth_ = 0;
};

// One level of evaluation depth, bounded by Limits::max_call_depth.
class Depth {
public:
    Depth(Evaluator &ev, int line);
    ~Depth() { --ev_.depth_; }
    Depth(const Depth &) = delete;
    Depth &operator=(const Depth &) = delete;

private:
    Evaluator &ev_;
};

}  // namespace halogen::jinja
