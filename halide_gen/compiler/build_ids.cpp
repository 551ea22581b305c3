// Build ids of the loaded code (build_ids.h), read from the PT_NOTE segments the dynamic loader
// reports for each loaded object.
#include "halide_gen/compiler/build_ids.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include <fmt/format.h>

namespace halogen {

namespace {

struct Search {
    std::string library;   // empty: the executable
    bool found = false;
    std::string id, path;
};

std::string note_build_id(const dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
        const char *end = p + ph.p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto *nh = reinterpret_cast<const ElfW(Nhdr) *>(p);
            const char *name = p + sizeof(ElfW(Nhdr));
            const char *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                std::string hex;
                for (unsigned k = 0; k < nh->n_descsz; ++k) hex += fmt::format("{:02x}", uint8_t(desc[k]));
                return hex;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return "";
}

int visit(dl_phdr_info *info, size_t, void *data) {
    auto &s = *static_cast<Search *>(data);
    const std::string name = info->dlpi_name ? info->dlpi_name : "";
    const bool wanted = s.library.empty() ? name.empty() : name.find(s.library) != std::string::npos;
    if (!wanted) return 0;
    s.found = true;
    s.path = name;
    s.id = note_build_id(info);
    return 1;
}

std::string search(const std::string &library) {
    Search s{library};
    dl_iterate_phdr(visit, &s);
    if (!s.id.empty()) return s.id;
    std::string path = s.path;
    if (library.empty()) {
        char buf[4096];
        const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        path = n > 0 ? std::string(buf, std::size_t(n)) : "";
    }
    struct stat st {};
    if (path.empty() || stat(path.c_str(), &st) != 0) return fmt::format("unknown {}", library.empty() ? "executable" : library);
    return fmt::format("{} {} {}.{:09d}", path, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

}  // namespace

std::string executable_build_id() {
    static const std::string id = search("");
    return id;
}

std::string library_build_id(const std::string &library) { return search(library); }

}  // namespace halogen
