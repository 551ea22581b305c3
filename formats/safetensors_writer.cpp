// The safetensors writer: plan (order, offsets, header text), then the bytes (see safetensors_writer.h).
#include "formats/safetensors_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/printable_text.h"

namespace halogen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &problem) {
    throw FormatError(where + ": " + problem);
}

// A JSON string literal as serde_json writes it: quotes, backslashes and control characters
// escaped, everything else (UTF-8 included) as is. nlohmann's dump escapes the same set.
std::string quoted(const std::string &s, const std::string &what) {
    try {
        return nlohmann::json(s).dump();
    } catch (const nlohmann::json::exception &) {
        fail("safetensors writer", fmt::format("{} '{}' is not valid UTF-8", what, printable_text(s)));
    }
}

uint64_t byte_count(const SafetensorsEntry &t) {
    uint64_t count = 1;
    for (int64_t d : t.shape) {
        if (d < 0)
            fail("safetensors writer", fmt::format("tensor '{}': negative dimension {} in shape [{}]",
                                                   printable_text(t.name), d, fmt::join(t.shape, ", ")));
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
            fail("safetensors writer", fmt::format("tensor '{}': shape [{}] has more elements than 2^64",
                                                   printable_text(t.name), fmt::join(t.shape, ", ")));
    }
    uint64_t bits;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(safetensors_dtype_bits(t.dtype)), &bits) || bits % 8)
        fail("safetensors writer", fmt::format("tensor '{}': shape [{}] of {} is not a whole number of bytes "
                                               "below 2^64", printable_text(t.name), fmt::join(t.shape, ", "),
                                               safetensors_dtype_name(t.dtype)));
    return bits / 8;
}

// The plan; `with_data`: each entry with bytes must have its data pointer (a streamed source's
// entry has none).
SafetensorsPlan plan(const std::vector<SafetensorsEntry> &tensors, const std::map<std::string, std::string> &metadata,
                     bool with_data) {
    SafetensorsPlan plan;
    std::set<std::string> names;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const auto &t = tensors[i];
        if (t.name == "__metadata__") fail("safetensors writer", "'__metadata__' is reserved, not a tensor name");
        if (!names.insert(t.name).second)
            fail("safetensors writer", fmt::format("tensor '{}' is given twice", printable_text(t.name)));
        uint64_t need = byte_count(t);
        if (t.bytes != need)
            fail("safetensors writer", fmt::format("tensor '{}': {} bytes given, shape [{}] of {} needs {}",
                                                   printable_text(t.name), t.bytes, fmt::join(t.shape, ", "),
                                                   safetensors_dtype_name(t.dtype), need));
        if (with_data && t.bytes > 0 && t.data == nullptr)
            fail("safetensors writer", fmt::format("tensor '{}': no data pointer", printable_text(t.name)));
        plan.order.push_back(i);
    }
    // The reference's order: dtype descending (wider types come later in its enum), then name.
    std::sort(plan.order.begin(), plan.order.end(), [&](size_t a, size_t b) {
        if (tensors[a].dtype != tensors[b].dtype) return tensors[a].dtype > tensors[b].dtype;
        return tensors[a].name < tensors[b].name;
    });

    std::string json = "{";
    if (!metadata.empty()) {
        json += "\"__metadata__\":{";
        bool first = true;
        for (const auto &[k, v] : metadata) {
            if (!first) json += ',';
            first = false;
            json += quoted(k, "metadata key") + ":" + quoted(v, "metadata value");
        }
        json += '}';
    }
    uint64_t offset = 0;
    for (size_t i : plan.order) {
        const auto &t = tensors[i];
        if (json.size() > 1) json += ',';
        uint64_t end;
        if (__builtin_add_overflow(offset, t.bytes, &end))
            fail("safetensors writer", "the tensors hold more than 2^64 bytes");
        json += fmt::format("{}:{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
                            quoted(t.name, "tensor name"), safetensors_dtype_name(t.dtype),
                            fmt::join(t.shape, ","), offset, end);
        offset = end;
    }
    json += '}';
    json.append((8 - json.size() % 8) % 8, ' ');
    if (json.size() > kSafetensorsMaxHeaderBytes)
        fail("safetensors writer", fmt::format("header of {} bytes exceeds the format's limit of {}", json.size(),
                                               kSafetensorsMaxHeaderBytes));
    uint64_t n = json.size();
    plan.header.resize(8);
    for (int i = 0; i < 8; ++i) plan.header[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
    plan.header += json;
    plan.data_bytes = offset;
    return plan;
}

