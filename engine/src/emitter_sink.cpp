// SPDX-License-Identifier: MIT
// EventSink adapter over the session emitter (ipc/include/replayscope/ipc/emitter.h). The fixed-size
// events are the wire records themselves and go out unchanged; events with text get their strings
// interned. Compiled only when the rs_ipc_emitter target exists (else emitter_sink_stub.cpp).
#include "event_sink.h"

#include <replayscope/ipc/emitter.h>
#include <replayscope/version.h>

#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace rs::engine {

namespace {

std::string read_file(const char* path) {
    std::string out;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return out;
    }
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
        out.append(buffer, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

class EmitterSink final : public EventSink {
  public:
    bool start() {
        const ipc::EmitterConfig config = ipc::EmitterConfig::from_environment();
        return config.enabled() && emitter_.start(config);
    }
    void session_start(std::string_view configuration) noexcept override {
        try {
            char exe[4096] = {};
            const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
            std::string argv = read_file("/proc/self/cmdline");
            for (char& c : argv) {
                if (c == '\0') {
                    c = ' ';
                }
            }
            while (!argv.empty() && argv.back() == ' ') {
                argv.pop_back();
            }
            char host[256] = {};
            (void)::gethostname(host, sizeof host - 1);
            emitter_.emit_session_start(std::string_view(exe, n > 0 ? static_cast<size_t>(n) : 0), argv, host,
                                        rs::kVersion, configuration);
        } catch (...) {
            swallowed_.fetch_add(1, std::memory_order_relaxed); // no session_start record
        }
    }
    void allocation(const AllocationEvent& e) noexcept override { emitter_.emit_event(e); }
    void free(const FreeEvent& e) noexcept override { emitter_.emit_event(e); }
    void agent(const AgentEvent& e) noexcept override {
        ipc::AgentRecord r{};
        r.handle = e.handle;
        r.name = emitter_.intern_string(e.name);
        r.isa = emitter_.intern_string(e.isa);
        r.device_type = e.device_type;
        r.node = e.node;
        emitter_.emit_event(r);
    }
    void inventory(const InventoryEvent& e) noexcept override {
        (void)emitter_.emit_inventory(e.agent, e.generation, {e.regions, e.count});
    }
    void executable(const ExecutableEvent& e) noexcept override {
        emitter_.emit_event(
            ipc::ExecutableRecord{e.executable, e.code_object, e.agent, emitter_.intern_string(e.uri)});
    }
    void module_variable(const ModuleVariableEvent& e) noexcept override {
        ipc::ModuleVariableRecord r{};
        r.executable = e.executable;
        r.agent = e.agent;
        r.address = e.address;
        r.size = e.size;
        r.symbol = emitter_.intern_string(e.symbol);
        r.status = e.status;
        emitter_.emit_event(r);
    }
    void dispatch(const DispatchEvent& e) noexcept override {
        ipc::DispatchRecord r{};
        r.id = e.id;
        r.agent = e.agent;
        r.queue = e.queue;
        r.kernel_object = e.kernel_object;
        r.kernel_name = emitter_.intern_string(e.kernel_name);
        for (int i = 0; i < 3; ++i) {
            r.grid[i] = e.grid[i];
            r.workgroup[i] = e.workgroup[i];
        }
        r.decision = e.decision;
        emitter_.emit_event(r);
    }
    void snapshot(const SnapshotEvent& e) noexcept override { emitter_.emit_event(e); }
    void snapshot_failure(const SnapshotFailureEvent& e) noexcept override { emitter_.emit_event(e); }
    void pass(const PassEvent& e) noexcept override {
        emitter_.emit_event(ipc::PassRecord{e.dispatch_id, e.start_tick, e.end_tick, e.restore_ns,
                                            e.bytes_restored, e.index, e.regions_restored, e.skips,
                                            e.fidelity});
    }
    void fidelity_mismatch(const FidelityMismatchEvent& e) noexcept override { emitter_.emit_event(e); }
    void async_copy(const AsyncCopyEvent& e) noexcept override { emitter_.emit_event(e); }
    void restore_skip(const RestoreSkipEvent& e) noexcept override { emitter_.emit_event(e); }
    void restore_failure(const RestoreFailureEvent& e) noexcept override { emitter_.emit_event(e); }
    void snapshot_placement(const SnapshotPlacementEvent& e) noexcept override { emitter_.emit_event(e); }
    void restore(const RestoreEvent& e) noexcept override { emitter_.emit_event(e); }
    void restore_miss(const RestoreMissEvent& e) noexcept override { emitter_.emit_event(e); }
    void counter_value(const CounterValueEvent& e) noexcept override { emitter_.emit_event(e); }
    void warning(WarningCode code, uint64_t dispatch_id, std::string_view text) noexcept override {
        emitter_.emit_warning(code, dispatch_id, text);
    }
    void finish(uint64_t internal_errors, int32_t exit_status) noexcept override {
        emitter_.stop(std::chrono::milliseconds(500),
                      internal_errors + swallowed_.load(std::memory_order_relaxed), exit_status);
    }

    void flush_before_abort(std::chrono::milliseconds timeout) noexcept override {
        (void)emitter_.drain(timeout);
    }

  private:
    ipc::Emitter emitter_;
    std::atomic<uint64_t> swallowed_{0}; ///< internal errors of this sink, added to the engine's at finish
};

} // namespace

std::unique_ptr<EventSink> make_emitter_sink() {
    try {
        auto sink = std::make_unique<EmitterSink>();
        if (!sink->start()) {
            return nullptr;
        }
        return sink;
    } catch (...) {
        return nullptr;
    }
}

} // namespace rs::engine
