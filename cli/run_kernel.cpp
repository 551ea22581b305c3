// halogen run / show.
#include "cli/run_kernel.h"

#include <algorithm>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/families.h"
#include "frontend/npy.h"
#include "halide_gen/aot_runner.h"
#include "schedules/variants.h"

namespace halogen {

namespace {

const AotKernel &kernel_for(const std::string &family, const std::string &variant) {
    make_family(family);              // Error naming the known families
    find_variant(family, variant);    // Error naming the known variants
    const AotKernel *k = find_aot_kernel(family, variant);
    if (!k) throw Error(fmt::format("{} {}: no AOT kernel was built for this variant", family, variant));
    return *k;
}

}  // namespace

int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path) {
    const AotKernel &k = kernel_for(family, variant);
    Family f = make_family(family);
    std::map<std::string, Array> arrays;
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, path] : inputs) {
        if (std::find(f.inputs.begin(), f.inputs.end(), name) == f.inputs.end()) {
            throw Error(fmt::format("{}: unknown input '{}' (inputs: {}; {})", family, name, fmt::join(f.inputs, ", "), f.contract));
        }
        arrays.emplace(name, read_npy(path));
        shapes[name] = arrays.at(name).shape();
    }
    for (const std::string &name : f.inputs) {
        if (!arrays.count(name)) throw Error(fmt::format("{}: input '{}' is missing ({})", family, name, f.contract));
    }
    // Every shape and dtype is checked against the family before the kernel runs.
    const Bindings b = bind_family(f, shapes);
    f.graph.check_bindings(b);
    for (const Node *n : f.graph.inputs()) {
        const Array &a = arrays.at(n->name);
        check_buffer(*n, fmt::format("{} input '{}' ({})", family, n->name, inputs.at(n->name)), a.dtype(), a.shape(), b);
    }
    const Node &out_node = f.graph.outputs()[0].node();
    Array out(out_node.dtype, eval_shape(out_node.shape, b, family + " output"));
    std::map<std::string, BufferRef> refs;
    for (auto &[name, a] : arrays) refs.emplace(name, a.ref());
    if (out.size() > 0) run_aot(k, refs, out.ref());
    write_npy(output_path, out);
    std::cerr << fmt::format("{} {}: wrote {} {}\n", family, variant, output_path, dims_str(out.shape()));
    return 0;
}

int show_kernel(const std::string &family, const std::string &variant, bool c_source) {
    const AotKernel &k = kernel_for(family, variant);
    const char *path = c_source ? k.c_source_path : k.stmt_path;
    std::ifstream f(path);
    if (!f) throw Error(fmt::format("{} {}: {} is missing (rebuild)", family, variant, path));
    std::cout << f.rdbuf();
    return 0;
}

std::string families_help() {
    std::string out;
    for (const std::string &name : family_names()) {
        Family f = make_family(name);
        std::vector<std::string> vs;
        for (const Variant &v : variants_of(name)) vs.push_back(v.name);
        out += fmt::format("  {:<10} inputs {}: {}\n             variants: {}\n", name, fmt::join(f.inputs, ", "), f.contract,
                           fmt::join(vs, ", "));
    }
    return out;
}

}  // namespace halogen
