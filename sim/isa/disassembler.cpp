// SPDX-License-Identifier: MIT
// LLVM's AMDGPU disassembler for gfx90a behind one lock (MCDisassembler and MCInstPrinter keep state).
#include "decoder.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <mutex>
#include <stdexcept>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUDisassembler();

namespace sim::isa {

namespace {

class Disassembler {
  public:
    Disassembler() : triple_("amdgcn-amd-amdhsa") {
        LLVMInitializeAMDGPUTargetInfo();
        LLVMInitializeAMDGPUTargetMC();
        LLVMInitializeAMDGPUDisassembler();
        std::string error;
        const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple_.str(), error);
        if (!target) {
            throw std::runtime_error("LLVM has no AMDGPU target: " + error);
        }
        registers_.reset(target->createMCRegInfo(triple_.str()));
        llvm::MCTargetOptions options;
        asm_info_.reset(target->createMCAsmInfo(*registers_, triple_.str(), options));
        subtarget_.reset(target->createMCSubtargetInfo(triple_.str(), "gfx90a", ""));
        instructions_.reset(target->createMCInstrInfo());
        context_ =
            std::make_unique<llvm::MCContext>(triple_, asm_info_.get(), registers_.get(), subtarget_.get());
        disassembler_.reset(target->createMCDisassembler(*subtarget_, *context_));
        printer_.reset(target->createMCInstPrinter(triple_, 0, *asm_info_, *instructions_, *registers_));
        if (!disassembler_ || !printer_) {
            throw std::runtime_error("LLVM cannot disassemble gfx90a");
        }
    }

    DisassembledInstruction decode(const uint8_t* bytes, size_t available) {
        std::lock_guard lock(mutex_);
        DisassembledInstruction out;
        llvm::MCInst inst;
        uint64_t size = 0;
        const auto status = disassembler_->getInstruction(
            inst, size, llvm::ArrayRef<uint8_t>(bytes, available), 0, llvm::nulls());
        if (status != llvm::MCDisassembler::Success) {
            return out;
        }
        std::string text;
        llvm::raw_string_ostream stream(text);
        printer_->printInst(&inst, 0, "", *subtarget_, stream);
        stream.flush();
        const size_t first = text.find_first_not_of(" \t");
        out.text = first == std::string::npos ? std::string() : text.substr(first);
        out.size = static_cast<uint32_t>(size);
        return out;
    }

  private:
    std::mutex mutex_;
    llvm::Triple triple_;
    std::unique_ptr<llvm::MCRegisterInfo> registers_;
    std::unique_ptr<llvm::MCAsmInfo> asm_info_;
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget_;
    std::unique_ptr<llvm::MCInstrInfo> instructions_;
    std::unique_ptr<llvm::MCContext> context_;
    std::unique_ptr<llvm::MCDisassembler> disassembler_;
    std::unique_ptr<llvm::MCInstPrinter> printer_;
};

} // namespace

DisassembledInstruction disassemble(const uint8_t* bytes, size_t available) {
    static Disassembler instance;
    return instance.decode(bytes, available);
}

} // namespace sim::isa
