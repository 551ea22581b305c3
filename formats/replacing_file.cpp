// A new file renamed over its destination when complete (see replacing_file.h).
#include "formats/replacing_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "frontend/errors.h"

namespace halogen {

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &problem) { throw FormatError(path + ": " + problem); }

}  // namespace

ReplacingFile::ReplacingFile(const std::string &path) : path_(path) {
    static std::atomic<unsigned> counter{0};
    tmp_ = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) fail(path, fmt::format("cannot create {}: {}", tmp_, std::strerror(errno)));
}

ReplacingFile::~ReplacingFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(tmp_.c_str());
}

void ReplacingFile::write(const char *p, uint64_t n) {
    while (n > 0) {
        const ssize_t got = ::write(fd_, p, std::min<uint64_t>(n, uint64_t(1) << 30));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) fail(path_, fmt::format("cannot write: {}", got < 0 ? std::strerror(errno) : "no progress"));
        p += got;
        n -= static_cast<uint64_t>(got);
    }
}

void ReplacingFile::commit() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(path_, fmt::format("cannot write: {}", std::strerror(errno)));
    if (::rename(tmp_.c_str(), path_.c_str()) != 0)
        fail(path_, fmt::format("cannot rename {} to it: {}", tmp_, std::strerror(errno)));
    committed_ = true;
}

}  // namespace halogen
