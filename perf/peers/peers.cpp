// The peers compiled in (peer.h): each library is optional and found at configure time.
#include "perf/peers/peer.h"

#include "frontend/family_inputs.h"
#ifdef HALOGEN_HAVE_TORCH
#include "perf/peers/torch_peer.h"
#endif
#ifdef HALOGEN_HAVE_ONEDNN
#include "perf/peers/onednn_peer.h"
#endif

namespace halogen::perf {

std::vector<Peer> peers() {
    std::vector<Peer> out;
#ifdef HALOGEN_HAVE_TORCH
    out.push_back(torch_peer());
#endif
#ifdef HALOGEN_HAVE_ONEDNN
    out.push_back(onednn_peer());
#endif
    return out;
}

std::vector<std::string> peer_op_names(const Peer &peer, const std::string &family) {
    FamilyInputs tiny;
    if (family == "embedding") {
        tiny = embedding_inputs(std::make_shared<Array>(random_floats({8, 4}, 1)), 2, 8);
    } else if (family.rfind("conv", 0) == 0) {
        const int rank = family[4] - '0';
        std::vector<int64_t> x = {1, 2}, k = {2};
        x.insert(x.end(), rank, 4);
        k.insert(k.end(), rank, 3);
        tiny = conv_inputs(x, k);
    } else {
        tiny = norm_inputs(family, family == "layernorm" || family == "rmsnorm" ? std::vector<int64_t>{2, 8}
                                                                                : std::vector<int64_t>{1, 32, 2});
    }
    Array out(DType::Float32, tiny.out_shape);
    PeerCase c{family, {}, out.ref()};
    for (auto &[name, a] : tiny.inputs) c.inputs.emplace(name, a->ref());
    std::vector<std::string> names;
    for (const PeerOp &op : peer.ops(c)) names.push_back(op.name);
    return names;
}

}  // namespace halogen::perf
