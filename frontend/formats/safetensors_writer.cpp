// The safetensors writer: plan (order, offsets, header text), then the bytes (see safetensors_writer.h).
#include "frontend/formats/safetensors_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "frontend/formats/safetensors_internal.h"

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

}  // namespace

SafetensorsPlan plan_safetensors(const std::vector<SafetensorsEntry> &tensors,
                                 const std::map<std::string, std::string> &metadata) {
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
        if (t.bytes > 0 && t.data == nullptr)
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
    SafetensorsPlan plan = plan_safetensors(tensors, metadata);
    static std::atomic<unsigned> counter{0};
    std::string tmp = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail(path, fmt::format("cannot create {}: {}", tmp, std::strerror(errno)));
    auto write_all = [&](const char *p, uint64_t n) {
        while (n > 0) {
            ssize_t got = ::write(fd, p, std::min<uint64_t>(n, uint64_t(1) << 30));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                int err = errno;
                ::close(fd);
                ::unlink(tmp.c_str());
                fail(path, fmt::format("cannot write: {}", std::strerror(err)));
            }
            p += got;
            n -= static_cast<uint64_t>(got);
        }
    };
    write_all(plan.header.data(), plan.header.size());
    for (size_t i : plan.order) write_all(static_cast<const char *>(tensors[i].data), tensors[i].bytes);
    if (::close(fd) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        fail(path, fmt::format("cannot write: {}", std::strerror(err)));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        fail(path, fmt::format("cannot rename {} to it: {}", tmp, std::strerror(err)));
    }
}

}  // namespace halogen
