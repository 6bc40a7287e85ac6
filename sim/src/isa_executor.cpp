// SPDX-License-Identifier: MIT
#include "isa_executor.h"

#include "decoder.h"
#include "dispatcher.h"
#include "executable.h"

#include <atomic>

namespace sim {

std::shared_ptr<const isa::Program> IsaCode::program() {
    std::call_once(once_, [this] { program_ = isa::decode_program(begin_, end_); });
    return program_;
}

hsa_status_t run_isa_kernel(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet,
                            uint64_t queue_address, isa::GwsState* gws, uint32_t compute_units,
                            isa::PerfCounters* counters, const std::function<bool()>& cancelled,
                            std::string& error) {
    IsaKernelSlot* slot = kernel.isa.get();
    if (!slot || !slot->code) {
        error = "kernel " + kernel.symbol_name + ": its code object has no executable segment";
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    std::call_once(slot->once, [&] {
        slot->kernel = std::make_shared<isa::Kernel>(
            isa::make_kernel(slot->code->program(), kernel.key, kernel.symbol_name));
    });
    static std::atomic<uint64_t> dispatch_ids{0};
    isa::DispatchRequest request;
    request.packet = &packet;
    request.queue_address = queue_address;
    request.dispatch_id = dispatch_ids.fetch_add(1, std::memory_order_relaxed);
    request.cancelled = cancelled;
    request.gws = gws;
    request.compute_units = compute_units;
    request.counters = counters;
    switch (isa::run_dispatch(*slot->kernel, request, error)) {
    case isa::DispatchResult::completed:
        return HSA_STATUS_SUCCESS;
    case isa::DispatchResult::cancelled:
        return HSA_STATUS_INFO_BREAK;
    case isa::DispatchResult::faulted:
        break;
    }
    return HSA_STATUS_ERROR_EXCEPTION;
}

} // namespace sim
