// libFuzzer target for the GGUF reader (formats/gguf.h), the ggml type decoders and encoders
// (formats/ggml_types.h) and the GGUF writer.
//
// Each input is a whole file, written to an in-memory file and read two ways: mapped
// (GgufFile::open) and from memory (GgufFile::from_bytes). The contract checked:
//   - every input either opens or throws FormatError; any other exception aborts (a crash);
//   - a FormatError's message is one non-empty line starting with "<file>: ";
//   - both ways agree: both accept the same contents, or both reject with the same message;
//   - what opens is consistent and usable: every key-value pair is walked (every typed read,
//     string arrays iterated, arrays of arrays entered), every tensor lies inside the file at an
//     aligned offset with the byte count its type and dims give, no two overlap, and the first
//     block of each tensor of a supported type decodes (the whole tensor when it is small); the
//     decoded block is quantized again (a DTypeError for values the type cannot hold is allowed);
//   - it survives a round trip through the writer: the writer's file, read back, has the same
//     metadata and tensors (when the writer can hold them: names of at most 63 bytes, 1 to 4 dims,
//     an alignment that is a multiple of 8 and at most kGgufWriterMaxAlignment).
// Built two ways: with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz_gguf.sh, and
// with the project's own toolchain plus replay_main.cpp (ctest gguf_fuzz.replay_corpus), which
// feeds every file of tests/gguf_fuzz/corpus/ through this function.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <numeric>
#include <string>
#include <typeinfo>
#include <vector>

#include "formats/ggml_types.h"
#include "formats/gguf.h"
#include "formats/gguf_writer.h"
#include "tests/gguf_fuzz/gguf_fuzz_target.h"
#include "tests/support/fuzz_target.h"

