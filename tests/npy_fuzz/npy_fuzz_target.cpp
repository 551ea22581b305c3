// libFuzzer target for the .npy reader behind `halogen run` (formats/npy.h).
//
// Each input is written to an in-memory file and read back with read_npy(path), the very call
// `halogen run --input NAME=FILE.npy` makes. The contract checked:
//   - every input either parses or throws NpyError; any other exception aborts (a crash);
//   - an NpyError's message is one non-empty line starting with "<path>: ";
//   - what parses survives a round trip: format_npy then parse_npy gives the same dtype, shape
//     and bytes.
// Built two ways: with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz_npy.sh, and
// with the project's own toolchain plus replay_main.cpp (ctest npy_fuzz.replay_corpus), which feeds
// every file of tests/npy_fuzz/corpus/ through this function.
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <typeinfo>

#include "formats/npy.h"
#include "tests/npy_fuzz/npy_fuzz_target.h"
#include "tests/support/fuzz_target.h"

namespace {

int64_t g_parsed = 0, g_rejected = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { halogen::fuzz::crash("npy_fuzz", what, detail); }

void check_round_trip(const halogen::Array &a) {
    std::string bytes = halogen::format_npy(a);
    halogen::Array b = halogen::parse_npy(bytes, "<round trip>");
    size_t n = static_cast<size_t>(a.size()) * halogen::dtype_size(a.dtype());
    if (b.dtype() != a.dtype() || b.shape() != a.shape() || b.size() != a.size() ||
        (n > 0 && std::memcmp(a.data<uint8_t>(), b.data<uint8_t>(), n) != 0))
        crash("round trip changed the array", halogen::dims_str(a.shape()) + " -> " + halogen::dims_str(b.shape()));
}

}  // namespace

namespace halogen::npy_fuzz {
int64_t parsed() { return g_parsed; }
int64_t rejected() { return g_rejected; }
}  // namespace halogen::npy_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static halogen::fuzz::MemFile file("npy_fuzz");
    file.write_all(data, size);
    try {
        halogen::Array a = halogen::read_npy(file.path());
        ++g_parsed;
        check_round_trip(a);
    } catch (const halogen::NpyError &e) {
        ++g_rejected;
        std::string msg = e.what();
        if (msg.rfind(file.path() + ": ", 0) != 0 || msg.size() == file.path().size() + 2 ||
            msg.find('\n') != std::string::npos)
            crash("NpyError message is not one line naming the file", msg);
    } catch (const std::exception &e) {
        crash("exception other than NpyError", std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", "(unknown type)");
    }
    return 0;
}
