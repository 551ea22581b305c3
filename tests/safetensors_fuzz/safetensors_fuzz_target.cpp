// libFuzzer target for the safetensors reader (formats/safetensors.h) and writer.
//
// Each input is a whole file, written to an in-memory file and read three ways: mapped
// (SafetensorsFile::open, as checkpoints are read), from memory (SafetensorsFile::from_bytes) and
// header only (read_safetensors_header). The contract checked:
//   - every input either parses or throws FormatError; any other exception aborts (a crash);
//   - a FormatError's message is one non-empty line starting with "<file>: ";
//   - the three ways agree: all accept with the same header, or all reject with the same message;
//   - what parses is consistent (contiguous offsets, sizes that match the shapes, data inside the
//     file), its float tensors convert, and it survives a round trip: the writer's file, read
//     back, has the same tensors, bytes and metadata, and writing that again gives the same bytes.
// Built two ways: with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz_safetensors.sh,
// and with the project's own toolchain plus replay_main.cpp (ctest safetensors_fuzz.replay_corpus),
// which feeds every file of tests/safetensors_fuzz/corpus/ through this function.
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

#include "formats/safetensors.h"
#include "formats/safetensors_writer.h"
#include "tests/safetensors_fuzz/safetensors_fuzz_target.h"
#include "tests/support/fuzz_target.h"

namespace {

int64_t g_parsed = 0, g_rejected = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { halogen::fuzz::crash("safetensors_fuzz", what, detail); }

// The outcome of one way of reading: the header, or the error's message without the file name.
struct Outcome {
    bool ok = false;
    std::string error;
    halogen::SafetensorsHeader header;
};

Outcome attempt(const std::string &file, const std::function<halogen::SafetensorsHeader()> &read) {
    Outcome o;
    try {
        o.header = read();
        o.ok = true;
    } catch (const halogen::FormatError &e) {
        std::string msg = e.what();
        if (msg.rfind(file + ": ", 0) != 0 || msg.size() == file.size() + 2 || msg.find('\n') != std::string::npos)
            crash("FormatError message is not one line naming the file", msg);
        o.error = msg.substr(file.size() + 2);
    } catch (const std::exception &e) {
        crash("exception other than FormatError", std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", "(unknown type)");
    }
    return o;
}

bool same_entries(const halogen::SafetensorsHeader &a, const halogen::SafetensorsHeader &b) {
    if (a.tensors.size() != b.tensors.size() || a.metadata != b.metadata || a.data_bytes != b.data_bytes) return false;
    for (size_t i = 0; i < a.tensors.size(); ++i) {
        const auto &x = a.tensors[i], &y = b.tensors[i];
        if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.bytes() != y.bytes()) return false;
    }
    return true;
}

void check_consistent(const halogen::SafetensorsFile &f, const uint8_t *file_bytes, size_t size) {
    const auto &h = f.header();
    uint64_t at = 0;
    for (const auto &t : f.tensors()) {
        if (t.begin != at || t.end < t.begin || t.end > h.data_bytes) crash("offsets not contiguous", t.name);
        at = t.end;
        if (t.bytes() * 8 != static_cast<uint64_t>(t.numel()) * halogen::safetensors_dtype_bits(t.dtype))
            crash("byte count does not match the shape", t.name);
        if (t.bytes() && std::memcmp(t.data, file_bytes + h.data_offset + t.begin, t.bytes()) != 0)
            crash("data pointer does not show the file's bytes", t.name);
        if (t.dtype == halogen::SafetensorsDType::F32 || t.dtype == halogen::SafetensorsDType::BF16 ||
            t.dtype == halogen::SafetensorsDType::F16) {
            std::vector<float> v = halogen::to_float32(t);
            if (v.size() != static_cast<size_t>(t.numel())) crash("to_float32 size", t.name);
        }
    }
    if (at != h.data_bytes || h.data_offset + h.data_bytes != size) crash("data section size", f.path());
    f.touch_data();
}

void check_round_trip(const halogen::SafetensorsFile &f) {
    std::vector<halogen::SafetensorsEntry> entries;
    for (const auto &t : f.tensors()) entries.push_back({t.name, t.dtype, t.shape, t.data, t.bytes()});
    std::string written = halogen::format_safetensors(entries, f.metadata());
    halogen::SafetensorsFile back = halogen::SafetensorsFile::from_bytes(written, "<round trip>");
    for (const auto &t : f.tensors()) {
        const halogen::SafetensorsTensor *u = back.find(t.name);
        if (!u || u->dtype != t.dtype || u->shape != t.shape || u->bytes() != t.bytes() ||
            (t.bytes() && std::memcmp(u->data, t.data, t.bytes()) != 0))
            crash("round trip changed a tensor", t.name);
    }
    if (back.tensors().size() != f.tensors().size() || back.metadata() != f.metadata())
        crash("round trip changed the tensors or metadata", f.path());
    std::vector<halogen::SafetensorsEntry> again;
    for (const auto &t : back.tensors()) again.push_back({t.name, t.dtype, t.shape, t.data, t.bytes()});
    if (halogen::format_safetensors(again, back.metadata()) != written) crash("writing twice differs", f.path());
}

}  // namespace

namespace halogen::safetensors_fuzz {
int64_t parsed() { return g_parsed; }
int64_t rejected() { return g_rejected; }
}  // namespace halogen::safetensors_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static halogen::fuzz::MemFile file("safetensors_fuzz");
    file.write_all(data, size);
    const std::string memory_name = "<input>";
    std::string bytes(reinterpret_cast<const char *>(data), size);

    halogen::SafetensorsFile mapped;
    Outcome by_map = attempt(file.path(), [&] {
        mapped = halogen::SafetensorsFile::open(file.path());
        return mapped.header();
    });
    Outcome in_memory = attempt(memory_name, [&] { return halogen::SafetensorsFile::from_bytes(bytes, memory_name).header(); });
    Outcome header_only = attempt(file.path(), [&] { return halogen::read_safetensors_header(file.path()); });

    if (by_map.ok != in_memory.ok || by_map.ok != header_only.ok || by_map.error != in_memory.error ||
        by_map.error != header_only.error)
        crash("the three ways of reading disagree",
              "map: " + by_map.error + " | memory: " + in_memory.error + " | header only: " + header_only.error);
    if (!by_map.ok) {
        ++g_rejected;
        return 0;
    }
    if (!same_entries(by_map.header, in_memory.header) || !same_entries(by_map.header, header_only.header))
        crash("the three ways of reading give different headers", file.path());
    ++g_parsed;
    try {
        check_consistent(mapped, data, size);
        check_round_trip(mapped);
    } catch (const std::exception &e) {
        crash("a file that parsed failed its checks", std::string(typeid(e).name()) + ": " + e.what());
    }
    return 0;
}
