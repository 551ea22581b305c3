// What a family is: one op halogen ships as kernels (embedding, layernorm, conv2d, ...). Its home,
// schedules/<home>/, holds what it computes and how it is scheduled -- the op and its graph (built
// with the nn layer), the caller's layouts, the typical extents an autoscheduler plans for, the
// cases its flags describe (`halogen compare`'s, a smoke test's) and its variants' hand schedules.
// The registry (registry.def) lists the families and their variants; nothing else in the tree
// does. Which cases perf times and holds to its goals is perf's (perf/catalogue/).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/contract.h"
#include "halide_gen/compiler/recipe.h"

namespace halogen {

// A variant: how the family's graph is prepared, grouped and scheduled (registry.def).
struct Variant {
    std::string family, name, summary;
    Recipe recipe;
    // Write a large output with non-temporal stores (where a vector store is aligned): it would not
    // stay in the cache anyway, and a cached store first reads the line it writes. Halide 14 has no
    // directive for it: the AOT build adds a twin kernel whose compiled stores are rewritten
    // (halide_gen/compiler/streaming_stores.h), and the run path calls it from
    // streaming_threshold_bytes() of output on. JIT kernels keep cached stores.
    bool streaming_stores = false;
    bool is_default = false;    // what `halogen run` takes without --schedule, and perf's goals time
    bool probe_first = false;   // its cost grows far beyond the useful work: timed on a probe first
};

// Inputs of a case as a caller holds them, made on first use.
struct CaseInputs {
    BufferRefs refs;                              // by input name, in the caller's layout
    Bindings dims;                                // parameters the call sets (GroupNorm's G)
    std::vector<std::shared_ptr<const void>> owners;
    std::vector<int64_t> out_shape;               // the output in the caller's layout
    // Inputs a loop of calls reads from DRAM (Family::dram_cases) come in sets, one per call.
    // Input sets cycled in place (embedding ids that touch more rows than the caches hold):
    // use_set(k) puts set k in place. One set: nothing to do.
    int64_t sets = 1;
    std::function<void(int64_t)> use_set;
    // Or buffers of their own per call (weights or KV caches that together outgrow the caches):
    // call k takes buffer_sets[k % n], where buffer_sets[0] is `refs`.
    std::vector<BufferRefs> buffer_sets;
};

// A smaller call whose time, times `scale`, predicts the whole call's: how `halogen compare` and
// perf keep a call they would run within their time budget.
struct Probe {
    BufferRefs refs;
    Bindings dims;
    std::vector<int64_t> out_shape;
    double scale = 1;
};

struct Family;

// One problem a family's kernels run on.
struct Case {
    std::string family;
    std::string label;            // "V=128256,D=4096,T=16,ids=hot"; compare and perf name it family:label
    std::function<CaseInputs()> make;
    double flops = 0;             // useful floating-point work of one call (compute-bound families)
    double bytes = 0;             // bytes one O(n) call reads and writes (memory-bound families)
    double interpreter_work = 0;  // elements the interpreter would materialize for it
    double tolerance = 1e-3;      // largest |difference| from the reference that counts as equal
    std::function<std::string(const Variant &)> work;   // a variant's work as compare states it: "268G MAC"
    std::function<Probe(const CaseInputs &, const Variant &)> probe;
    // Set when the case needs a graph of its own (a conv geometry the AOT kernels do not take):
    // every variant is JIT-compiled for it.
    std::shared_ptr<const Family> jit;
};

// A run-time parameter of a family: a rank-0 input with a default (`eps`) or a symbolic dim the
// caller may set (GroupNorm's `G`), which `halogen run` and `compare` take as --<flag>.
struct Parameter {
    std::string flag;     // "eps", "groups", "stride"
    std::string target;   // the input or the symbol it sets; "" for a geometry (other_geometry)
    std::string help;
};

// The flags `halogen compare` takes for a family, and the case they describe.
struct CaseOption {
    std::string flag;   // "shape", "vocab": --shape, --vocab
    std::string help;
};
using CaseArgs = std::map<std::string, std::string>;

struct Family {
    std::string name;                  // "layernorm"
    std::string home;                  // "norms": its folder, and a name `compare` takes for all of it
    // The op it computes: the nn function its graph is built with (nn::ops::kLayerNorm,
    // "nn.layer_norm"). Families of one op take the same inputs, so whatever serves an op (perf's
    // peers and benchmark catalogue) serves each of them; nothing outside the homes names a family.
    std::string op;
    Contract contract;                 // the kernel's graph and the caller's layouts
    Bindings typical;                  // typical extents of the symbolic dims (autoscheduler estimates)
    std::vector<CaseOption> options;
    std::vector<Parameter> parameters;
    // The case these flags describe, a flag left out taking the default its help names: the cases
    // `halogen compare` runs and perf times are all made here. Empty when the flags describe
    // another family of the home (a conv shape of another rank); ShapeError for flags that
    // describe no valid problem or leave out one without a default (conv's --shape).
    std::function<std::vector<Case>(const CaseArgs &args)> cases;
    // The same case with inputs every call of a loop reads from DRAM (CaseInputs::sets or
    // buffer_sets: weights or KV caches cycled through copies, ids drawn afresh), and a label that
    // says so; unset when the family's inputs have no such form.
    std::function<std::vector<Case>(const CaseArgs &args)> dram_cases;
    std::vector<CaseArgs> compare_cases;   // the cases `halogen compare` runs without flags
    // A case of a few elements: every variant's smoke test (tests/registry), and the case perf
    // reads a peer's operations for the family off.
    CaseArgs tiny_case;
    std::string notes;                 // for --help: parameters and semantics in a line
    // Families that take ids (embedding): how many of them fall outside the range the family reads
    // a row for, and that range ("[0, 128256)"). Such an id gives a defined result (a zero row);
    // `halogen run` says how many there were, and with --strict-ids refuses them as PyTorch does.
    std::function<std::pair<int64_t, std::string>(const BufferRefs &)> ids_out_of_range;
    // Families whose AOT kernels take one geometry (conv: 3-wide windows, stride 1, padding 1): the
    // family of the geometry these input shapes and geometry parameters ask for, JIT-compiled by
    // `halogen run`; nullptr when the AOT kernels take it.
    std::function<std::shared_ptr<const Family>(const std::map<std::string, std::vector<int64_t>> &shapes,
                                                const CaseArgs &geometry)>
        other_geometry;

    const Graph &graph() const { return contract.graph(); }
};

}  // namespace halogen