namespace {

using halogen::GgufType;
using halogen::GgufValue;
using halogen::GgufWriteValue;

int64_t g_opened = 0, g_rejected = 0, g_blocks = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { halogen::fuzz::crash("gguf_fuzz", what, detail); }

struct Outcome {
    bool ok = false;
    std::string error;   // the message without "<file>: "
    halogen::GgufFile file;
};

Outcome attempt(const std::string &name, const std::function<halogen::GgufFile()> &open) {
    Outcome o;
    try {
        o.file = open();
        o.ok = true;
    } catch (const halogen::FormatError &e) {
        const std::string msg = e.what();
        if (msg.rfind(name + ": ", 0) != 0 || msg.size() == name.size() + 2 || msg.find('\n') != std::string::npos)
            crash("FormatError message is not one line naming the file", msg);
        o.error = msg.substr(name.size() + 2);
    } catch (const std::exception &e) {
        crash("exception other than FormatError", std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", "(unknown type)");
    }
    return o;
}

// The writer's encoding of a value read from a file: equal encodings mean equal values.
GgufWriteValue rewrite(const GgufValue &v) {
    switch (v.type()) {
    case GgufType::U8: return GgufWriteValue::scalar(*v.as<uint8_t>());
    case GgufType::I8: return GgufWriteValue::scalar(*v.as<int8_t>());
    case GgufType::U16: return GgufWriteValue::scalar(*v.as<uint16_t>());
    case GgufType::I16: return GgufWriteValue::scalar(*v.as<int16_t>());
    case GgufType::U32: return GgufWriteValue::scalar(*v.as<uint32_t>());
    case GgufType::I32: return GgufWriteValue::scalar(*v.as<int32_t>());
    case GgufType::F32: return GgufWriteValue::scalar(*v.as<float>());
    case GgufType::BOOL: return GgufWriteValue::scalar(*v.as<bool>());
    case GgufType::U64: return GgufWriteValue::scalar(*v.as<uint64_t>());
    case GgufType::I64: return GgufWriteValue::scalar(*v.as<int64_t>());
    case GgufType::F64: return GgufWriteValue::scalar(*v.as<double>());
    case GgufType::STRING: return GgufWriteValue::string(*v.as<std::string_view>());
    case GgufType::ARRAY: break;
    }
    switch (v.element_type()) {
    case GgufType::U8: return GgufWriteValue::array(*v.numbers<uint8_t>());
    case GgufType::I8: return GgufWriteValue::array(*v.numbers<int8_t>());
    case GgufType::U16: return GgufWriteValue::array(*v.numbers<uint16_t>());
    case GgufType::I16: return GgufWriteValue::array(*v.numbers<int16_t>());
    case GgufType::U32: return GgufWriteValue::array(*v.numbers<uint32_t>());
    case GgufType::I32: return GgufWriteValue::array(*v.numbers<int32_t>());
    case GgufType::F32: return GgufWriteValue::array(*v.numbers<float>());
    case GgufType::BOOL: return GgufWriteValue::array(*v.numbers<bool>());
    case GgufType::U64: return GgufWriteValue::array(*v.numbers<uint64_t>());
    case GgufType::I64: return GgufWriteValue::array(*v.numbers<int64_t>());
    case GgufType::F64: return GgufWriteValue::array(*v.numbers<double>());
    case GgufType::STRING: return GgufWriteValue::string_array(v.strings()->to_vector());
    case GgufType::ARRAY: break;
    }
    std::vector<GgufWriteValue> items;
    for (const GgufValue &e : v.elements()) items.push_back(rewrite(e));
    return GgufWriteValue::array_of(GgufType::ARRAY, items);
}

// Every typed read of a value: exactly one scalar read answers, arrays give their elements.
void walk(const GgufValue &v, const std::string &key) {
    const int answers = v.as<uint8_t>().has_value() + v.as<int8_t>().has_value() + v.as<uint16_t>().has_value() +
                        v.as<int16_t>().has_value() + v.as<uint32_t>().has_value() + v.as<int32_t>().has_value() +
                        v.as<float>().has_value() + v.as<bool>().has_value() + v.as<uint64_t>().has_value() +
                        v.as<int64_t>().has_value() + v.as<double>().has_value() +
                        v.as<std::string_view>().has_value();
    if (answers != (v.is_array() ? 0 : 1)) crash("a value answers the wrong number of typed reads", key);
    if (!v.is_array()) return;
    const std::vector<GgufValue> items = v.elements();
    if (items.size() != v.size()) crash("an array's element count differs from its size", key);
    if (v.element_type() == GgufType::STRING) {
        const halogen::GgufStringArray s = *v.strings();
        uint64_t n = 0;
        for (auto it = s.begin(); it != s.end(); ++it) {
            if (*it != *items[n].as<std::string_view>()) crash("string array iteration differs from its elements", key);
            ++n;
        }
        if (n != s.size()) crash("string array iteration count", key);
    }
    for (const GgufValue &e : items) {
        if (e.type() != v.element_type()) crash("an element of another type", key);
        walk(e, key);
    }
}

void check_tensors(const halogen::GgufFile &f, const uint8_t *bytes, size_t size) {
    std::vector<const halogen::GgufTensor *> by_offset;
    for (const halogen::GgufTensor &t : f.tensors()) {
        const halogen::GgmlTypeInfo *info = halogen::ggml_type_info(t.type);
        if (!info || info->block_elements == 0) crash("a tensor of an unknown or removed type", t.name);
        if (t.ne.size() > halogen::kGgufMaxDims || t.n_elements() < 0) crash("dims", t.name);
        if (t.offset % f.alignment() != 0) crash("a misaligned offset", t.name);
        if (static_cast<uint64_t>(t.row_length()) % info->block_elements != 0) crash("a row splits a block", t.name);
        if (t.bytes != static_cast<uint64_t>(t.n_elements()) / info->block_elements * info->block_bytes)
            crash("byte count does not match the dims", t.name);
        if (t.bytes > 0) {
            if (f.data_offset() + t.offset + t.bytes > size) crash("a tensor past the end of the file", t.name);
            if (std::memcmp(t.data, bytes + f.data_offset() + t.offset, t.bytes) != 0)
                crash("data pointer does not show the file's bytes", t.name);
            by_offset.push_back(&t);
        }
        if (t.n_elements() == 0 || !halogen::ggml_type_supported(t.type)) continue;
        // The first block (the whole tensor when small), decoded, then encoded again.
        const int64_t n = t.n_elements() <= 4096 ? t.n_elements() : info->block_elements;
        std::vector<float> values(static_cast<size_t>(n));
        if (n == t.n_elements()) {
            values = f.to_float32(t);
        } else {
            halogen::dequantize_row(t.type, t.data, values.data(), n);
        }
        ++g_blocks;
        std::vector<uint8_t> again(halogen::ggml_row_bytes(t.type, static_cast<uint64_t>(info->block_elements)));
        try {
            halogen::quantize_row(t.type, values.data(), again.data(), info->block_elements);
        } catch (const halogen::DTypeError &) {
            // a NaN or infinity decoded from the file's bytes, or a value too large for the type
        }
    }
    std::sort(by_offset.begin(), by_offset.end(), [](auto *a, auto *b) { return a->offset < b->offset; });
    for (size_t i = 1; i < by_offset.size(); ++i)
        if (by_offset[i - 1]->offset + by_offset[i - 1]->bytes > by_offset[i]->offset)
            crash("overlapping tensors", by_offset[i]->name);
}

void check_round_trip(const halogen::GgufFile &f) {
    if (f.alignment() % 8 != 0 || f.alignment() > halogen::kGgufWriterMaxAlignment) return;   // valid, not the writer's
    for (const halogen::GgufTensor &t : f.tensors())
        if (t.name.size() > halogen::kGgufWriterMaxNameBytes || t.ne.empty()) return;
    halogen::GgufWriter w(f.alignment());
    std::vector<std::pair<std::string, GgufWriteValue>> kept;
    for (const halogen::GgufKeyValue &kv : f.metadata()) {
        if (kv.key == "general.alignment") continue;
        kept.emplace_back(kv.key, rewrite(kv.value));
        w.set(kv.key, kept.back().second);
    }
    for (const halogen::GgufTensor &t : f.tensors()) w.add_tensor(t.name, t.type, t.ne, t.data, t.bytes);
    const halogen::GgufFile back = halogen::GgufFile::from_bytes(w.to_bytes(), "<round trip>");
    size_t i = 0;
    for (const halogen::GgufKeyValue &kv : back.metadata()) {
        if (kv.key == "general.alignment") continue;
        if (i >= kept.size() || kv.key != kept[i].first || rewrite(kv.value).encoded() != kept[i].second.encoded() ||
            kv.value.type() != kept[i].second.type())
            crash("round trip changed the metadata", kv.key);
        ++i;
    }
    if (i != kept.size() || back.tensors().size() != f.tensors().size() || back.alignment() != f.alignment())
        crash("round trip changed the counts", f.path());
    for (size_t k = 0; k < f.tensors().size(); ++k) {
        const halogen::GgufTensor &a = f.tensors()[k], &b = back.tensors()[k];
        if (a.name != b.name || a.type != b.type || a.ne != b.ne || a.bytes != b.bytes ||
            (a.bytes && std::memcmp(a.data, b.data, a.bytes) != 0))
            crash("round trip changed a tensor", a.name);
    }
}

}  // namespace

namespace halogen::gguf_fuzz {
int64_t opened() { return g_opened; }
int64_t rejected() { return g_rejected; }
int64_t blocks_decoded() { return g_blocks; }
}  // namespace halogen::gguf_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static halogen::fuzz::MemFile file("gguf_fuzz");
    file.write_all(data, size);
    const std::string memory_name = "<input>";

