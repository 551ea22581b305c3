// halogen run / show (run_kernel.h).
#include "cli/run_kernel.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/errors.h"
#include "formats/npy.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/case_args.h"
#include "schedules/kernel.h"
#include "schedules/registry.h"

namespace halogen {

namespace {

// The file's array as the input takes it: bfloat16 from '<u2' bits as they are or from float32
// rounded to nearest even; any other element type than the input's is refused, naming the file's.
Array read_input(const Family &f, const std::string &name, const std::string &path) {
    std::string file_dtype;
    Array a;
    try {
        a = read_npy(path, &file_dtype);
    } catch (const Error &e) {
        throw Error(fmt::format("{}: input '{}': {}", f.name, name, e.what()));
    }
    DType want = DType::Float32;
    for (const Node *n : f.graph().inputs()) {
        if (n->name == name) want = n->dtype;
    }
    if (a.dtype() == want) return a;
    if (want == DType::BFloat16 && a.dtype() == DType::Float32 && file_dtype == "float32") {
        Array b(DType::BFloat16, a.shape());
        for (int64_t k = 0; k < a.size(); ++k) b.set(k, a.get(k));   // round to nearest even
        return b;
    }
    throw Error(fmt::format("{}: input '{}' ({}) holds {}; it takes {}{}", f.name, name, path, file_dtype,
                            dtype_name(want),
                            want == DType::BFloat16 ? " (bfloat16 comes as '<u2' bit patterns, or float32 rounded at load)"
                            : want == DType::Int32  ? " (int64 is read when every value fits in int32; floats are not ids)"
                                                    : ""));
}

}  // namespace

int run_kernel(const std::string &family, const std::string &variant, const std::map<std::string, std::string> &inputs,
               const std::string &output_path, bool strict_ids, const std::map<std::string, std::string> &parameters) {
    const Family &f = find_family(family);
    if (strict_ids && !f.ids_out_of_range) {
        throw Error(fmt::format("{}: --strict-ids applies to families that take ids (embedding)", family));
    }
    const std::string chosen = variant.empty() ? default_variant(family).name : find_variant(family, variant).name;
    const auto names = f.contract.input_names();
    for (const auto &[name, path] : inputs) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            throw Error(fmt::format("{}: unknown input '{}' (it takes {})", family, name, f.contract.describe()));
        }
    }
    {   // the output path is checked before anything is read or run
        std::ofstream probe(output_path, std::ios::app);
        if (!probe) throw Error(fmt::format("{}: cannot write the output '{}'", family, output_path));
    }
    std::map<std::string, Array> arrays;
    BufferRefs refs;
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto &[name, path] : inputs) {
        arrays.emplace(name, read_input(f, name, path));
        refs.emplace(name, arrays.at(name).ref());
        shapes[name] = arrays.at(name).shape();
    }
    Bindings dims;
    CaseArgs geometry;
    for (const auto &[flag, text] : parameters) {
        auto p = std::find_if(f.parameters.begin(), f.parameters.end(), [&](const Parameter &q) { return q.flag == flag; });
        if (p == f.parameters.end()) {
            std::vector<std::string> flags;
            for (const Parameter &q : f.parameters) flags.push_back("--" + q.flag);
            throw Error(fmt::format("{}: --{} does not apply (it takes {})", family, flag,
                                    flags.empty() ? "no parameters" : fmt::format("{}", fmt::join(flags, ", "))));
        }
        CaseArgs one{{flag, text}};
        if (p->target.empty()) {
            geometry[flag] = text;
            continue;
        }
        if (f.graph().symbols().count(p->target)) {
            dims[p->target] = arg_int(one, flag, 0);
            continue;
        }
        if (inputs.count(p->target)) throw Error(fmt::format("{}: '{}' is given as --{} and as an --input", family, p->target, flag));
        Array a(DType::Float32, {});
        a.set(0, arg_double(one, flag, 0));
        arrays.emplace(p->target, std::move(a));
        refs.emplace(p->target, arrays.at(p->target).ref());
        shapes[p->target] = {};
    }
    // A geometry the AOT kernels do not take (a conv window, stride or padding) is JIT-compiled.
    std::shared_ptr<const Family> other;
    if (f.other_geometry && shapes.count("x") && shapes.count("weight")) other = f.other_geometry(shapes, geometry);
    const FamilyKernel k = other ? FamilyKernel::jit(other, chosen) : FamilyKernel::aot(family, chosen);
    if (other) std::cerr << fmt::format("{}: {}, JIT-compiled\n", family, other->notes);
    // Every shape and dtype is checked against the family's layouts before the kernel runs.
    Array out(f.graph().outputs().at(0).dtype(), k.output_shape(shapes, dims));
    if (f.ids_out_of_range) {
        const auto [outside, range] = f.ids_out_of_range(refs);
        if (outside > 0 && strict_ids) {
            throw Error(fmt::format("{}: {} id(s) fall outside {} (--strict-ids)", family, outside, range));
        }
        if (outside > 0) {
            std::cerr << fmt::format("{}: {} id(s) fall outside {}: their rows are zero\n", family, outside, range);
        }
    }
    k.run(refs, out.ref(), dims);
    write_npy(output_path, out);
    std::cerr << fmt::format("{} {}: wrote {} {}\n", family, k.variant().name, output_path, dims_str(out.shape()));
    return 0;
}

std::string loop_nest_summary(const std::string &stmt) {
    // Halide's statement of a whole module: the kernel's own function first, its parallel loop
    // bodies as separate closure functions. Kept: loops, produce blocks and the stores and
    // allocations inside them; dropped: argument checks, buffer unpacking, closure plumbing.
    std::istringstream in(stmt);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        const std::string s = line.substr(first);
        const bool noise = s.rfind("assert(", 0) == 0 || s.rfind("module ", 0) == 0 ||
                           line.find("_halide_buffer_get") != std::string::npos ||
                           line.find("closure_prototype") != std::string::npos ||
                           line.find("load_typed_struct_member") != std::string::npos ||
                           line.find("halide_error_") != std::string::npos;
        if (!noise) out += line + "\n";
    }
    return out;
}

int show_kernel(const std::string &family, const std::string &asked, bool c_source, bool full) {
    // Error naming the known families and variants; none asked for: the family's default.
    const std::string variant = asked.empty() ? default_variant(family).name : find_variant(family, asked).name;
    const AotKernel *k = find_aot_kernel(family, variant);
    if (!k) throw Error(fmt::format("{} {}: no AOT kernel was built for this variant", family, variant));
    const char *path = c_source ? k->c_source_path : k->stmt_path;
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("{} {}: {} is missing (rebuild)", family, variant, path));
    std::stringstream text;
    text << in.rdbuf();
    if (c_source || full) {
        std::cout << text.str();
        return 0;
    }
    std::cout << fmt::format("{} {}: {} kernel(s), {}\n", family, variant, aot_kernel_count(*k), find_variant(family, variant).summary)
              << fmt::format("(the loop nest; --full: the whole statement, {}; --c: the C source)\n\n", path)
              << loop_nest_summary(text.str());
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
