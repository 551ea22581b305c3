// Linking Halide's object into a shared object (shared_object.h).
#include "halide_gen/compiler/shared_object.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <vector>

#include <fmt/format.h>

extern char **environ;

namespace halogen {

std::string link_shared_object(const std::string &object, const std::string &shared_object) {
    const char *env = std::getenv("HALOGEN_LINKER");
    const std::string linker = env && *env ? env : "cc";
    const std::string log = shared_object + ".log";
    // -Bsymbolic: the library's calls into its own Halide runtime stay inside it, whatever else
    // the process has loaded.
    std::vector<std::string> args = {linker, "-shared", "-o", shared_object, object, "-Wl,-Bsymbolic", "-Wl,-z,noexecstack",
                                     "-lpthread", "-ldl", "-lm"};
    std::vector<char *> argv;
    for (std::string &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, linker.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return fmt::format("cannot run the linker '{}' (set HALOGEN_LINKER)", linker);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return fmt::format("the linker '{}' could not be waited for", linker);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    std::ifstream f(log);
    std::string first;
    std::getline(f, first);
    return fmt::format("the linker '{}' failed{}{}", linker, first.empty() ? "" : ": ", first);
}

}  // namespace halogen
