// What the libFuzzer targets (tests/*_fuzz/*_fuzz_target.cpp) share: a crash that names the target
// and its reason, and an anonymous in-memory file that a reader opens by path as any file.
// Header only: scripts/fuzz_*.sh compile each target with clang and no project library.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace halogen::fuzz {

// Prints "<target>: <what>: <detail>" and aborts: how a target reports a broken contract.
[[noreturn]] inline void crash(const char *target, const char *what, const std::string &detail) {
    std::fprintf(stderr, "%s: %s: %s\n", target, what, detail.c_str());
    std::fflush(stderr);
    std::abort();
}

// An anonymous in-memory file, reached by path through /proc.
class MemFile {
public:
    explicit MemFile(const char *target) : target_(target) {
        fd_ = memfd_create(target, 0);
        if (fd_ < 0) crash(target_, "memfd_create failed", std::strerror(errno));
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    MemFile(const MemFile &) = delete;
    MemFile &operator=(const MemFile &) = delete;

    const std::string &path() const { return path_; }

    // Replaces the file's contents with `size` bytes at `data`.
    void write_all(const uint8_t *data, size_t size) {
        if (ftruncate(fd_, 0) != 0 || lseek(fd_, 0, SEEK_SET) != 0) crash(target_, "cannot reset the memfd", std::strerror(errno));
        for (size_t done = 0; done < size;) {
            const ssize_t n = ::write(fd_, data + done, size - done);
            if (n <= 0) crash(target_, "cannot write the memfd", std::strerror(errno));
            done += static_cast<size_t>(n);
        }
    }

private:
    const char *target_;
    int fd_ = -1;
    std::string path_;
};

}  // namespace halogen::fuzz
