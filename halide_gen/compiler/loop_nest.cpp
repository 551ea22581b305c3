// Inspection of Halide's lowered statement.
#include "halide_gen/compiler/loop_nest.h"

#include <sstream>

namespace halogen {

namespace {

using namespace Halide::Internal;

const char *loop_kind(ForType t) {
    switch (t) {
    case ForType::Serial: return "serial";
    case ForType::Parallel: return "parallel";
    case ForType::Vectorized: return "vectorized";
    case ForType::Unrolled: return "unrolled";
    default: return "other";
    }
}

class Inspector : public IRVisitor {
public:
    explicit Inspector(LoopNest &out) : out_(out) {}

private:
    LoopNest &out_;
    using IRVisitor::visit;
    void visit(const ProducerConsumer *op) override {
        if (op->is_producer) out_.produced.push_back(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        out_.allocated.push_back(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        out_.loops.push_back(op->name + ":" + loop_kind(op->for_type));
        IRVisitor::visit(op);
    }
};

// Captures the statement at the end of Halide's lowering passes, before parallel loops are
// split off into closures, so the whole loop nest reads as one statement.
class Capture : public IRMutator {
public:
    Halide::Internal::Stmt stmt;
    using IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override {
        if (!stmt.defined()) stmt = s;
        return s;
    }
};

}  // namespace

LoopNest loop_nest(const LoweredGraph &lg, const Halide::Target &target) {
    Halide::Target t = target.with_feature(Halide::Target::NoAsserts).with_feature(Halide::Target::NoBoundsQuery);
    Halide::Pipeline p(lg.out);
    Capture capture;
    p.add_custom_lowering_pass(&capture, nullptr);
    p.compile_to_module(p.infer_arguments(), "kernel", t);   // also right for external inputs
    LoopNest out;
    Inspector insp(out);
    capture.stmt.accept(&insp);
    std::ostringstream text;
    text << capture.stmt;
    // Keep the loop nest; drop the buffer-descriptor unpacking and contract checks around it.
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("assert(", 0) == 0 || line.find("_halide_buffer_get") != std::string::npos) continue;
        out.stmt += line + "\n";
    }
    return out;
}

}  // namespace halogen
