// Argument binding (call_args.h).
#include "jinja/call_args.h"

#include <cstring>

#include "jinja/template_error.h"

namespace halogen::jinja {

BoundArgs::BoundArgs(const CallArgs &args, std::string what, const std::vector<const char *> &names)
    : what_(std::move(what)), names_(names), given_(names.size(), nullptr) {
    if (args.positional.size() > names_.size())
        throw TemplateError(0, what_ + " takes at most " + std::to_string(names_.size()) + " argument(s), got " +
                                   std::to_string(args.positional.size()));
    for (size_t i = 0; i < args.positional.size(); ++i) given_[i] = &args.positional[i];
    for (const auto &[key, value] : args.keyword) {
        size_t i = 0;
        while (i < names_.size() && key != names_[i]) ++i;
        if (i == names_.size()) throw TemplateError(0, what_ + " takes no argument named '" + key + "'");
        if (given_[i]) throw TemplateError(0, what_ + " got the argument '" + key + "' twice");
        given_[i] = &value;
    }
}

const Value &BoundArgs::get(size_t i) const {
    if (!given_[i]) throw TemplateError(0, what_ + " needs the argument '" + names_[i] + "'");
    return *given_[i];
}

Value BoundArgs::get_or(size_t i, Value fallback) const { return given_[i] ? *given_[i] : std::move(fallback); }

}  // namespace halogen::jinja
