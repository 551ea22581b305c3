// Binds the arguments of a call, filter, test or method to its parameter names, as Python
// would: positional first, then by keyword; too many, an unknown keyword or one given twice is
// a TemplateError naming the callee ("the filter 'join' takes at most 2 argument(s)").
#pragma once

#include <string>
#include <vector>

#include "jinja/value.h"

namespace halogen::jinja {

class BoundArgs {
public:
    // `what` names the callee in messages ("the filter 'join'"); `names` are its parameters after
    // the value it applies to.
    BoundArgs(const CallArgs &args, std::string what, const std::vector<const char *> &names);

    bool has(size_t i) const { return given_[i] != nullptr; }
    const Value &get(size_t i) const;                   // a given argument (an error if missing)
    Value get_or(size_t i, Value fallback) const;       // the argument, or the fallback
    const std::string &what() const { return what_; }

private:
    std::string what_;
    std::vector<const char *> names_;
    std::vector<const Value *> given_;
};

}  // namespace halogen::jinja
