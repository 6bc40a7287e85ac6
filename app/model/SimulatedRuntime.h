// SPDX-License-Identifier: MIT
// Whether a session ran on ReplayScope's simulated HSA runtime (`replayscope-run --simulate`). The session
// format records no runtime of its own; the simulator names its CPU agent "ReplayScope simulated CPU"
// (HSA_AGENT_INFO_NAME, sim/src/runtime.cpp) and the engine records every agent with its name, so a
// process whose agents include that CPU agent ran on the simulator. ROCr names the CPU agent after the
// processor ("AMD EPYC 7763 64-Core Processor").
#pragma once

#include "model/SessionSnapshot.h"

#include <QString>

namespace rs::app {

class SimulatedRuntime {
  public:
    /// The name the simulated runtime gives its CPU agent.
    static const QString& cpuAgentName();
    /// Processes of `snapshot` that ran on the simulated runtime.
    static int processes(const SessionSnapshot& snapshot);
    /// What the pages and `--summary` say of a session that ran on the simulated runtime ("simulated
    /// runtime: ..."; for some of several processes, how many); empty for one that did not.
    static QString note(const SessionSnapshot& snapshot);
};

} // namespace rs::app
