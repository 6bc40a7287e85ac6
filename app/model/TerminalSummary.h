// SPDX-License-Identifier: MIT
// The text `replayscope --summary SESSION` prints.
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class TerminalSummary {
  public:
    static QString text(const SessionSnapshot& snapshot);
};

} // namespace rs::app
