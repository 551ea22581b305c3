// Graphs compiled once and kept in the kernel cache (compile_cache.h).
#include "halide_gen/compiler/compile_cache.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/graph_fingerprint.h"
#include "halide_gen/compiler/build_ids.h"
#include "halide_gen/compiler/pipeline.h"
#include "halide_gen/compiler/program.h"
#include "halide_gen/compiler/shared_object.h"
#include "halide_gen/compiler/types.h"
#include "halide_gen/runtime/kernel_cache.h"
#include "halide_gen/runtime/kernel_library.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char *kFunction = "halogen_program";

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The target a library is compiled for: the JIT's CPU features, ahead of time, large buffers.
Halide::Target library_target(const Halide::Target &target) {
    return target.without_feature(Halide::Target::JIT).with_feature(Halide::Target::LargeBuffers);
}

LibrarySignature signature_of(const Graph &g) {
    LibrarySignature s;
    s.function = kFunction;
    for (const Node *n : g.inputs()) s.buffers.push_back(n->name);
    s.dims = scalar_dims(g);
    s.outputs = int(g.outputs().size());
    return s;
}

// The entry's metadata: the kernel count and the arguments it was compiled with, one per line.
std::string metadata_text(const LibrarySignature &s, int kernels) {
    std::string out = fmt::format("kernels {}\noutputs {}\n", kernels, s.outputs);
    for (const std::string &b : s.buffers) out += "buffer " + b + "\n";
    for (const std::string &d : s.dims) out += "dim " + d + "\n";
    return out;
}

void warn(const CompileCacheOptions &o, const std::string &message) {
    if (o.warn) return o.warn(message);
    std::cerr << "halogen: kernel cache: " << message << "\n" << std::flush;
}

// One warning per process for a cache that cannot be filled (no linker, an unwritable folder):
// the graphs are JIT-compiled from then on.
std::mutex fill_mutex;
std::string unfillable;

CompiledGraph jit_compiled(const Graph &g, const Recipe &recipe, const Halide::Target &target, Clock::time_point t0) {
    Program p(g, recipe, {}, target);
    return CompiledGraph(Contract(recipe.name, g), p.entry(), p.kernel_count(), CompiledFrom::jit, seconds_since(t0));
}

// Compiles the graph ahead of time into a shared object's bytes; an empty string and `why` when
// the system cannot link one.
std::string compile_library(const Graph &g, const Recipe &recipe, const Halide::Target &target, int &kernels,
                            std::string &why) {
    PipelineInputs in;
    std::vector<Halide::Argument> args;
    int k = 0;
    for (const Node *n : g.inputs()) {
        Halide::ImageParam p(halide_type(n->dtype), int(n->shape.size()), fmt::format("b{}", k++));
        in.buffers.emplace(n->name, p);
        args.push_back(p);
    }
    k = 0;
    for (const std::string &d : scalar_dims(g)) {
        Halide::Param<int32_t> p(fmt::format("d{}", k++));
        in.scalar_dims.emplace(d, p);
        args.push_back(p);
    }
    const Pipeline pipeline = build_pipeline(g, recipe, in, target);
    kernels = int(pipeline.groups.size());

    char dir_template[] = "/tmp/halogen-compile-XXXXXX";
    const char *dir = mkdtemp(dir_template);
    if (!dir) {
        why = "cannot make a temporary folder to compile in";
        return "";
    }
    const std::string object = std::string(dir) + "/program.o", library = std::string(dir) + "/program.so";
    Halide::Pipeline(pipeline.outputs).compile_to_object(object, args, kFunction, library_target(target));
    why = link_shared_object(object, library);
    std::string bytes;
    if (why.empty()) {
        std::ifstream f(library, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        if (bytes.empty()) why = "the linked library could not be read";
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return bytes;
}

}  // namespace

const char *compiled_from_name(CompiledFrom from) {
    switch (from) {
    case CompiledFrom::cache: return "cache";
    case CompiledFrom::compiled: return "compiled";
    case CompiledFrom::jit: return "jit";
    }
    return "?";
}

CompiledGraph::CompiledGraph(Contract contract, std::shared_ptr<const KernelEntry> entry, int kernels, CompiledFrom from,
                             double seconds)
    : contract_(std::move(contract)), entry_(std::move(entry)), kernels_(kernels), from_(from), seconds_(seconds) {}

void CompiledGraph::run(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &bindings) const {
    run_kernel(contract_, entry_, inputs, outputs, bindings);
}

std::string compile_cache_key(const Graph &g, const Recipe &recipe, const Halide::Target &target) {
    return fmt::format("halogen compiled graph 1\ntarget {}\nhalide {}\nhalogen {}\n"
                       "recipe {:?} rewrite_one_hot={} fuse_reductions={} autoscheduler={:?} clamp_inputs={}\ngraph\n{}",
                       library_target(target).to_string(), library_build_id("libHalide"), executable_build_id(),
                       recipe.name, int(recipe.rewrite_one_hot), int(recipe.fuse_reductions), recipe.autoscheduler,
                       int(recipe.clamp_inputs), graph_fingerprint(g));
}

CompiledGraph compile_graph(const Graph &g, const Recipe &recipe, const CompileCacheOptions &cache,
                            const Halide::Target &target) {
    const auto t0 = Clock::now();
    if (!cache.enabled) return jit_compiled(g, recipe, target, t0);
    {
        const std::lock_guard<std::mutex> lock(fill_mutex);
        if (!unfillable.empty()) return jit_compiled(g, recipe, target, t0);
    }
    const KernelCache store(KernelCache::default_dir(cache.dir));
    const std::string key = compile_cache_key(g, recipe, target);
    const LibrarySignature signature = signature_of(g);
    CacheLookup found = store.find(key);
    if (found.kernel) {
        std::istringstream meta(found.kernel->metadata);
        std::string word;
        int kernels = 0;
        meta >> word >> kernels;
        if (word == "kernels" && kernels > 0 && found.kernel->metadata == metadata_text(signature, kernels)) {
            try {
                auto entry = load_kernel_library(found.kernel->library, signature, recipe.name);
                return CompiledGraph(Contract(recipe.name, g), entry, kernels, CompiledFrom::cache, seconds_since(t0));
            } catch (const Error &e) {
                found.problem = e.what();
            }
        } else {
            found.problem = "its arguments are not the program's";
        }
    }
    if (!found.problem.empty()) warn(cache, fmt::format("{}: {}; compiling it again", store.path_of(key), found.problem));

    int kernels = 0;
    std::string why;
    const std::string library = compile_library(g, recipe, target, kernels, why);
    if (library.empty()) {
        const std::lock_guard<std::mutex> lock(fill_mutex);
        if (unfillable.empty()) {
            unfillable = why;
            warn(cache, fmt::format("{}; compiling without the cache", why));
        }
        return jit_compiled(g, recipe, target, t0);
    }
    if (std::string failed = store.store(key, {metadata_text(signature, kernels), library}); !failed.empty()) {
        const std::lock_guard<std::mutex> lock(fill_mutex);
        if (unfillable.empty()) {
            unfillable = failed;
            warn(cache, fmt::format("{}; compiling without the cache", failed));
        }
    }
    auto entry = load_kernel_library(library, signature, recipe.name);
    return CompiledGraph(Contract(recipe.name, g), entry, kernels, CompiledFrom::compiled, seconds_since(t0));
}

}  // namespace halogen
