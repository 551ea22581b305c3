// Loading a compiled program from a shared object's bytes (kernel_library.h).
#include "halide_gen/runtime/kernel_library.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>


#include <fmt/format.h>

#include "frontend/errors.h"
#include "halide_gen/runtime/halide_errors.h"
#include "halide_gen/runtime/kernel_pool.h"

namespace halogen {

namespace {

using ArgvFn = int (*)(void **);
using MetadataFn = const halide_filter_metadata_t *(*)();
using SetErrorHandler = halide_error_handler_t (*)(halide_error_handler_t);
using SetParFor = halide_do_par_for_t (*)(halide_do_par_for_t);

// The loaded library and its in-memory file. The file stays open while the library is loaded:
// the loader knows a library by its path, /proc/self/fd/N, and a second library opened under a
// number closed and reused would be taken for the first.
struct Handle {
    void *dl = nullptr;
    int fd = -1;
    ~Handle() {
        if (dl) dlclose(dl);
        if (fd >= 0) ::close(fd);
    }
};

template <typename T>
T symbol(void *dl, const std::string &name, const std::string &who) {
    void *p = dlsym(dl, name.c_str());
    if (!p) throw Error(fmt::format("{}: the compiled library has no '{}'", who, name));
    return reinterpret_cast<T>(p);
}

class LibraryEntry : public KernelEntry {
public:
    LibraryEntry(std::shared_ptr<Handle> handle, LibrarySignature signature, std::string who)
        : handle_(std::move(handle)), signature_(std::move(signature)), who_(std::move(who)) {
        argv_ = symbol<ArgvFn>(handle_->dl, signature_.function + "_argv", who_);
        const halide_filter_metadata_t *md = symbol<MetadataFn>(handle_->dl, signature_.function + "_metadata", who_)();
        const int expected = int(signature_.buffers.size() + signature_.dims.size()) + signature_.outputs;
        if (md->num_arguments != expected) {
            throw Error(fmt::format("{}: the compiled library takes {} arguments, the program {}", who_, md->num_arguments,
                                    expected));
        }
        for (int a = 0; a < md->num_arguments; ++a) {
            const halide_argument_kind_t want =
                a < int(signature_.buffers.size())                                 ? halide_argument_kind_input_buffer
                : a < int(signature_.buffers.size() + signature_.dims.size()) ? halide_argument_kind_input_scalar
                                                                                   : halide_argument_kind_output_buffer;
            if (md->arguments[a].kind != want) {
                throw Error(fmt::format("{}: the compiled library's argument {} ('{}') is not of the program's kind", who_,
                                        a, md->arguments[a].name));
            }
        }
        // This library's own runtime: errors recorded for the call, parallel loops on the pool.
        symbol<SetErrorHandler>(handle_->dl, "halide_set_error_handler", who_)(record_halide_error);
        symbol<SetParFor>(handle_->dl, "halide_set_custom_do_par_for", who_)(kernel_do_par_for);
    }

    std::function<void()> prepare(const KernelArgs &args) const override {
        auto argv = std::make_shared<std::vector<void *>>();
        for (const std::string &name : signature_.buffers) {
            auto it = args.buffers.find(name);
            if (it == args.buffers.end()) throw BufferError(fmt::format("{}: no buffer for '{}'", who_, name));
            argv->push_back(it->second);
        }
        for (const std::string &name : signature_.dims) {
            auto it = args.dims.find(name);
            if (it == args.dims.end()) throw BufferError(fmt::format("{}: no value for '{}'", who_, name));
            argv->push_back(const_cast<int32_t *>(&it->second));
        }
        if (int(args.outputs.size()) != signature_.outputs) {
            throw BufferError(fmt::format("{}: {} outputs given, the program writes {}", who_, args.outputs.size(),
                                          signature_.outputs));
        }
        for (halide_buffer_t *b : args.outputs) argv->push_back(b);
        const ArgvFn fn = argv_;
        const std::string *who = &who_;
        auto keep = handle_;
        return [argv, fn, who, keep] {
            if (fn(argv->data()) != 0) {
                throw Error(fmt::format("{}: kernel failed: {}", *who, last_halide_error()));
            }
        };
    }

private:
    std::shared_ptr<Handle> handle_;
    LibrarySignature signature_;
    std::string who_;
    ArgvFn argv_ = nullptr;
};

}  // namespace

std::shared_ptr<const KernelEntry> load_kernel_library(const std::string &bytes, const LibrarySignature &signature,
                                                       const std::string &who) {
    auto handle = std::make_shared<Handle>();
    handle->fd = memfd_create("halogen-kernel", MFD_CLOEXEC);
    if (handle->fd < 0) throw Error(fmt::format("{}: cannot make an in-memory file for the compiled library", who));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(handle->fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) throw Error(fmt::format("{}: cannot write the compiled library to memory", who));
        done += std::size_t(n);
    }
    handle->dl = dlopen(fmt::format("/proc/self/fd/{}", handle->fd).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle->dl) {
        const char *why = dlerror();
        throw Error(fmt::format("{}: cannot load the compiled library: {}", who, why ? why : "unknown error"));
    }
    return std::make_shared<LibraryEntry>(std::move(handle), signature, who);
}

}  // namespace halogen
