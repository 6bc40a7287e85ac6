// SPDX-License-Identifier: MIT
// Bounded lock-free multi-producer / single-consumer ring of fixed-size records (Vyukov's bounded
// queue). Producers claim a slot with one CAS and publish it with a release store; the consumer reads
// slots in order. No locks, no system calls, no allocation after construction.
#pragma once

#include "replayscope/ipc/records.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace rs::ipc {

class RecordQueue {
  public:
    /// `capacity` is rounded up to a power of two (minimum 64). Throws std::bad_alloc.
    explicit RecordQueue(std::size_t capacity) {
        std::size_t n = 64;
        while (n < capacity) {
            n <<= 1;
        }
        mask_ = n - 1;
        slots_ = std::make_unique<Slot[]>(n);
        for (std::size_t i = 0; i < n; ++i) {
            slots_[i].turn.store(i, std::memory_order_relaxed);
        }
    }

    std::size_t capacity() const noexcept { return mask_ + 1; }

    /// Claims a slot, lets `fill(Record&)` write it, publishes it. False when the queue is full
    /// (fill not called). Any thread.
    template <typename Fill>
    bool try_push(Fill&& fill) noexcept {
        std::uint64_t pos = enqueue_.load(std::memory_order_relaxed);
        Slot* slot = nullptr;
        for (;;) {
            slot = &slots_[pos & mask_];
            const std::uint64_t turn = slot->turn.load(std::memory_order_acquire);
            const auto diff = static_cast<std::int64_t>(turn - pos);
            if (diff == 0) {
                if (enqueue_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
                    break;
                }
            } else if (diff < 0) {
                return false;
            } else {
                pos = enqueue_.load(std::memory_order_relaxed);
            }
        }
        // The slots ahead were last written by the consumer (their turn): fetch them for writing now so
        // that later pushes do not stall on cross-core cache misses (perf: the emitter's cost was the
        // store buffer draining those misses at the next locked instruction).
        const Slot* ahead = &slots_[(pos + kPrefetchAhead) & mask_];
        __builtin_prefetch(ahead, 1);
        __builtin_prefetch(reinterpret_cast<const char*>(ahead) + 64, 1);
        fill(slot->record);
        slot->turn.store(pos + 1, std::memory_order_release);
        return true;
    }

    /// Calls `use(const Record&)` on the oldest published record and frees its slot. False when the
    /// next slot is not published yet. Consumer thread only.
    template <typename Use>
    bool try_consume(Use&& use) {
        Slot& slot = slots_[dequeue_ & mask_];
        if (slot.turn.load(std::memory_order_acquire) != dequeue_ + 1) {
            return false;
        }
        use(slot.record);
        slot.turn.store(dequeue_ + mask_ + 1, std::memory_order_release);
        ++dequeue_;
        return true;
    }

    /// True when no slot has been claimed beyond the consumer's position (approximate under races).
    bool empty() const noexcept { return enqueue_.load(std::memory_order_acquire) == dequeue_; }

  private:
    static constexpr std::uint64_t kPrefetchAhead = 8;
    struct alignas(64) Slot {
        std::atomic<std::uint64_t> turn{0};
        Record record;
    };
    std::unique_ptr<Slot[]> slots_;
    std::size_t mask_ = 0;
    alignas(64) std::atomic<std::uint64_t> enqueue_{0};
    alignas(64) std::uint64_t dequeue_ = 0; // consumer only
};

} // namespace rs::ipc