// A new file beside `path`, renamed over it by commit(), so that a reader that has the old file
// mapped keeps its bytes; removed if it is never committed (an error, an exception in a fill).
class ReplacingFile {
public:
    explicit ReplacingFile(const std::string &path) : path_(path) {
        static std::atomic<unsigned> counter{0};
        tmp_ = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
        fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0) fail(path, fmt::format("cannot create {}: {}", tmp_, std::strerror(errno)));
    }
    ReplacingFile(const ReplacingFile &) = delete;
    ReplacingFile &operator=(const ReplacingFile &) = delete;
    ~ReplacingFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(tmp_.c_str());
    }

    // Unbuffered: the bytes go from `p` to the file.
    void write(const char *p, uint64_t n) {
        while (n > 0) {
            ssize_t got = ::write(fd_, p, std::min<uint64_t>(n, uint64_t(1) << 30));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) fail(path_, fmt::format("cannot write: {}", std::strerror(errno)));
            p += got;
            n -= static_cast<uint64_t>(got);
        }
    }

    void commit() {
        int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail(path_, fmt::format("cannot write: {}", std::strerror(errno)));
        if (::rename(tmp_.c_str(), path_.c_str()) != 0)
            fail(path_, fmt::format("cannot rename {} to it: {}", tmp_, std::strerror(errno)));
        committed_ = true;
    }

private:
    std::string path_, tmp_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace

SafetensorsPlan plan_safetensors(const std::vector<SafetensorsEntry> &tensors,
                                 const std::map<std::string, std::string> &metadata) {
    return plan(tensors, metadata, true);
}

std::string format_safetensors(const std::vector<SafetensorsEntry> &tensors,
                               const std::map<std::string, std::string> &metadata) {
    SafetensorsPlan plan = plan_safetensors(tensors, metadata);
    std::string out = std::move(plan.header);
    out.reserve(out.size() + plan.data_bytes);
    for (size_t i : plan.order)
        if (tensors[i].bytes) out.append(static_cast<const char *>(tensors[i].data), tensors[i].bytes);
    return out;
}

void write_safetensors(const std::string &path, const std::vector<SafetensorsEntry> &tensors,
                       const std::map<std::string, std::string> &metadata) {
    SafetensorsPlan p = plan_safetensors(tensors, metadata);
    ReplacingFile file(path);
    file.write(p.header.data(), p.header.size());
    for (size_t i : p.order) file.write(static_cast<const char *>(tensors[i].data), tensors[i].bytes);
    file.commit();
}

void write_safetensors_streamed(const std::string &path, const std::vector<SafetensorsSource> &tensors,
                                const std::map<std::string, std::string> &metadata) {
    std::vector<SafetensorsEntry> entries;
    entries.reserve(tensors.size());
    for (const SafetensorsSource &t : tensors) {
        if (t.bytes > 0 && !t.fill)
            fail("safetensors writer", fmt::format("tensor '{}': no fill function", printable_text(t.name)));
        entries.push_back({t.name, t.dtype, t.shape, nullptr, t.bytes});
    }
    SafetensorsPlan p = plan(entries, metadata, false);
    ReplacingFile file(path);
    file.write(p.header.data(), p.header.size());
    uint64_t largest = 0;
    for (const SafetensorsSource &t : tensors) largest = std::max(largest, t.bytes);
    std::vector<char> piece(std::min(largest, kSafetensorsPieceBytes));
    for (size_t i : p.order) {
        const SafetensorsSource &t = tensors[i];
        for (uint64_t at = 0; at < t.bytes; at += piece.size()) {
            uint64_t n = std::min<uint64_t>(piece.size(), t.bytes - at);
            t.fill(at, piece.data(), n);
            file.write(piece.data(), n);
        }
    }
    file.commit();
}

}  // namespace halogen
