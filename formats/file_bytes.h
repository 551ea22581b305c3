// A whole file's bytes, read-only, as the format readers parse them: the file mapped (its pages
// read as they are touched, shared with the page cache), or bytes held in memory for a file given
// that way (tests, fuzzing). The readers keep it alive as long as any view into it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace halogen {

class FileBytes {
public:
    // FormatError naming `path` when it cannot be opened, is not a regular file or cannot be
    // mapped. An empty file maps to no bytes (data() is null).
    static std::shared_ptr<const FileBytes> map(const std::string &path);
    static std::shared_ptr<const FileBytes> hold(std::string bytes);

    ~FileBytes();
    FileBytes(const FileBytes &) = delete;
    FileBytes &operator=(const FileBytes &) = delete;

    const uint8_t *data() const { return data_; }
    uint64_t size() const { return size_; }
    bool mapped() const { return map_ != nullptr; }

private:
    FileBytes() = default;
    const uint8_t *data_ = nullptr;
    uint64_t size_ = 0;
    void *map_ = nullptr;
    std::string owned_;
};

}  // namespace halogen
