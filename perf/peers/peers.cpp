// The peers compiled in (peer.h): each library is optional and found at configure time.
#include "perf/peers/peer.h"

#include "perf/cases.h"
#include "schedules/registry.h"
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

std::vector<std::string> peer_op_names(const Peer &peer, const BenchCase &tiny) {
    CaseInputs in = tiny.spec.make();
    Array out(DType::Float32, in.out_shape);
    const BoundCall call = find_family(tiny.family()).contract.bind(in.refs, {out.ref()}, in.dims);
    std::vector<std::string> names;
    for (const PeerOp &op : peer.ops(PeerCase{tiny.family(), call.inputs, call.outputs.at(0)})) names.push_back(op.name);
    return names;
}

}  // namespace halogen::perf
