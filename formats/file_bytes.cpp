// FileBytes (file_bytes.h).
#include "formats/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

std::shared_ptr<const FileBytes> FileBytes::map(const std::string &path) {
    std::shared_ptr<FileBytes> f(new FileBytes());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw FormatError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    struct stat st;
    const bool stat_ok = fstat(fd, &st) == 0;
    if (!stat_ok || !S_ISREG(st.st_mode)) {
        const std::string why = !stat_ok ? fmt::format("cannot stat: {}", std::strerror(errno)) : "not a regular file";
        ::close(fd);
        throw FormatError(fmt::format("{}: {}", path, why));
    }
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size > 0) {
        void *p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            throw FormatError(fmt::format("{}: cannot map {} bytes: {}", path, size, std::strerror(err)));
        }
        f->map_ = p;
        f->data_ = static_cast<const uint8_t *>(p);
        f->size_ = size;
    }
    ::close(fd);   // the mapping outlives the descriptor
    return f;
}

std::shared_ptr<const FileBytes> FileBytes::hold(std::string bytes) {
    std::shared_ptr<FileBytes> f(new FileBytes());
    f->owned_ = std::move(bytes);
    f->data_ = reinterpret_cast<const uint8_t *>(f->owned_.data());
    f->size_ = f->owned_.size();
    return f;
}

FileBytes::~FileBytes() {
    if (map_) munmap(map_, size_);
}

}  // namespace halogen
