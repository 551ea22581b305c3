// An open safetensors file: the read-only mapping, the header read without the data, lookups by
// name, and the float32 view of F32/BF16/F16 tensors (see safetensors.h).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "frontend/bfloat16.h"
#include "formats/printable_text.h"
#include "formats/safetensors.h"
#include "formats/safetensors_internal.h"

namespace halogen {

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &problem) {
    throw FormatError(file + ": " + problem);
}

// An open file descriptor, closed on scope exit.
struct Fd {
    int fd;
    explicit Fd(const std::string &path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        if (fd < 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
    }
    ~Fd() { ::close(fd); }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;

    uint64_t regular_file_size(const std::string &path) const {
        struct stat st;
        if (fstat(fd, &st) != 0) fail(path, fmt::format("cannot stat: {}", std::strerror(errno)));
        if (!S_ISREG(st.st_mode)) fail(path, "not a regular file");
        return static_cast<uint64_t>(st.st_size);
    }

    void read_exact(const std::string &path, uint64_t offset, char *out, size_t n) const {
        for (size_t done = 0; done < n;) {
            ssize_t got = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) fail(path, fmt::format("cannot read: {}", std::strerror(errno)));
            if (got == 0) fail(path, fmt::format("file ended while reading byte {}", offset + done));
            done += static_cast<size_t>(got);
        }
    }
};

}  // namespace

SafetensorsHeader read_safetensors_header(const std::string &path) {
    Fd file(path);
    uint64_t size = file.regular_file_size(path);
    std::string start(size < 8 ? size : 8, '\0');
    file.read_exact(path, 0, start.data(), start.size());
    // Checked against the file's size before the header is allocated.
    uint64_t n = safetensors_header_length(start, size, path);
    start.resize(8 + n);
    file.read_exact(path, 8, start.data() + 8, n);
    return parse_safetensors_header(start, size, path);
}

SafetensorsFile SafetensorsFile::open(const std::string &path) {
    std::shared_ptr<const FileBytes> bytes = FileBytes::map(path);
    if (bytes->size() < 8) safetensors_header_length({}, bytes->size(), path);   // throws: too short
    return bind(std::move(bytes), path);
}

SafetensorsFile SafetensorsFile::from_bytes(std::string bytes, const std::string &name) {
    return bind(FileBytes::hold(std::move(bytes)), name);
}

SafetensorsFile SafetensorsFile::bind(std::shared_ptr<const FileBytes> storage, const std::string &path) {
    SafetensorsFile f;
    std::string_view all(reinterpret_cast<const char *>(storage->data()), storage->size());
    f.header_ = parse_safetensors_header(all, storage->size(), path);
    const uint8_t *data = storage->data() + f.header_.data_offset;
    for (size_t i = 0; i < f.header_.tensors.size(); ++i) {
        auto &t = f.header_.tensors[i];
        t.data = data + t.begin;
        t.mapped = storage->mapped();
        f.index_.emplace(t.name, i);
    }
    f.storage_ = std::move(storage);
    f.path_ = path;
    return f;
}

std::vector<std::string> SafetensorsFile::names() const {
    std::vector<std::string> out;
    out.reserve(header_.tensors.size());
    for (const auto &t : header_.tensors) out.push_back(t.name);
    std::sort(out.begin(), out.end());
    return out;
}

const SafetensorsTensor *SafetensorsFile::find(std::string_view name) const {
    auto it = index_.find(std::string(name));
    return it == index_.end() ? nullptr : &header_.tensors[it->second];
}

const SafetensorsTensor &SafetensorsFile::at(std::string_view name) const {
    if (const SafetensorsTensor *t = find(name)) return *t;
    fail(path_, fmt::format("no tensor '{}' (the file has {})", printable_text(name), header_.tensors.size()));
}

uint64_t SafetensorsFile::touch_data() const {
    if (!storage_) return 0;
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    uint64_t sum = 0;
    const volatile uint8_t *bytes = storage_->data();
    for (uint64_t i = header_.data_offset; i < storage_->size(); i += page) sum += bytes[i];
    return sum;
}

namespace {

// The checks of copy_as_float32, made before anything is allocated or written.
void require_float_data(const SafetensorsTensor &t) {
    if (t.dtype != SafetensorsDType::F32 && t.dtype != SafetensorsDType::BF16 && t.dtype != SafetensorsDType::F16)
        throw DTypeError(fmt::format("tensor '{}' is {}: only F32, BF16 and F16 convert to float32",
                                     printable_text(t.name), safetensors_dtype_name(t.dtype)));
    if (t.data == nullptr && t.bytes() > 0)
        throw BufferError(fmt::format("tensor '{}': no data (its header was read without the file)",
                                      printable_text(t.name)));
}

}  // namespace

void copy_as_float32(const SafetensorsTensor &t, float *out) {
    require_float_data(t);
    size_t n = static_cast<size_t>(t.numel());
    if (n == 0) return;
    if (t.dtype == SafetensorsDType::F32)
        std::memcpy(out, t.data, n * sizeof(float));
    else if (t.dtype == SafetensorsDType::BF16)
        bfloat16_to_float(t.data, out, n);
    else
        float16_to_float(t.data, out, n);
}

std::vector<float> to_float32(const SafetensorsTensor &t) {
    require_float_data(t);
    std::vector<float> out(static_cast<size_t>(t.numel()));
    copy_as_float32(t, out.data());
    return out;
}

void release_resident_pages(const SafetensorsTensor &t) {
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<uintptr_t>(t.data) + page - 1) / page * page;
    const auto end = (reinterpret_cast<uintptr_t>(t.data) + t.bytes()) / page * page;
    if (t.data == nullptr || end <= begin) return;
    if (t.mapped) {   // a clean page of a read-only file mapping: dropped from the process, not from the page cache
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
        return;
    }
#ifdef MADV_PAGEOUT
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_PAGEOUT);
#endif
}

uint64_t read_resident_pages(const SafetensorsTensor &t) {
    if (t.data == nullptr) return 0;
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const auto *bytes = static_cast<const volatile uint8_t *>(t.data);
    uint8_t sink = 0;
    for (size_t at = 0; at < t.bytes(); at += page) sink ^= bytes[at];
    if (t.bytes() > 0) sink ^= bytes[t.bytes() - 1];
    (void)sink;
    return t.bytes();
}

}  // namespace halogen
