// Progress lines on stderr for the llama commands (progress.h).
#include "cli/progress.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/byte_size.h"

namespace halogen {

void TenthsProgress::operator()(uint64_t done, uint64_t total) {
    const int tenth = total ? int(done * 10 / total) : 10;
    if (tenth <= shown) return;
    shown = tenth;
    std::cerr << fmt::format("{}: {:3d}% ({} of {})\n", label, tenth * 10, format_byte_size(done),
                             format_byte_size(total))
              << std::flush;
}

void print_opened(const std::string &command, const Checkpoint &ckpt, double seconds) {
    uint64_t bytes = 0;
    for (const SafetensorsFile &f : ckpt.files()) bytes += f.header().data_bytes;
    std::cerr << fmt::format("{}: mapped and checked {} ({} file{}, {} tensors, {}) in {:.2f} s\n", command,
                             ckpt.path(), ckpt.files().size(), ckpt.files().size() == 1 ? "" : "s", ckpt.size(),
                             format_byte_size(bytes), seconds)
              << std::flush;
}

std::function<void(const LlamaLoadProgress &)> load_progress(const std::string &command) {
    auto weights = std::make_shared<TenthsProgress>(TenthsProgress{command + ": weights ready", 0});
    return [command, weights](const LlamaLoadProgress &p) {
        if (p.stage == "weights") return (*weights)(p.done, p.total);
        const std::string what = p.stage == "compile" ? "compiled program {} of {}"
                                 : p.stage == "load"  ? "loaded program {} of {} from the kernel cache"
                                                      : std::string(p.stage) + " {} of {}";
        std::cerr << fmt::format("{}: {}\n", command, fmt::format(fmt::runtime(what), p.done, p.total)) << std::flush;
    };
}

}  // namespace halogen
