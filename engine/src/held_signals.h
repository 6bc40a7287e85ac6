// SPDX-License-Identifier: MIT
// Which signals cannot change before a replay window is released: the completion signals of packets
// held behind its gates, so that a barrier waiting on one holds its queue as a gate would
// (docs/replay-window.md, "Packets that wait on a held packet").
#pragma once

#include "queue_gate.h"

#include <hsa.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace rs::engine {

/// Completion signals of packets that cannot complete before an unreleased window W is released: P's own
/// and those of packets written behind a gate of W (or behind a barrier that waits on such a signal).
/// One per engine (Engine::held): a barrier on one agent may wait for a packet held by another agent's
/// window. Its own mutex is a leaf: taken under agent mutexes, never held while taking one.
///
/// A barrier-AND whose dependency is a held signal, a barrier-OR whose every dependency is held by one
/// window, and an AMD BARRIER_VALUE packet on a held signal whose condition the signal's present value
/// does not meet can complete only after that window's release: every packet written behind it on its
/// queue is then held as if behind a gate of the window, and a drain need not wait for it. Assumes the
/// application does not store to a completion signal from the host while the runtime owns it (HIP never
/// does; HSA 1.2 §2.9.1 gives the packet processor the decrement).
class HeldSignals {
  public:
    /// Records that `signal` (handle 0: nothing) fires only after `window` is released. May throw
    /// std::bad_alloc (the caller then records nothing: a drain may wait for the packets behind a
    /// barrier on it, as before, bounded by the drain timeout).
    void hold(hsa_signal_t signal, const std::shared_ptr<Window>& window);

    /// The unreleased window whose release the AQL packet `packet` (64 bytes, as the application wrote
    /// it) waits for through its dependencies, or null (a dispatch, a barrier with no held dependency,
    /// a vendor packet other than BARRIER_VALUE). Reads a BARRIER_VALUE signal's value through the saved
    /// original. Forgets entries of released windows it meets. Never throws.
    std::shared_ptr<Window> blocker_of(const void* packet) noexcept;

  private:
    /// The unreleased window holding `signal`, or null (stale entries are erased).
    std::shared_ptr<Window> holder(uint64_t signal) noexcept;
    /// Erases every entry of a released window (called when the map doubles since the last sweep).
    void sweep() noexcept;

    std::mutex mutex_;
    /// held_.size(), readable without the mutex: a packet forwarded while nothing is held takes no lock.
    std::atomic<size_t> count_{0};
    std::unordered_map<uint64_t, std::shared_ptr<Window>> held_;
    size_t swept_size_ = 64;
};

/// The completion signal of any AQL packet (offset 56 in every packet format: HSA 1.2 §2.9, ROCr's
/// hsa_amd_barrier_value_packet_t).
hsa_signal_t packet_completion_signal(const void* packet) noexcept;

} // namespace rs::engine
