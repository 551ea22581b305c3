// The streaming-store rewrite on Halide's LLVM module (see the header).
#include "halide_gen/compiler/streaming_stores.h"

#include <set>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

// Does the store's TBAA tag descend from the type node Halide names after `buffers`' members?
// Halide tags a store into buffer b with b's node, or with nodes for aligned sub-ranges of b
// ("b.width16.base0") whose ancestors lead to b's node, under the root "Halide buffer".
bool stores_into(const llvm::StoreInst &store, const std::set<std::string> &buffers) {
    const llvm::MDNode *tag = store.getMetadata(llvm::LLVMContext::MD_tbaa);
    if (!tag || tag->getNumOperands() < 1) return false;
    const auto *node = llvm::dyn_cast<llvm::MDNode>(tag->getOperand(0));
    while (node && node->getNumOperands() >= 2) {
        if (const auto *name = llvm::dyn_cast<llvm::MDString>(node->getOperand(0))) {
            if (buffers.count(name->getString().str())) return true;
        }
        node = llvm::dyn_cast<llvm::MDNode>(node->getOperand(1));
    }
    return false;
}

// A vector store of a power-of-two size of at least 16 bytes (what MOVNTPS and its wider forms
// write at once).
bool streamable(const llvm::StoreInst &store, const llvm::DataLayout &layout) {
    if (!store.getValueOperand()->getType()->isVectorTy() || !store.isSimple()) return false;
    const uint64_t bytes = layout.getTypeStoreSize(store.getValueOperand()->getType()).getFixedSize();
    return bytes >= 16 && (bytes & (bytes - 1)) == 0;
}

}  // namespace

int stream_output_stores(llvm::Module &module, const std::vector<std::string> &output_buffers) {
    const std::set<std::string> buffers(output_buffers.begin(), output_buffers.end());
    const llvm::DataLayout &layout = module.getDataLayout();
    llvm::LLVMContext &context = module.getContext();
    llvm::MDNode *nontemporal = llvm::MDNode::get(
        context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1)));

    int rewritten = 0;
    for (llvm::Function &function : module) {
        std::vector<llvm::StoreInst *> stores;
        for (llvm::BasicBlock &block : function) {
            for (llvm::Instruction &inst : block) {
                auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
                if (store && streamable(*store, layout) && stores_into(*store, buffers)) stores.push_back(store);
            }
        }
        if (stores.empty()) continue;
        for (llvm::StoreInst *store : stores) {
            const uint64_t bytes = layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedSize();
            if (store->getAlign().value() >= bytes) {
                store->setMetadata(llvm::LLVMContext::MD_nontemporal, nontemporal);
                continue;
            }
            llvm::IRBuilder<> b(store);
            llvm::Value *address = b.CreatePtrToInt(store->getPointerOperand(), b.getInt64Ty());
            llvm::Value *aligned = b.CreateICmpEQ(b.CreateAnd(address, b.getInt64(bytes - 1)), b.getInt64(0));
            llvm::Instruction *then_branch = nullptr, *else_branch = nullptr;
            llvm::SplitBlockAndInsertIfThenElse(aligned, store, &then_branch, &else_branch);
            auto *streamed = llvm::cast<llvm::StoreInst>(store->clone());
            streamed->insertBefore(then_branch);
            streamed->setAlignment(llvm::Align(bytes));
            streamed->setMetadata(llvm::LLVMContext::MD_nontemporal, nontemporal);
            store->moveBefore(else_branch);
        }
        rewritten += int(stores.size());
        // Non-temporal stores are weakly ordered: fence them before the function returns.
        llvm::Function *sfence = llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::x86_sse_sfence);
        std::vector<llvm::ReturnInst *> returns;
        for (llvm::BasicBlock &block : function) {
            if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator())) returns.push_back(ret);
        }
        for (llvm::ReturnInst *ret : returns) llvm::IRBuilder<>(ret).CreateCall(sfence);
    }
    return rewritten;
}

int prefetch_into_l2(llvm::Module &module) {
    llvm::Constant *l2 = llvm::ConstantInt::get(llvm::Type::getInt32Ty(module.getContext()), 2);
    int count = 0;
    for (llvm::Function &function : module) {
        for (llvm::BasicBlock &block : function) {
            for (llvm::Instruction &inst : block) {
                auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
                if (!call || call->getIntrinsicID() != llvm::Intrinsic::prefetch) continue;
                call->setArgOperand(2, l2);   // llvm.prefetch(address, rw, locality, cache type)
                ++count;
            }
        }
    }
    return count;
}

int compile_with_streaming_stores(const Halide::Module &module, const std::string &object_path,
                                  const std::string &assembly_path) {
    if (module.target().arch != Halide::Target::X86) {
        throw Error(fmt::format("streaming stores: {} is not an x86 target", module.target().to_string()));
    }
    std::vector<std::string> outputs;
    for (const Halide::Internal::LoweredFunc &f : module.functions()) {
        for (const Halide::Internal::LoweredArgument &arg : f.args) {
            if (arg.is_output()) outputs.push_back(arg.name);
        }
    }
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> llvm_module = Halide::compile_module_to_llvm_module(module, context);
    const int rewritten = stream_output_stores(*llvm_module, outputs);
    prefetch_into_l2(*llvm_module);
    if (!assembly_path.empty()) {   // from a copy: code generation rewrites the module it runs on
        std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*llvm_module);
        auto out = Halide::make_raw_fd_ostream(assembly_path);
        Halide::compile_llvm_module_to_assembly(*copy, *out);
    }
    auto out = Halide::make_raw_fd_ostream(object_path);
    Halide::compile_llvm_module_to_object(*llvm_module, *out);
    return rewritten;
}

}  // namespace halogen
