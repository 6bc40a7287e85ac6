// SPDX-License-Identifier: MIT
// The hardware-counter section of `replayscope --summary` (docs/counters.md).
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class CounterSummary {
  public:
    /// Per kernel, per counter: the dispatches it was collected for and the minimum, median and maximum
    /// of its values over them (the median of an even count is the mean of the middle two), with the
    /// counter's unit. Empty when the session has no counter value (before format 7, or none collected).
    static QString text(const SessionSnapshot& snapshot);
};

} // namespace rs::app
