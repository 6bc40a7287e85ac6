// SPDX-License-Identifier: MIT
// The sink that forwards every event to two others (the emitter and the stderr log): make_tee_sink().
#include "event_sink.h"

#include <memory>
#include <utility>

namespace rs::engine {

namespace {

class TeeSink final : public EventSink {
  public:
    TeeSink(std::unique_ptr<EventSink> a, std::unique_ptr<EventSink> b)
        : a_(std::move(a)), b_(std::move(b)) {}
    template <typename Fn>
    void both(Fn&& fn) noexcept {
        if (a_) {
            fn(*a_);
        }
        if (b_) {
            fn(*b_);
        }
    }
    void session_start(std::string_view c) noexcept override {
        both([&](EventSink& s) { s.session_start(c); });
    }
    void allocation(const AllocationEvent& e) noexcept override {
        both([&](EventSink& s) { s.allocation(e); });
    }
    void free(const FreeEvent& e) noexcept override {
        both([&](EventSink& s) { s.free(e); });
    }
    void agent(const AgentEvent& e) noexcept override {
        both([&](EventSink& s) { s.agent(e); });
    }
    void inventory(const InventoryEvent& e) noexcept override {
        both([&](EventSink& s) { s.inventory(e); });
    }
    void executable(const ExecutableEvent& e) noexcept override {
        both([&](EventSink& s) { s.executable(e); });
    }
    void module_variable(const ModuleVariableEvent& e) noexcept override {
        both([&](EventSink& s) { s.module_variable(e); });
    }
    void dispatch(const DispatchEvent& e) noexcept override {
        both([&](EventSink& s) { s.dispatch(e); });
    }
    void snapshot(const SnapshotEvent& e) noexcept override {
        both([&](EventSink& s) { s.snapshot(e); });
    }
    void snapshot_failure(const SnapshotFailureEvent& e) noexcept override {
        both([&](EventSink& s) { s.snapshot_failure(e); });
    }
    void pass(const PassEvent& e) noexcept override {
        both([&](EventSink& s) { s.pass(e); });
    }
    void restore_skip(const RestoreSkipEvent& e) noexcept override {
        both([&](EventSink& s) { s.restore_skip(e); });
    }
    void fidelity_mismatch(const FidelityMismatchEvent& e) noexcept override {
        both([&](EventSink& s) { s.fidelity_mismatch(e); });
    }
    void async_copy(const AsyncCopyEvent& e) noexcept override {
        both([&](EventSink& s) { s.async_copy(e); });
    }
    void restore_failure(const RestoreFailureEvent& e) noexcept override {
        both([&](EventSink& s) { s.restore_failure(e); });
    }
    void snapshot_placement(const SnapshotPlacementEvent& e) noexcept override {
        both([&](EventSink& s) { s.snapshot_placement(e); });
    }
    void restore(const RestoreEvent& e) noexcept override {
        both([&](EventSink& s) { s.restore(e); });
    }
    void restore_miss(const RestoreMissEvent& e) noexcept override {
        both([&](EventSink& s) { s.restore_miss(e); });
    }
    void counter_value(const CounterValueEvent& e) noexcept override {
        both([&](EventSink& s) { s.counter_value(e); });
    }
    void warning(WarningCode code, uint64_t id, std::string_view text) noexcept override {
        both([&](EventSink& s) { s.warning(code, id, text); });
    }
    void finish(uint64_t internal_errors, int32_t exit_status) noexcept override {
        both([&](EventSink& s) { s.finish(internal_errors, exit_status); });
    }
    void flush_before_abort(std::chrono::milliseconds timeout) noexcept override {
        a_->flush_before_abort(timeout);
        b_->flush_before_abort(timeout);
    }

  private:
    std::unique_ptr<EventSink> a_, b_;
};

} // namespace

std::unique_ptr<EventSink> make_tee_sink(std::unique_ptr<EventSink> a, std::unique_ptr<EventSink> b) {
    if (!a) {
        return b ? std::move(b) : make_null_sink();
    }
    if (!b) {
        return a;
    }
    return std::make_unique<TeeSink>(std::move(a), std::move(b));
}

} // namespace rs::engine
