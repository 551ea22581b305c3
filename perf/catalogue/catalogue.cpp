// The catalogues registered (catalogue.h), by op.
#include "perf/catalogue/catalogue.h"

#include <map>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen::perf {

namespace {

// Filled by the catalogue files' static RegisterCatalogue objects, before main().
std::map<std::string, Catalogue> &catalogues() {
    static std::map<std::string, Catalogue> by_op;
    return by_op;
}

}  // namespace

RegisterCatalogue::RegisterCatalogue(const std::string &op, Catalogue catalogue) {
    if (!catalogues().emplace(op, std::move(catalogue)).second) {
        throw Error(fmt::format("perf: two benchmark catalogues for the op {}", op));
    }
}

const Catalogue *catalogue_of(const std::string &op) {
    auto it = catalogues().find(op);
    return it == catalogues().end() ? nullptr : &it->second;
}

std::vector<std::string> catalogued_ops() {
    std::vector<std::string> ops;
    for (const auto &[op, _] : catalogues()) ops.push_back(op);
    return ops;
}

}  // namespace halogen::perf
