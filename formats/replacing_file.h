// A file written beside its destination and renamed over it once complete, so that a reader that
// has the old file mapped keeps its bytes and no reader ever sees half a file. Unbuffered writes.
#pragma once

#include <cstdint>
#include <string>

namespace halogen {

class ReplacingFile {
public:
    // Creates "<path>.tmp-<pid>-<n>"; a FormatError naming `path` when it cannot.
    explicit ReplacingFile(const std::string &path);
    ReplacingFile(const ReplacingFile &) = delete;
    ReplacingFile &operator=(const ReplacingFile &) = delete;
    ~ReplacingFile();   // removes the new file unless commit() ran

    void write(const char *p, uint64_t n);   // all n bytes, or a FormatError
    void commit();                           // close and rename over `path`

private:
    std::string path_, tmp_;
    int fd_ = -1;
    bool committed_ = false;
};

}  // namespace halogen