    Outcome mapped = attempt(file.path(), [&] { return halogen::GgufFile::open(file.path()); });
    Outcome in_memory = attempt(memory_name, [&] {
        return halogen::GgufFile::from_bytes(std::string(reinterpret_cast<const char *>(data), size), memory_name);
    });
    if (mapped.ok != in_memory.ok || mapped.error != in_memory.error)
        crash("the two ways of reading disagree", "map: " + mapped.error + " | memory: " + in_memory.error);
    if (!mapped.ok) {
        ++g_rejected;
        return 0;
    }
    ++g_opened;
    try {
        const halogen::GgufFile &f = mapped.file;
        if (f.metadata().size() != in_memory.file.metadata().size() ||
            f.tensors().size() != in_memory.file.tensors().size() || f.data_offset() != in_memory.file.data_offset())
            crash("the two ways of reading give different files", f.path());
        for (const halogen::GgufKeyValue &kv : f.metadata()) {
            if (f.find(kv.key) != &kv.value) crash("a key's lookup finds another value", kv.key);
            walk(kv.value, kv.key);
        }
        for (const halogen::GgufTensor &t : f.tensors())
            if (f.find_tensor(t.name) != &t) crash("a tensor's lookup finds another tensor", t.name);
        check_tensors(f, data, size);
        check_round_trip(f);
    } catch (const std::exception &e) {
        crash("a file that opened failed its checks", std::string(typeid(e).name()) + ": " + e.what());
    }
    return 0;
}
