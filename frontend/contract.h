// How the tensors a caller holds meet a kernel's arguments. A kernel takes dense row-major buffers
// whose shapes are its graph's, written with symbolic dims (x [R, D]); a caller holds tensors as
// PyTorch does (x [2, 7, 4097]). A contract gives each argument a layout: the caller's axes, each a
// dim of the kernel's symbols or a run of axes ("*R": any number of axes whose product is R).
//
//   layernorm   x [*R, D], weight [D], bias [D] -> [*R, D]         kernel: x [R, D]
//   groupnorm   x [N, 32*CG, *S], weight [32*CG] -> [N, 32*CG, *S]  kernel: x [N, 32, CG, S]
//
// Binding a call reads every symbol off the caller's shapes, in the contract's input order (the
// order the layouts are given in, then any other input by name); checks each tensor's
// dtype and shape against its layout, so that an error names the tensor that does not fit and
// where each dim it disagrees with was read; and gives the same memory in the kernel's shapes (a
// free view: both are dense and hold the same elements). A run in the output's layout repeats the
// axes the input matched (LayerNorm's output has x's shape).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/array.h"
#include "frontend/graph.h"

namespace halogen {

using BufferRefs = std::map<std::string, BufferRef>;

// One axis of a caller's layout: a dim, or a run of axes whose product binds the symbol `dim`.
struct LayoutAxis {
    Dim dim;
    bool run = false;
};
using Layout = std::vector<LayoutAxis>;

// "[*R, D]", "[N, 32*CG, *S]", "[3, K]": dims are products of symbols and numbers.
Layout parse_layout(const std::string &text);
std::string layout_str(const Layout &l);

// A call bound to the kernel's layout.
struct BoundCall {
    Bindings dims;                    // every symbol of the kernel's graph
    BufferRefs inputs;                // by name, in the kernel's shapes
    std::vector<BufferRef> outputs;   // in the kernel's shapes
};

class Contract {
public:
    Contract() = default;
    // `who` names the kernel in messages ("layernorm"). `layouts` gives the caller's layout of graph
    // inputs and outputs (outputs as "out", or "out0", "out1", ... for several), in the order the
    // inputs are read; an argument without one, or with "", is taken in the kernel's own shape.
    Contract(std::string who, Graph graph, const std::vector<std::pair<std::string, std::string>> &layouts = {});

    // A rank-0 float32 input a call may leave out, which then holds `value` (a norm's eps).
    Contract &with_default(const std::string &input, double value);
    // A symbol a call may set in its bindings, which otherwise is `value` (GroupNorm's groups G).
    Contract &with_parameter(const std::string &symbol, int64_t value);
    const std::map<std::string, double> &input_defaults() const { return input_defaults_; }
    const Bindings &parameters() const { return parameters_; }

    const std::string &who() const { return who_; }
    const Graph &graph() const { return graph_; }
    std::vector<std::string> input_names() const;
    const Layout &input_layout(const std::string &name) const;
    const Layout &output_layout(int k = 0) const { return output_layouts_.at(k); }
    // "x float32 [*R, D], weight float32 [D] -> float32 [*R, D]"
    std::string describe() const;

    // Binds a call: `given` supplies symbols no shape holds (e.g. a dim used only by
    // index_components). BufferError names the argument that does not fit; BindingError a symbol.
    BoundCall bind(const BufferRefs &inputs, const std::vector<BufferRef> &outputs, const Bindings &given = {}) const;
    // The caller-layout shapes of the outputs for these input shapes (checked as bind() checks them).
    std::vector<std::vector<int64_t>> output_shapes(const std::map<std::string, std::vector<int64_t>> &inputs,
                                                    const Bindings &given = {}) const;

private:
    struct Reading;   // symbols read so far, and where each came from
    Reading read_inputs(const std::map<std::string, std::pair<DType, std::vector<int64_t>>> &inputs,
                        const Bindings &given) const;
    std::vector<int64_t> expand(const Layout &layout, const Reading &r, const std::string &what) const;

    std::string who_;
    Graph graph_{std::vector<Tensor>{}};
    std::vector<const Node *> inputs_;   // in reading order
    std::map<std::string, Layout> input_layouts_;
    std::vector<Layout> output_layouts_;
    std::map<std::string, double> input_defaults_;
    std::map<std::string, std::shared_ptr<const Array>> default_arrays_;   // what a left-out input reads
    Bindings parameters_;
};

}  // namespace halogen
