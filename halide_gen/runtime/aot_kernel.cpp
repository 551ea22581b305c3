// AOT kernels as entries of the run path (aot_kernel.h).
#include "halide_gen/runtime/aot_kernel.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/runtime/host_caches.h"
#include "halide_gen/runtime/halide_errors.h"
#include "halide_gen/runtime/kernel_pool.h"

namespace halogen {

namespace {

int64_t buffer_bytes(const halide_buffer_t *b) {
    int64_t n = (b->type.bits + 7) / 8;
    for (int d = 0; d < b->dimensions; ++d) n *= b->dim[d].extent;
    return n;
}

class AotEntry : public KernelEntry {
public:
    AotEntry(const AotKernel &k, Stores stores) : k_(k), stores_(stores) {
        if (stores == Stores::streaming && !k.streamed_argv) {
            throw Error(fmt::format("{} {}: no twin with streaming stores was built", k.family, k.variant));
        }
        // The AOT runtime's handlers, once: errors recorded for the call, parallel loops on OpenMP.
        static const bool handlers_set =
            (halide_set_error_handler(record_halide_error), halide_set_custom_do_par_for(kernel_do_par_for), true);
        (void)handlers_set;
    }

    bool streams(const KernelArgs &args) const override {
        if (stores_ != Stores::by_size) return stores_ == Stores::streaming;
        return k_.streamed_argv && buffer_bytes(args.outputs.at(0)) >= streaming_threshold_bytes();
    }

    std::function<void()> prepare(const KernelArgs &args) const override {
        const halide_filter_metadata_t *md = k_.metadata();
        auto argv = std::make_shared<std::vector<void *>>(md->num_arguments);
        for (int a = 0; a < md->num_arguments; ++a) {
            const halide_filter_argument_t &arg = md->arguments[a];
            if (arg.kind == halide_argument_kind_input_scalar) {
                auto it = args.dims.find(arg.name);
                if (it == args.dims.end()) throw BufferError(fmt::format("{} {}: no value for '{}'", k_.family, k_.variant, arg.name));
                (*argv)[a] = const_cast<int32_t *>(&it->second);
                continue;
            }
            auto it = args.buffers.find(arg.name);
            if (it == args.buffers.end()) {
                throw BufferError(fmt::format("{} {}: no buffer for '{}'", k_.family, k_.variant, arg.name));
            }
            const halide_buffer_t *b = it->second;
            if (!(b->type == arg.type) || b->dimensions != arg.dimensions) {
                throw BufferError(fmt::format("{} {}: '{}' has rank {}, the kernel takes rank {} of another type",
                                              k_.family, k_.variant, arg.name, b->dimensions, arg.dimensions));
            }
            (*argv)[a] = it->second;
        }
        int (*fn)(void **) = streams(args) ? k_.streamed_argv : k_.argv;
        const AotKernel *k = &k_;
        return [argv, fn, k] {
            if (fn(argv->data()) != 0) {
                throw Error(fmt::format("{} {}: kernel failed: {}", k->family, k->variant, last_halide_error()));
            }
        };
    }

private:
    const AotKernel k_;
    Stores stores_;
};

}  // namespace

int64_t streaming_threshold_bytes() {
    static const int64_t bytes = [] {
        if (const char *env = std::getenv("HALOGEN_STREAMING_THRESHOLD_BYTES")) {
            const std::string text = env;
            int64_t value = -1;
            const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (err != std::errc() || end != text.data() + text.size() || value < 0) {
                throw Error(fmt::format("HALOGEN_STREAMING_THRESHOLD_BYTES: '{}' is not a byte count (an integer >= 0)",
                                        text));
            }
            return value;
        }
        const int64_t llc = last_level_cache_bytes();
        return llc > 0 ? llc / 2 : int64_t(16) << 20;
    }();
    return bytes;
}

std::shared_ptr<const KernelEntry> aot_entry(const AotKernel &k, Stores stores) {
    return std::make_shared<AotEntry>(k, stores);
}

int aot_kernel_count(const AotKernel &k) {
    std::ifstream f(k.stmt_path);
    int n = 0;
    bool in_main = false;
    std::vector<bool> open;   // the blocks around the current line: true for a loop
    auto loops_open = [&] { return std::count(open.begin(), open.end(), true); };
    for (std::string line; std::getline(f, line);) {
        if (line.find(" func ") != std::string::npos) {
            in_main = line.rfind("external_plus_metadata func", 0) == 0;
            open.clear();
            continue;
        }
        const std::size_t first = line.find_first_not_of(' ');
        if (!in_main || first == std::string::npos) continue;
        const std::string s = line.substr(first);
        if (s[0] == '}' && !open.empty()) open.pop_back();   // "}" or "} else {"
        if (s.back() != '{') continue;
        // A kernel is a produce block no loop encloses; an if (a specialization, a size test)
        // around it does not make it nested.
        if (s.rfind("produce ", 0) == 0 && loops_open() == 0) ++n;
        open.push_back(s.rfind("for (", 0) == 0 || s.rfind("parallel (", 0) == 0);
    }
    return n;
}

}  // namespace halogen
