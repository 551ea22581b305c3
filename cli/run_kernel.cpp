// halogen run / show (run_kernel.h).
#include "cli/run_kernel.h"

#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"
#include "frontend/formats/npy.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/kernel.h"
#include "schedules/registry.h"

namespace halogen {

int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path) {
    const Family &f = find_family(family);
    const FamilyKernel k = FamilyKernel::aot(family, variant.empty() ? default_variant(family).name : variant);
    std::map<std::string, Array> arrays;
    BufferRefs refs;
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, path] : inputs) {
        const auto names = f.contract.input_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            throw Error(fmt::format("{}: unknown input '{}' (it takes {})", family, name, f.contract.describe()));
        }
        try {
            arrays.emplace(name, read_npy(path));
        } catch (const Error &e) {
            throw Error(fmt::format("{}: input '{}': {}", family, name, e.what()));
        }
        refs.emplace(name, arrays.at(name).ref());
        shapes[name] = arrays.at(name).shape();
    }
    // Every shape and dtype is checked against the family's layouts before the kernel runs.
    Array out(f.graph().outputs().at(0).dtype(), k.output_shape(shapes));
    k.run(refs, out.ref());
    write_npy(output_path, out);
    std::cerr << fmt::format("{} {}: wrote {} {}\n", family, k.variant().name, output_path, dims_str(out.shape()));
    return 0;
}

int show_kernel(const std::string &family, const std::string &variant, bool c_source) {
    find_variant(family, variant);   // Error naming the known families and variants
    const AotKernel *k = find_aot_kernel(family, variant);
    if (!k) throw Error(fmt::format("{} {}: no AOT kernel was built for this variant", family, variant));
    const char *path = c_source ? k->c_source_path : k->stmt_path;
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("{} {}: {} is missing (rebuild)", family, variant, path));
    std::cout << in.rdbuf();
    return 0;
}

std::string families_help() {
    std::string out;
    for (const Family &f : families()) {
        std::vector<std::string> vs;
        for (const Variant &v : variants_of(f.name)) vs.push_back(v.is_default ? v.name + " (default)" : v.name);
        out += fmt::format("  {:<10} {}\n             {}\n             variants: {}\n", f.name, f.contract.describe(),
                           f.notes, fmt::join(vs, ", "));
    }
    return out;
}

}  // namespace halogen
