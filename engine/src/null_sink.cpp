// SPDX-License-Identifier: MIT
// The sink that discards every event (no collector, no log): make_null_sink().
#include "event_sink.h"

namespace rs::engine {

namespace {

class NullSink final : public EventSink {
  public:
    void session_start(std::string_view) noexcept override {}
    void allocation(const AllocationEvent&) noexcept override {}
    void free(const FreeEvent&) noexcept override {}
    void agent(const AgentEvent&) noexcept override {}
    void inventory(const InventoryEvent&) noexcept override {}
    void executable(const ExecutableEvent&) noexcept override {}
    void module_variable(const ModuleVariableEvent&) noexcept override {}
    void dispatch(const DispatchEvent&) noexcept override {}
    void snapshot(const SnapshotEvent&) noexcept override {}
    void snapshot_failure(const SnapshotFailureEvent&) noexcept override {}
    void pass(const PassEvent&) noexcept override {}
    void restore_skip(const RestoreSkipEvent&) noexcept override {}
    void warning(WarningCode, uint64_t, std::string_view) noexcept override {}
    void finish(uint64_t, int32_t) noexcept override {}
};

} // namespace

std::unique_ptr<EventSink> make_null_sink() {
    return std::make_unique<NullSink>();
}

} // namespace rs::engine
