// libFuzzer target for the JSON graph reader behind `halogen groups FILE` (formats/graph_json.h).
//
// Each input is read with graph_from_json, and a graph that parses is cut into groups with
// group_graph, the two calls `halogen groups` makes. The contract checked:
//   - every input either parses and groups, or throws a halogen::Error; any other exception
//     aborts (a crash), in the reader and in the grouping alike;
//   - an Error's message is one non-empty line; the reader's start with "graph: ";
//   - every group's collapsed loops cover its anchor: their extents multiply to the anchor's
//     element count (a wrapped product, as "loops [0]" for 2^40 x 2^40, breaks this).
// Built two ways: with clang's -fsanitize=fuzzer,address,undefined by scripts/fuzz_graph_json.sh,
// and with the project's own toolchain plus replay_main.cpp (ctest graph_json_fuzz.replay_corpus),
// which feeds every file of tests/graph_json_fuzz/corpus/ through this function.
#include <cstdint>
#include <exception>
#include <string>
#include <typeinfo>
#include <vector>

#include "frontend/errors.h"
#include "formats/graph_json.h"
#include "frontend/grouping/grouping.h"
#include "tests/graph_json_fuzz/graph_json_fuzz_target.h"
#include "tests/support/fuzz_target.h"

namespace {

int64_t g_grouped = 0, g_rejected = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { halogen::fuzz::crash("graph_json_fuzz", what, detail); }

void check_message(const std::string &msg, const char *stage, bool from_reader) {
    if (msg.empty() || msg.find('\n') != std::string::npos || msg.find('\r') != std::string::npos)
        crash("halogen::Error message is not one non-empty line", std::string(stage) + ": " + msg);
    if (from_reader && msg.rfind("graph: ", 0) != 0) crash("reader error does not start with \"graph: \"", msg);
}

void check_groups(const std::vector<halogen::Group> &groups) {
    for (const halogen::Group &g : groups) {
        const halogen::Dim want = halogen::numel(g.anchor->shape), got = halogen::numel(g.collapsed_shape);
        if (want != got)
            crash("collapsed loops do not cover the anchor",
                  g.anchor->label() + " " + halogen::shape_str(g.anchor->shape) + " loops " +
                      halogen::shape_str(g.collapsed_shape));
    }
}

}  // namespace

namespace halogen::graph_json_fuzz {
int64_t grouped() { return g_grouped; }
int64_t rejected() { return g_rejected; }
}  // namespace halogen::graph_json_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    const char *stage = "graph_from_json";
    try {
        halogen::Graph graph = halogen::graph_from_json(text);
        stage = "group_graph";
        std::vector<halogen::Group> groups = halogen::group_graph(graph);
        stage = "the loop check";
        check_groups(groups);
        ++g_grouped;
    } catch (const halogen::Error &e) {
        if (std::string(stage) == "the loop check") crash("the loop check threw", e.what());
        ++g_rejected;
        check_message(e.what(), stage, std::string(stage) == "graph_from_json");
    } catch (const std::exception &e) {
        crash("exception other than halogen::Error", std::string(stage) + ": " + typeid(e).name() + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", std::string(stage) + ": (unknown type)");
    }
    return 0;
}
