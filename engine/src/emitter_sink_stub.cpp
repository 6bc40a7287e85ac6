// SPDX-License-Identifier: MIT
// make_emitter_sink() of an engine built without the session pipeline (no rs_ipc_emitter target): there
// is no collector to send to, so events go to the stderr log (REPLAYSCOPE_LOG=1) only. Compiled instead
// of emitter_sink.cpp (engine/CMakeLists.txt).
#include "event_sink.h"

namespace rs::engine {

std::unique_ptr<EventSink> make_emitter_sink() {
    return nullptr;
}

} // namespace rs::engine
