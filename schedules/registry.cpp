// The registry (registry.h), expanded from registry.def.
#include "schedules/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"
#include "registry_homes.h"   // every home's header (schedules/homes.cmake writes it)

namespace halogen {

namespace {

enum Flags : unsigned {
    kDefault = 1,
    kRewriteOneHot = 2,
    kUnfused = 4,
    kStreamingStores = 8,
    kProbeFirst = 16,
    kClampInputs = 32,
};

Variant variant(const std::string &family, const std::string &name, ScheduleFn schedule, unsigned flags,
                const std::string &summary, const std::string &autoscheduler = "") {
    Variant v;
    v.family = family;
    v.name = name;
    v.summary = summary;
    v.recipe.name = family + " " + name;
    v.recipe.rewrite_one_hot = flags & kRewriteOneHot;
    v.recipe.fuse_reductions = !(flags & kUnfused);
    v.recipe.clamp_inputs = flags & kClampInputs;
    v.recipe.autoscheduler = autoscheduler;
    v.recipe.schedule = std::move(schedule);
    v.streaming_stores = flags & kStreamingStores;
    v.is_default = flags & kDefault;
    v.probe_first = flags & kProbeFirst;
    return v;
}

struct Registry {
    std::vector<Family> families;
    std::map<std::string, std::vector<Variant>> variants;

    Registry() {
#define HALOGEN_FAMILY(name, definition) families.push_back(definition());
#define HALOGEN_VARIANT(family, name, schedule, flags, summary) \
    variants[#family].push_back(variant(#family, #name, schedule, flags, summary));
#define HALOGEN_AUTOSCHEDULERS(family, flags)                                                                   \
    variants[#family].push_back(variant(#family, "adams2019", nullptr, flags, "Halide's Adams2019 autoscheduler", \
                                        "Adams2019"));                                                           \
    variants[#family].push_back(variant(#family, "mullapudi2016", nullptr, flags,                               \
                                        "Halide's Mullapudi2016 autoscheduler", "Mullapudi2016"));              \
    variants[#family].push_back(variant(#family, "li2018", nullptr, flags, "Halide's Li2018 autoscheduler", "Li2018"));
#include "schedules/registry.def"
#undef HALOGEN_FAMILY
#undef HALOGEN_VARIANT
#undef HALOGEN_AUTOSCHEDULERS
        for (const Family &f : families) {
            int defaults = 0;
            for (const Variant &v : variants[f.name]) defaults += v.is_default;
            if (defaults != 1) {
                throw Error(fmt::format("registry: family '{}' has {} default variants, needs one", f.name, defaults));
            }
        }
    }
};

const Registry &registry() {
    static const Registry r;
    return r;
}

}  // namespace

const std::vector<Family> &families() { return registry().families; }

std::vector<std::string> family_names() {
    std::vector<std::string> out;
    for (const Family &f : families()) out.push_back(f.name);
    return out;
}

const Family &find_family(const std::string &name) {
    for (const Family &f : families()) {
        if (f.name == name) return f;
    }
    throw Error(fmt::format("unknown family '{}' (known: {})", name, fmt::join(family_names(), ", ")));
}

std::vector<const Family *> select_families(const std::string &name) {
    std::vector<const Family *> out;
    std::vector<std::string> homes;
    for (const Family &f : families()) {
        if (name == "all" || f.name == name || f.home == name) out.push_back(&f);
        if (homes.empty() || homes.back() != f.home) homes.push_back(f.home);
    }
    if (out.empty()) {
        throw Error(fmt::format("unknown family '{}' (known: {}; or a group of them: {}; or all)", name,
                                fmt::join(family_names(), ", "), fmt::join(homes, ", ")));
    }
    return out;
}

const std::vector<Variant> &variants_of(const std::string &family) {
    find_family(family);
    return registry().variants.at(family);
}

const Variant &find_variant(const std::string &family, const std::string &name) {
    const auto &all = variants_of(family);
    for (const Variant &v : all) {
        if (v.name == name) return v;
    }
    std::vector<std::string> names;
    for (const Variant &v : all) names.push_back(v.name);
    throw Error(fmt::format("family '{}' has no variant '{}' (known: {})", family, name, fmt::join(names, ", ")));
}

const Variant &default_variant(const std::string &family) {
    for (const Variant &v : variants_of(family)) {
        if (v.is_default) return v;
    }
    throw Error(fmt::format("family '{}' has no default variant", family));
}

}  // namespace halogen
