// SPDX-License-Identifier: MIT
// The counter half of the fidelity check (REPLAYSCOPE_FIDELITY_CHECK=1): one hardware counter counted in
// every pass of a dispatch and compared with pass 0's count. Design in docs/replay-window.md ("The counter
// check").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rs::engine {

/// One dispatch's counter check. The worker records each pass's count of the fidelity counter as it reads
/// the pass's counters; a pass whose count differs from pass 0's did not execute the kernel as pass 0 did.
/// Worker thread only.
class CounterCheck {
  public:
    /// `counter`: the catalogue id of the counter compared (counters::kFidelityCounter).
    explicit CounterCheck(uint32_t counter) : counter_(counter) {}

    /// Records the count of pass `pass` (passes in order from 0; unset: its counters were not read).
    /// Returns the pass's verdict: 1 the count equals pass 0's (pass 0, the reference: 1 when read), 0 it
    /// differs, -1 not compared (this pass's or pass 0's count is missing).
    int8_t after_pass(uint32_t pass, std::optional<uint64_t> count);

    /// After the passes: empty when no compared pass differed; otherwise the text of the
    /// `counter-mismatch` warning of dispatch `dispatch_id` running `kernel`: "counter-mismatch: dispatch 7
    /// (data_loop): SQ_INSTS_VALU per pass: 9, 11, 13; passes differing from pass 0: 1, 2; ..." (a pass
    /// whose count was not read is "-").
    std::string mismatch_text(uint64_t dispatch_id, const std::string& kernel) const;

  private:
    uint32_t counter_;
    std::vector<std::optional<uint64_t>> counts_; ///< per pass index
    std::vector<uint32_t> differing_;             ///< passes whose count differs from pass 0's
};

} // namespace rs::engine
