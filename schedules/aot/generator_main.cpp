// halogen.generator's main: Halide's generator driver (generate_filter_main, the command line
// add_halide_library uses), with a "host" target corrected for this CPU
// (halide_gen/compiler/host_target.h); then, for a streamed twin (streamed=true), the object file
// and assembly listing once more with the output's stores streamed
// (halide_gen/compiler/streaming_stores.h). The header, statement and C source stay Halide's.
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <Halide.h>
#include <fmt/format.h>

#include "halide_gen/compiler/host_target.h"
#include "halide_gen/compiler/streaming_stores.h"

namespace {

// The parts of Halide's generator command line that name the outputs: -g, -f, -n, -o, -e, and
// the key=value generator params (target=..., variant=...).
struct GeneratorCall {
    std::string generator, function, base_name, directory = ".";
    std::vector<std::string> emits;
    std::map<std::string, std::string> params;
};

GeneratorCall parse(int argc, char **argv) {
    GeneratorCall c;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "-g" && has_value) c.generator = argv[++i];
        else if (a == "-f" && has_value) c.function = argv[++i];
        else if (a == "-n" && has_value) c.base_name = argv[++i];
        else if (a == "-o" && has_value) c.directory = argv[++i];
        else if (a == "-e" && has_value) {
            std::stringstream list(argv[++i]);
            for (std::string e; std::getline(list, e, ',');) c.emits.push_back(e);
        } else if (a.size() == 2 && a[0] == '-' && has_value) ++i;   // -d, -p, -s, ...: not ours
        else if (const auto eq = a.find('='); eq != std::string::npos) c.params[a.substr(0, eq)] = a.substr(eq + 1);
    }
    if (c.base_name.empty()) c.base_name = c.function;
    return c;
}

bool emits(const GeneratorCall &c, const std::string &what) {
    return std::find(c.emits.begin(), c.emits.end(), what) != c.emits.end();
}

// "target=host-large_buffers" names Halide's host detection, which takes a Zen 4 for a Sapphire
// Rapids: spelled out instead, as host_target() corrects it. A runtime's target is a list, one
// entry per library that shares it.
void spell_out_host_target(std::vector<std::string> &args) {
    for (std::string &a : args) {
        if (a.rfind("target=", 0) != 0) continue;
        std::stringstream list(a.substr(7));
        std::string spelled;
        for (std::string t; std::getline(list, t, ',');) {
            if (t.rfind("host", 0) == 0) t = halogen::for_this_cpu(Halide::Target(t)).to_string();
            spelled += (spelled.empty() ? "" : ",") + t;
        }
        a = "target=" + spelled;
    }
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv, argv + argc);
    spell_out_host_target(args);
    std::vector<char *> arg_pointers;
    for (std::string &a : args) arg_pointers.push_back(a.data());
    arg_pointers.push_back(nullptr);
    argc = int(args.size());
    argv = arg_pointers.data();
    const int status = Halide::Internal::generate_filter_main(argc, argv, std::cerr);
    if (status != 0) return status;
    const GeneratorCall call = parse(argc, argv);
    const auto streamed = call.params.find("streamed");
    if (!emits(call, "object") || streamed == call.params.end() || streamed->second != "true") return 0;
    try {
        const Halide::Target target(call.params.count("target") ? call.params.at("target") : "host");
        auto generator = Halide::Internal::GeneratorRegistry::create(call.generator, Halide::GeneratorContext(target));
        Halide::Internal::GeneratorParamsMap params;
        for (const auto &[key, value] : call.params) {
            if (key != "target") params[key] = Halide::Internal::StringOrLoopLevel(value);
        }
        generator->set_generator_param_values(params);
        const Halide::Module module = generator->build_module(call.function);
        const std::string base = call.directory + "/" + call.base_name;
        const int streamed = halogen::compile_with_streaming_stores(module, base + ".o",
                                                                    emits(call, "assembly") ? base + ".s" : "");
        if (streamed == 0) {
            std::cerr << fmt::format("halogen.generator: {} asks for streaming stores, but no vector store into its "
                                     "output was found\n", call.base_name);
            return 1;
        }
    } catch (const std::exception &e) {
        std::cerr << "halogen.generator: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
