// The peers compiled in (peer.h): each library is optional and found at configure time.
#include "perf/peers/peer.h"

#include <fmt/format.h>

#include "frontend/errors.h"

#include "perf/cases.h"
#include "perf/peers/peer_inputs.h"
#include "schedules/registry.h"
#ifdef HALOGEN_HAVE_TORCH
#include "perf/peers/torch_peer.h"
#endif
#ifdef HALOGEN_HAVE_ONEDNN
#include "perf/peers/onednn_peer.h"
#endif
#ifdef HALOGEN_HAVE_OPENBLAS
#include "perf/peers/openblas_peer.h"
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
#ifdef HALOGEN_HAVE_OPENBLAS
    out.push_back(openblas_peer());
#endif
    return out;
}

const BufferRef &unpacked_weight(const PeerCase &c) {
    auto it = c.inputs.find("weight_unpacked");
    if (it == c.inputs.end()) it = c.inputs.find("weight");
    if (it == c.inputs.end()) throw BufferError(fmt::format("peer {}: no weight", c.family));
    return it->second;
}

std::vector<std::string> peer_op_names(const Peer &peer, const BenchCase &tiny) {
    CaseInputs in = tiny.spec.make();
    const Family &f = find_family(tiny.family());
    Array out(f.graph().outputs().at(0).dtype(), in.out_shape);
    const BoundCall call = f.contract.bind(in.refs, {out.ref()}, in.dims);
    BufferRefs inputs = call.inputs;
    const PeerInputs own = peer_inputs(f.op, inputs);
    inputs.insert(own.refs.begin(), own.refs.end());
    std::vector<std::string> names;
    for (const PeerOp &op : peer.ops(PeerCase{f.name, f.op, inputs, call.outputs.at(0)})) names.push_back(op.name);
    return names;
}

}  // namespace halogen::perf
