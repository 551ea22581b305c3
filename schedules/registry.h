// The registry of families and variants, made from registry.def: the only list of them in the tree.
#pragma once

#include <string>
#include <vector>

#include "schedules/family.h"

namespace halogen {

// Every family, in registry.def's order.
const std::vector<Family> &families();
std::vector<std::string> family_names();
// Error naming the known families when there is none of that name.
const Family &find_family(const std::string &name);
// The families of `name`: one family, every family of a home ("norms"), or all of them ("all").
// Error naming the choices otherwise.
std::vector<const Family *> select_families(const std::string &name);

// A family's variants, in registry.def's order.
const std::vector<Variant> &variants_of(const std::string &family);
const Variant &find_variant(const std::string &family, const std::string &variant);
const Variant &default_variant(const std::string &family);

}  // namespace halogen
