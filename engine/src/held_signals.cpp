// SPDX-License-Identifier: MIT
#include "held_signals.h"

#include "hsa_api.h"

#include <hsa_ext_amd.h>

#include <cstring>
#include <iterator>

namespace rs::engine {

namespace {

constexpr size_t kCompletionOffset = 56;

/// True when the condition of a BARRIER_VALUE packet holds for `value` (ROCr's packet processor
/// compares `value & mask` with the packet's value, hsa_ext_amd.h).
bool condition_met(hsa_signal_value_t value, const hsa_amd_barrier_value_packet_t& b) {
    const hsa_signal_value_t v = value & b.mask;
    switch (b.cond) {
    case HSA_SIGNAL_CONDITION_EQ:
        return v == b.value;
    case HSA_SIGNAL_CONDITION_NE:
        return v != b.value;
    case HSA_SIGNAL_CONDITION_LT:
        return v < b.value;
    case HSA_SIGNAL_CONDITION_GTE:
        return v >= b.value;
    default:
        return true; // unknown condition: not treated as held
    }
}

} // namespace

hsa_signal_t packet_completion_signal(const void* packet) noexcept {
    hsa_signal_t s{0};
    std::memcpy(&s, static_cast<const unsigned char*>(packet) + kCompletionOffset, sizeof s);
    return s;
}

void HeldSignals::hold(hsa_signal_t signal, const std::shared_ptr<Window>& window) {
    if (signal.handle == 0 || !window) {
        return;
    }
    std::lock_guard lock(mutex_);
    held_[signal.handle] = window;
    if (held_.size() >= 2 * swept_size_) {
        sweep();
        swept_size_ = held_.size() > 64 ? held_.size() : 64;
    }
    count_.store(held_.size(), std::memory_order_relaxed);
}

std::shared_ptr<Window> HeldSignals::holder(uint64_t signal) noexcept {
    if (signal == 0 || held_.empty()) {
        return nullptr;
    }
    auto it = held_.find(signal);
    if (it == held_.end()) {
        return nullptr;
    }
    if (it->second->released) {
        held_.erase(it);
        count_.store(held_.size(), std::memory_order_relaxed);
        return nullptr;
    }
    return it->second;
}

void HeldSignals::sweep() noexcept {
    for (auto it = held_.begin(); it != held_.end();) {
        it = it->second->released ? held_.erase(it) : std::next(it);
    }
}

std::shared_ptr<Window> HeldSignals::blocker_of(const void* packet) noexcept {
    // Relaxed is enough: an entry is recorded before the packet carrying its signal is written, so a
    // barrier on that signal submitted after it (ordered by whatever told its thread of the signal) sees
    // a count above zero. Without such an order a stale zero only costs the hold (the drain waits).
    if (count_.load(std::memory_order_relaxed) == 0) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    uint16_t header = 0;
    std::memcpy(&header, packet, sizeof header);
    const auto type = static_cast<uint8_t>(header & 0xff);
    if (type == HSA_PACKET_TYPE_BARRIER_AND || type == HSA_PACKET_TYPE_BARRIER_OR) {
        hsa_barrier_and_packet_t b; // the OR packet has the same layout
        std::memcpy(&b, packet, sizeof b);
        std::shared_ptr<Window> common;
        bool all_held = true, any = false;
        for (const hsa_signal_t& dep : b.dep_signal) {
            if (dep.handle == 0) {
                continue;
            }
            any = true;
            std::shared_ptr<Window> w = holder(dep.handle);
            if (type == HSA_PACKET_TYPE_BARRIER_AND && w) {
                return w; // one dependency that cannot fire before the release holds the barrier
            }
            if (!w || (common && common != w)) {
                all_held = false;
            } else {
                common = w;
            }
        }
        // A barrier-OR completes when any dependency fires: held only when all are held by one window.
        return type == HSA_PACKET_TYPE_BARRIER_OR && any && all_held ? common : nullptr;
    }
    if (type == HSA_PACKET_TYPE_VENDOR_SPECIFIC) {
        hsa_amd_barrier_value_packet_t b;
        std::memcpy(&b, packet, sizeof b);
        if (b.header.AmdFormat != HSA_AMD_PACKET_TYPE_BARRIER_VALUE) {
            return nullptr;
        }
        std::shared_ptr<Window> w = holder(b.signal.handle);
        if (!w || condition_met(hsa().core.hsa_signal_load_scacquire_fn(b.signal), b)) {
            return nullptr;
        }
        return w;
    }
    return nullptr;
}

} // namespace rs::engine
