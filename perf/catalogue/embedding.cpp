// perf's catalogue of the embedding lookup (catalogue.h), on llama3-8B's table (V = 128256,
// D = 4096): tokens from one (decode) to 2048 (prefill), with hot ids (the same rows every call)
// and fresh ones (rows from DRAM); one token over growing vocabularies; and outputs of 2 to 48 MiB
// for the streaming-store sweep. Its goals hold the default gather against torch's index_select.
#include <string>

#include "frontend/nn/embedding.h"
#include "perf/catalogue/catalogue.h"

namespace halogen::perf {

namespace {

std::vector<Benchmark> embedding(const Family &) {
    std::vector<Benchmark> out;
    for (int64_t T : {1, 16, 128, 2048}) {
        for (const bool fresh : {false, true}) {
            Benchmark b({{"tokens", std::to_string(T)}}, {"perf", "goal"}, fresh);
            if ((T == 128 && fresh) || (T == 16 && !fresh)) b.grids.insert("quick");
            out.push_back(b);
        }
    }
    for (int64_t V : {1024, 4096, 16384, 65536}) out.emplace_back(CaseArgs{{"vocab", std::to_string(V)}, {"tokens", "1"}}, std::set<std::string>{"perf"});
    // Where streaming stores start to pay: 2 to 48 MiB of output.
    for (int64_t T : {128, 256, 512, 768, 1024, 1536, 2048, 3072}) {
        for (const bool fresh : {false, true}) out.emplace_back(CaseArgs{{"tokens", std::to_string(T)}}, std::set<std::string>{"sweep"}, fresh);
    }
    return out;
}

const RegisterCatalogue registered(nn::ops::kEmbedding,
                                   {embedding, [](const std::string &op) { return op == "libtorch:index_select"; }});

}  // namespace

}  // namespace halogen::perf
