// Graphs compiled once per machine, not once per run: compile_graph looks a graph up in the kernel
// cache (halide_gen/runtime/kernel_cache.h) and loads the library stored there, or compiles it --
// grouped, lowered and scheduled by the recipe as Program does, then compiled ahead of time into a
// shared object with its own Halide runtime -- stores it and loads it.
//
// The key is everything that determines the code: the graph's fingerprint
// (frontend/graph_fingerprint.h: every node, shape, dtype and attribute), the recipe's name and
// flags (a recipe's name names its schedule: recipe.h), the target (the CPU's features), and the
// builds of halogen and of Halide (the GNU build ids of the running executable and of libHalide:
// any change to a schedule, the lowering or Halide makes a new key). A stored entry of another
// key, a truncated one or a corrupt one is reported through `warn` and compiled anew.
//
// Filling an entry needs the system's C compiler driver (`cc`, or $HALOGEN_LINKER) to link
// Halide's object into a shared object; without one, or with an unwritable cache folder, graphs
// are JIT-compiled as Program compiles them, after one warning.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <Halide.h>

#include "frontend/contract.h"
#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/recipe.h"
#include "halide_gen/runtime/kernel_call.h"

namespace halogen {

struct CompileCacheOptions {
    bool enabled = true;   // false: JIT-compile; the cache is neither read nor written (--no-cache)
    std::string dir;       // the cache folder; empty: KernelCache::default_dir()
    // Problems with the cache (an entry rebuilt, a folder that cannot be written); stderr when empty.
    std::function<void(const std::string &)> warn;
};

// Where a compiled graph came from.
enum class CompiledFrom {
    cache,      // loaded from the cache
    compiled,   // compiled now, and stored in the cache
    jit,        // JIT-compiled (the cache off or unusable)
};
const char *compiled_from_name(CompiledFrom from);   // "cache", "compiled", "jit"

// A graph compiled into kernels, ready to run through the run path.
class CompiledGraph {
public:
    CompiledGraph(Contract contract, std::shared_ptr<const KernelEntry> entry, int kernels, CompiledFrom from,
                  double seconds);

    const Graph &graph() const { return contract_.graph(); }
    int kernel_count() const { return kernels_; }   // the grouping pass's groups
    CompiledFrom from() const { return from_; }
    double seconds() const { return seconds_; }     // to compile or load it
    std::shared_ptr<const KernelEntry> entry() const { return entry_; }

    // As Program::run: the graph's inputs by name, its outputs in order, bindings for symbolic dims
    // no input's shape holds.
    void run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings = {}) const;

private:
    Contract contract_;
    std::shared_ptr<const KernelEntry> entry_;
    int kernels_ = 0;
    CompiledFrom from_ = CompiledFrom::jit;
    double seconds_ = 0;
};

CompiledGraph compile_graph(const Graph &g, const Recipe &recipe, const CompileCacheOptions &cache = {},
                            const Halide::Target &target = jit_target());

// The cache key of a graph under a recipe and target in this process (what compile_graph looks up).
std::string compile_cache_key(const Graph &g, const Recipe &recipe, const Halide::Target &target = jit_target());

}  // namespace halogen
