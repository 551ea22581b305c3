// The on-disk cache of compiled kernels (kernel_cache.h).
#include "halide_gen/runtime/kernel_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

namespace halogen {

namespace {

constexpr char kMagic[8] = {'H', 'L', 'G', 'N', 'K', 'C', '0', '1'};
constexpr std::size_t kHeader = sizeof kMagic + 3 * sizeof(uint64_t);

void put_u64(std::string &out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint64_t get_u64(const std::string &in, std::size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(uint8_t(in[at + std::size_t(i)])) << (8 * i);
    return v;
}

// mkdir -p; an empty string, or why not.
std::string make_dirs(const std::string &dir) {
    std::string path;
    std::stringstream parts(dir);
    std::string part;
    if (!dir.empty() && dir[0] == '/') path = "/";
    while (std::getline(parts, part, '/')) {
        if (part.empty()) continue;
        path += part + "/";
        if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return fmt::format("cannot create {}: {}", path, std::strerror(errno));
    }
    return "";
}

// Writes all of `bytes` to fd; false on an error.
bool write_all(int fd, const std::string &bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

}  // namespace

uint64_t fnv1a64(const void *data, std::size_t n, uint64_t hash) {
    const auto *p = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < n; ++i) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::string KernelCache::default_dir(const std::string &dir) {
    if (!dir.empty()) return dir;
    if (const char *d = std::getenv("HALOGEN_CACHE_DIR"); d && *d) return d;
    if (const char *d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/halogen";
    if (const char *d = std::getenv("HOME"); d && *d) return std::string(d) + "/.cache/halogen";
    return "/tmp/halogen-cache";
}

KernelCache::KernelCache(std::string dir, std::string folder) : dir_(std::move(dir)), folder_(std::move(folder)) {}

std::string KernelCache::path_of(const std::string &key) const {
    return fmt::format("{}/{}/{:016x}.hkc", dir_, folder_, fnv1a64(key.data(), key.size()));
}

CacheLookup KernelCache::find(const std::string &key) const {
    CacheLookup out;
    const std::string path = path_of(key);
    std::ifstream f(path, std::ios::binary);
    if (!f) return out;   // absent
    std::string bytes;
    f.seekg(0, std::ios::end);
    const std::streamoff size = f.tellg();
    f.seekg(0, std::ios::beg);
    if (size > 0) {
        bytes.resize(static_cast<size_t>(size));
        f.read(bytes.data(), size);
        bytes.resize(static_cast<size_t>(f.gcount()));
    }
    if (f.bad()) {
        out.problem = fmt::format("unreadable: {}", std::strerror(errno));
        return out;
    }
    if (bytes.size() < kHeader + sizeof(uint64_t) || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        out.problem = bytes.size() < kHeader + sizeof(uint64_t) ? fmt::format("truncated: {} bytes", bytes.size())
                                                                : "not a halogen kernel cache entry";
        return out;
    }
    const uint64_t key_n = get_u64(bytes, 8), meta_n = get_u64(bytes, 16), lib_n = get_u64(bytes, 24);
    const uint64_t room = bytes.size() - kHeader - sizeof(uint64_t);
    if (key_n > room || meta_n > room - key_n || lib_n > room - key_n - meta_n) {
        out.problem = fmt::format("truncated: {} bytes, the header asks for more", bytes.size());
        return out;
    }
    if (key_n + meta_n + lib_n != room) {
        out.problem = fmt::format("{} bytes, the header says {}", bytes.size(), kHeader + key_n + meta_n + lib_n + 8);
        return out;
    }
    const std::size_t body = bytes.size() - sizeof(uint64_t);
    if (fnv1a64(bytes.data(), body) != get_u64(bytes, body)) {
        out.problem = "checksum mismatch";
        return out;
    }
    if (bytes.compare(kHeader, key_n, key) != 0) {
        out.problem = "holds another key (another target, Halide or halogen build)";
        return out;
    }
    // The library moved out of the file's bytes, not copied (a tokenizer snapshot is megabytes).
    std::string metadata = bytes.substr(kHeader + key_n, meta_n);
    bytes.erase(0, kHeader + key_n + meta_n);
    bytes.resize(lib_n);
    out.kernel = CachedKernel{std::move(metadata), std::move(bytes)};
    return out;
}

std::string KernelCache::store(const std::string &key, const CachedKernel &kernel) const {
    if (std::string why = make_dirs(dir_ + "/" + folder_); !why.empty()) return why;
    std::string bytes(kMagic, sizeof kMagic);
    put_u64(bytes, key.size());
    put_u64(bytes, kernel.metadata.size());
    put_u64(bytes, kernel.library.size());
    bytes += key;
    bytes += kernel.metadata;
    bytes += kernel.library;
    put_u64(bytes, fnv1a64(bytes.data(), bytes.size()));

    const std::string path = path_of(key);
    std::random_device rd;
    const std::string tmp = fmt::format("{}.{}.{:08x}.tmp", path, getpid(), rd());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return fmt::format("cannot write {}: {}", tmp, std::strerror(errno));
    const bool written = write_all(fd, bytes);
    const int saved = errno;
    ::close(fd);
    if (!written || std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = fmt::format("cannot write {}: {}", path, std::strerror(written ? errno : saved));
        std::remove(tmp.c_str());
        return why;
    }
    return "";
}

}  // namespace halogen
