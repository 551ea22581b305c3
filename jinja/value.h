// The values a chat template computes with, as Jinja (Python) has them: undefined, none, bool,
// int, float, string, list (or tuple), dict (insertion-ordered), namespace (the one mutable
// kind: `{% set ns.x = ... %}`) and function (a macro, a built-in, a bound method).
// Lists and dicts are immutable and shared; a value knows how deeply it nests, so that no
// template can build one deep enough to overflow the stack when printed or freed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace halogen::jinja {

class Value;
class Evaluator;
using List = std::vector<Value>;

// Keyword and positional arguments of a call, a filter or a test.
struct CallArgs {
    std::vector<Value> positional;
    std::vector<std::pair<std::string, Value>> keyword;
};

// A callable value. `call` gets the arguments, the evaluator (for limits, scopes and output
// settings) and the line of the call, for its errors.
struct Function {
    std::string name;   // as messages name it: "namespace", "macro 'm'", "str.upper"
    std::function<Value(const CallArgs &, Evaluator &, int line)> call;
};

// An insertion-ordered mapping with Python's key equality (1 and 1.0 and true are one key).
struct Dict {
    std::vector<std::pair<Value, Value>> entries;
    const Value *find(const Value &key) const;
    const Value *find(const std::string &key) const;
    void set(Value key, Value value);
};

class Value {
public:
    enum class Kind { Undefined, None, Bool, Int, Float, String, List, Dict, Namespace, Function };

    Value() = default;   // undefined, with no name
    static Value undefined(std::string name);
    static Value none();
    static Value boolean(bool b);
    static Value integer(int64_t i);
    static Value number(double d);
    static Value string(std::string s);
    static Value list(List items, bool tuple = false);
    static Value dict(Dict d);
    static Value ns(Dict attrs);
    // `depth` is that of the values the function holds (a bound method's receiver), plus one.
    static Value function(std::string name, std::function<Value(const CallArgs &, Evaluator &, int)> call,
                          int depth = 0);

    Kind kind() const { return kind_; }
    bool is(Kind k) const { return kind_ == k; }
    bool is_undefined() const { return kind_ == Kind::Undefined; }
    bool is_none() const { return kind_ == Kind::None; }
    bool is_string() const { return kind_ == Kind::String; }
    bool is_number() const { return kind_ == Kind::Bool || kind_ == Kind::Int || kind_ == Kind::Float; }
    bool is_integral() const { return kind_ == Kind::Bool || kind_ == Kind::Int; }   // Python's int, bool included

    bool as_bool() const { return b_; }
    int64_t as_int() const { return kind_ == Kind::Bool ? (b_ ? 1 : 0) : i_; }   // Bool or Int
    double as_float() const { return kind_ == Kind::Float ? f_ : static_cast<double>(as_int()); }
    const std::string &as_string() const { return s_; }   // String; an Undefined's name
    const List &as_list() const { return *list_; }
    bool is_tuple() const { return tuple_; }
    const Dict &as_dict() const { return *dict_; }        // Dict, or a Namespace's attributes
    Dict &namespace_attrs() const { return *ns_; }
    const Function &as_function() const { return *fn_; }

    int depth() const { return depth_; }                  // 0 for a scalar; 1 + the deepest item
    bool holds_namespace() const { return holds_ns_; }    // is or contains a namespace

private:
    Kind kind_ = Kind::Undefined;
    bool b_ = false;
    bool tuple_ = false;
    bool holds_ns_ = false;
    int depth_ = 0;
    int64_t i_ = 0;
    double f_ = 0;
    std::string s_;
    std::shared_ptr<const List> list_;
    std::shared_ptr<const Dict> dict_;
    std::shared_ptr<Dict> ns_;
    std::shared_ptr<const Function> fn_;
};

// Python's type name of a value, for messages: 'int', 'str', 'list', 'dict', 'NoneType', ...
const char *type_name(const Value &v);

}  // namespace halogen::jinja
