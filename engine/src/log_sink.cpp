// SPDX-License-Identifier: MIT
// The stderr-log sink: make_log_sink(). The log format is stable (tests parse it; docs/replay-failures.md):
//   replayscope: <kind> key=value key=value ...
// one line per event, written with a single fwrite so lines of concurrent threads never interleave.
#include "event_sink.h"

#include <replayscope/counters/catalogue.h>

#include <cstdarg>
#include <cstdio>
#include <string>

namespace rs::engine {

namespace {

using ull = unsigned long long;

/// Formats into a stack buffer and writes the line at once.
__attribute__((format(printf, 1, 2))) void line(const char* format, ...) noexcept {
    char buffer[1024];
    va_list args;
    va_start(args, format);
    int n = std::vsnprintf(buffer, sizeof buffer - 1, format, args);
    va_end(args);
    if (n < 0) {
        return;
    }
    size_t len = static_cast<size_t>(n) < sizeof buffer - 1 ? static_cast<size_t>(n) : sizeof buffer - 2;
    buffer[len++] = '\n';
    std::fwrite(buffer, 1, len, stderr);
}

int len(std::string_view s) {
    return static_cast<int>(s.size() > 400 ? 400 : s.size());
}

class LogSink final : public EventSink {
  public:
    void session_start(std::string_view configuration) noexcept override {
        std::string flat(configuration);
        for (char& c : flat) {
            if (c == '\n') {
                c = ' ';
            }
        }
        line("replayscope: session_start configuration=\"%s\"", flat.c_str());
    }
    void allocation(const AllocationEvent& e) noexcept override {
        line("replayscope: allocation id=%llu address=0x%llx size=%llu agent=0x%llx pool_flags=%u api=%.*s "
             "pointer=%.*s class=%.*s",
             ull(e.id), ull(e.address), ull(e.size), ull(e.agent), e.pool_flags, len(name(e.api)),
             name(e.api).data(), len(name(e.pointer_type)), name(e.pointer_type).data(),
             len(name(e.classification)), name(e.classification).data());
    }
    void free(const FreeEvent& e) noexcept override {
        line("replayscope: free allocation=%llu address=0x%llx", ull(e.allocation_id), ull(e.address));
    }
    void agent(const AgentEvent& e) noexcept override {
        line("replayscope: agent handle=0x%llx device_type=%.*s node=%u name=\"%.*s\" isa=\"%.*s\"",
             ull(e.handle), len(name(e.device_type)), name(e.device_type).data(), e.node, len(e.name),
             e.name.data(), len(e.isa), e.isa.data());
    }
    void inventory(const InventoryEvent& e) noexcept override {
        uint64_t bytes = 0;
        for (size_t i = 0; i < e.count; ++i) {
            bytes += e.regions[i].size;
        }
        line("replayscope: inventory agent=0x%llx generation=%llu regions=%zu bytes=%llu", ull(e.agent),
             ull(e.generation), e.count, ull(bytes));
    }
    void executable(const ExecutableEvent& e) noexcept override {
        line("replayscope: executable handle=0x%llx code_object=0x%llx agent=0x%llx kernels=%u uri=\"%.*s\"",
             ull(e.executable), ull(e.code_object), ull(e.agent), e.kernels, len(e.uri), e.uri.data());
    }
    void module_variable(const ModuleVariableEvent& e) noexcept override {
        line("replayscope: module_variable executable=0x%llx agent=0x%llx address=0x%llx size=%llu "
             "symbol=%.*s status=%.*s",
             ull(e.executable), ull(e.agent), ull(e.address), ull(e.size), len(e.symbol), e.symbol.data(),
             len(name(e.status)), name(e.status).data());
    }
    void dispatch(const DispatchEvent& e) noexcept override {
        line("replayscope: dispatch id=%llu agent=0x%llx queue=%llu kernel_object=0x%llx kernel=%.*s "
             "grid=%u,%u,%u workgroup=%u,%u,%u decision=%.*s",
             ull(e.id), ull(e.agent), ull(e.queue), ull(e.kernel_object), len(e.kernel_name),
             e.kernel_name.data(), e.grid[0], e.grid[1], e.grid[2], e.workgroup[0], e.workgroup[1],
             e.workgroup[2], len(name(e.decision)), name(e.decision).data());
    }
    void snapshot(const SnapshotEvent& e) noexcept override {
        line("replayscope: snapshot dispatch=%llu agent=0x%llx generation=%llu ok=%d regions=%u bytes=%llu "
             "failures=%u duration_ns=%llu store=%.*s host_bytes=%llu device_bytes=%llu host_pinned=%d "
             "hash=%.*s total_chunks=%u hash_ns=%llu fence_wait_ns=%lld",
             ull(e.dispatch_id), ull(e.agent), ull(e.generation), e.ok ? 1 : 0, e.regions, ull(e.bytes),
             e.failures, ull(e.duration_ns), len(name(e.store)), name(e.store).data(), ull(e.host_bytes),
             ull(e.device_bytes), e.host_pinned ? 1 : 0, len(name(e.hash_path)), name(e.hash_path).data(),
             e.total_chunks, ull(e.hash_ns), static_cast<long long>(e.fence_wait_ns));
    }
    void snapshot_placement(const SnapshotPlacementEvent& e) noexcept override {
        line("replayscope: snapshot_placement dispatch=%llu address=0x%llx size=%llu store=%.*s",
             ull(e.dispatch_id), ull(e.address), ull(e.size), len(name(e.store)), name(e.store).data());
    }
    void restore(const RestoreEvent& e) noexcept override {
        line("replayscope: restore dispatch=%llu pass=%u final=%d regions_restored=%u "
             "restored_bytes_host=%llu "
             "restored_bytes_device=%llu dirty_chunks=%u total_chunks=%u missed_chunks=%u hash_ns=%llu "
             "restore_ns=%llu",
             ull(e.dispatch_id), e.pass_index, e.final_restore ? 1 : 0, e.regions_restored,
             ull(e.restored_bytes_host), ull(e.restored_bytes_device), e.dirty_chunks, e.total_chunks,
             e.missed_chunks, ull(e.hash_ns), ull(e.restore_ns));
    }
    void restore_miss(const RestoreMissEvent& e) noexcept override {
        line("replayscope: restore_miss dispatch=%llu pass=%u address=0x%llx size=%llu allocation=%llu",
             ull(e.dispatch_id), e.pass_index, ull(e.address), ull(e.size), ull(e.allocation_id));
    }
    void counter_value(const CounterValueEvent& e) noexcept override {
        const counters::CounterDef* c = counters::counter(e.counter);
        const std::string_view counter = c ? c->name : std::string_view("unknown");
        line("replayscope: counter_value dispatch=%llu pass=%u counter=%.*s value=%llu", ull(e.dispatch_id),
             e.pass_index, len(counter), counter.data(), ull(e.value));
    }
    void snapshot_failure(const SnapshotFailureEvent& e) noexcept override {
        line("replayscope: snapshot_failure dispatch=%llu reason=%.*s address=0x%llx size=%llu "
             "allocation=%llu",
             ull(e.dispatch_id), len(name(e.reason)), name(e.reason).data(), ull(e.address), ull(e.size),
             ull(e.allocation_id));
    }
    void pass(const PassEvent& e) noexcept override {
        line("replayscope: pass dispatch=%llu index=%u start=%llu end=%llu restore_ns=%llu "
             "regions_restored=%u "
             "bytes_restored=%llu skips=%u fidelity=%d",
             ull(e.dispatch_id), e.index, ull(e.start_tick), ull(e.end_tick), ull(e.restore_ns),
             e.regions_restored, ull(e.bytes_restored), e.skips, int{e.fidelity});
    }
    void fidelity_mismatch(const FidelityMismatchEvent& e) noexcept override {
        line("replayscope: fidelity_mismatch dispatch=%llu pass=%u address=0x%llx size=%llu allocation=%llu",
             ull(e.dispatch_id), e.pass_index, ull(e.address), ull(e.size), ull(e.allocation_id));
    }
    void async_copy(const AsyncCopyEvent& e) noexcept override {
        line("replayscope: async_copy agent=0x%llx dst=0x%llx src=0x%llx size=%llu dispatch=%llu "
             "waited_ns=%llu outcome=%.*s",
             ull(e.agent), ull(e.dst), ull(e.src), ull(e.size), ull(e.dispatch_id), ull(e.waited_ns),
             len(name(e.outcome)), name(e.outcome).data());
    }
    void restore_skip(const RestoreSkipEvent& e) noexcept override {
        line("replayscope: restore_skip dispatch=%llu pass=%u reason=%.*s address=0x%llx size=%llu "
             "allocation=%llu",
             ull(e.dispatch_id), e.pass_index, len(name(e.reason)), name(e.reason).data(), ull(e.address),
             ull(e.size), ull(e.allocation_id));
    }
    void restore_failure(const RestoreFailureEvent& e) noexcept override {
        line("replayscope: restore_failure dispatch=%llu pass=%u holds_pass=%u kind=%.*s address=0x%llx "
             "size=%llu allocation=%llu attempts=%u status=0x%x",
             ull(e.dispatch_id), e.pass_index, e.holds_pass_index, len(name(e.kind)), name(e.kind).data(),
             ull(e.address), ull(e.size), ull(e.allocation_id), e.attempts, e.status);
    }
    void warning(WarningCode code, uint64_t dispatch_id, std::string_view text) noexcept override {
        line("replayscope: warning code=%.*s dispatch=%llu text=\"%.*s\"", len(name(code)), name(code).data(),
             ull(dispatch_id), len(text), text.data());
    }
    void finish(uint64_t internal_errors, int32_t exit_status) noexcept override {
        line("replayscope: session_end internal_errors=%llu exit_status=%d", ull(internal_errors),
             exit_status);
        std::fflush(stderr);
    }
};

} // namespace

std::unique_ptr<EventSink> make_log_sink() {
    return std::make_unique<LogSink>();
}

} // namespace rs::engine
