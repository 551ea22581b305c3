// The polyhedral view of a graph, in isl: every node's iteration domain as an isl set and every
// read as an isl access map, parametric in the symbolic dims. The grouping pass derives fusion
// legality and compute levels from these relations; loop collapse reads their coefficients.
//
// Spaces: V<id>[o...] is node <id>'s value (its output index); I<id>[i...] is a reduction's
// iteration (its input index). A pure node's iteration space is its value space.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include <isl/cpp.h>

#include "frontend/graph.h"

namespace halogen {

class AccessModel {
public:
    AccessModel();
    ~AccessModel();
    AccessModel(const AccessModel &) = delete;
    AccessModel &operator=(const AccessModel &) = delete;

    // { V_n[o] : o inside n's shape }
    isl::set value_domain(const Node &n);
    // { V_n[o] -> V_n[o] } on n's value domain.
    isl::map identity(const Node &n);
    // What computing value o of n iterates over: identity for pure nodes, and for a reduction
    // { V_n[o] -> I_n[i] : i projects to o }. With `pin_reduction_axes`, each reduced axis is fixed
    // to a parameter instead of ranging over its extent, so the relation is single-valued.
    isl::map produce(const Node &n, bool pin_reduction_axes = false);
    // Consumer c's iteration space -> the value space of its k-th input; nullopt when the index
    // is not quasi-affine (a reshape whose strides depend on symbolic dims). A gather's
    // data-dependent index may be any row of its axis, or, with `pin`, a parameter.
    std::optional<isl::map> read(const Node &c, std::size_t k, bool pin = false);

    isl::ctx ctx() const { return ctx_; }

private:
    isl::ctx ctx_;
};

// Composes need_c (anchor -> V_c) with c's iteration and its read of input k: anchor -> V_input.
std::optional<isl::map> compose_read(AccessModel &m, const isl::map &need_c, const Node &c, std::size_t k,
                                     bool pin_reduction_axes = false);

// Is the relation `need` (anchor[o0..o_{r-1}] -> X) injective once only the first `level`
// anchor dims are kept? (Then X's needed points can be computed once per iteration of loop
// `level - 1` of the anchor, with nothing recomputed.)
bool injective_at_level(const isl::map &need, int level);

// The integer coefficient of anchor dim `k` in each output dim of a single-valued, affine map;
// nullopt if the map is not such a map (several pieces disagreeing, or floor/mod terms).
std::optional<std::vector<std::vector<int64_t>>> affine_coefficients(const isl::map &map);

}  // namespace halogen
