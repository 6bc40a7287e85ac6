// EventSink adapter over the session emitter (ipc/include/replayscope/ipc/emitter.hpp): a field-by-field
// copy into the fixed-size records. Compiled only when the rs_ipc_emitter target exists.
#include "event_sink.h"

#include <replayscope/ipc/emitter.hpp>

#include <chrono>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace rs::engine {

namespace {

template <typename To, typename From>
To as(From v) {
    return static_cast<To>(static_cast<std::underlying_type_t<From>>(v));
}

std::string read_file(const char* path) {
    std::string out;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        out.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    return out;
}

class EmitterSink final : public EventSink {
  public:
    bool start() {
        const ipc::EmitterConfig config = ipc::EmitterConfig::fromEnvironment();
        return config.enabled() && emitter_.start(config);
    }
    void session_start(std::string_view configuration) noexcept override {
        try {
            char exe[4096] = {};
            const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
            std::string argv = read_file("/proc/self/cmdline");
            for (char& c : argv)
                if (c == '\0')
                    c = ' ';
            while (!argv.empty() && argv.back() == ' ')
                argv.pop_back();
            char host[256] = {};
            (void)::gethostname(host, sizeof host - 1);
            emitter_.emitSessionStart(std::string_view(exe, n > 0 ? static_cast<size_t>(n) : 0), argv, host,
                                      "0.1.0", configuration);
        } catch (...) {
        }
    }
    void allocation(const AllocationEvent& e) noexcept override {
        ipc::AllocationRecord r{};
        r.id = e.id;
        r.address = e.address;
        r.size = e.size;
        r.agent = e.agent;
        r.pool_flags = e.pool_flags;
        r.api = as<ipc::AllocationApi>(e.api);
        r.pointer_type = as<ipc::PointerType>(e.pointer_type);
        r.classification = as<ipc::AllocationClass>(e.classification);
        emitter_.emitEvent(r);
    }
    void free(const FreeEvent& e) noexcept override {
        emitter_.emitEvent(ipc::FreeRecord{e.allocation_id, e.address});
    }
    void agent(const AgentEvent& e) noexcept override {
        ipc::AgentRecord r{};
        r.handle = e.handle;
        r.name = emitter_.internString(e.name);
        r.isa = emitter_.internString(e.isa);
        r.device_type =
            e.device_type <= 2 ? static_cast<ipc::DeviceType>(e.device_type) : ipc::DeviceType::other;
        r.node = e.node;
        emitter_.emitEvent(r);
    }
    void inventory(const InventoryEvent& e) noexcept override {
        // The emitter takes a span of its own region type: converted in bounded chunks on the stack
        // would split one inventory, so one heap vector per (rare) new generation.
        try {
            std::vector<ipc::InventoryRegion> regions(e.count);
            for (size_t i = 0; i < e.count; ++i)
                regions[i] = {e.regions[i].address, e.regions[i].size, e.regions[i].allocation_id,
                              as<ipc::RegionKind>(e.regions[i].kind)};
            (void)emitter_.emitInventory(e.agent, e.generation, regions);
        } catch (...) {
        }
    }
    void executable(const ExecutableEvent& e) noexcept override {
        emitter_.emitEvent(
            ipc::ExecutableRecord{e.executable, e.code_object, e.agent, emitter_.internString(e.uri)});
    }
    void module_variable(const ModuleVariableEvent& e) noexcept override {
        ipc::ModuleVariableRecord r{};
        r.executable = e.executable;
        r.agent = e.agent;
        r.address = e.address;
        r.size = e.size;
        r.symbol = emitter_.internString(e.symbol);
        r.status = as<ipc::VariableStatus>(e.status);
        emitter_.emitEvent(r);
    }
    void dispatch(const DispatchEvent& e) noexcept override {
        ipc::DispatchRecord r{};
        r.id = e.id;
        r.agent = e.agent;
        r.queue = e.queue;
        r.kernel_object = e.kernel_object;
        r.kernel_name = emitter_.internString(e.kernel_name);
        for (int i = 0; i < 3; ++i) {
            r.grid[i] = e.grid[i];
            r.workgroup[i] = e.workgroup[i];
        }
        r.decision = as<ipc::DispatchDecision>(e.decision);
        emitter_.emitEvent(r);
    }
    void snapshot(const SnapshotEvent& e) noexcept override {
        emitter_.emitEvent(ipc::SnapshotRecord{e.dispatch_id, e.agent, e.generation, e.bytes, e.duration_ns,
                                               e.regions, e.failures, e.ok});
    }
    void snapshot_failure(const SnapshotFailureEvent& e) noexcept override {
        emitter_.emitEvent(ipc::SnapshotFailureRecord{e.dispatch_id, e.address, e.size, e.allocation_id,
                                                      as<ipc::SnapshotFailureReason>(e.reason)});
    }
    void pass(const PassEvent& e) noexcept override {
        emitter_.emitEvent(ipc::PassRecord{e.dispatch_id, e.start_tick, e.end_tick, e.restore_ns,
                                           e.bytes_restored, e.index, e.regions_restored, e.skips,
                                           e.fidelity});
    }
    void fidelity_mismatch(const FidelityMismatchEvent& e) noexcept override {
        emitter_.emitEvent(
            ipc::FidelityMismatchRecord{e.dispatch_id, e.pass_index, e.address, e.size, e.allocation_id});
    }
    void async_copy(const AsyncCopyEvent& e) noexcept override {
        emitter_.emitEvent(ipc::AsyncCopyRecord{e.agent, e.dst, e.src, e.size, e.dispatch_id, e.waited_ns,
                                                as<ipc::AsyncCopyOutcome>(e.outcome)});
    }
    void restore_skip(const RestoreSkipEvent& e) noexcept override {
        emitter_.emitEvent(ipc::RestoreSkipRecord{e.dispatch_id, e.address, e.size, e.allocation_id,
                                                  e.pass_index, as<ipc::RestoreSkipReason>(e.reason)});
    }
    void warning(WarningCode code, uint64_t dispatch_id, std::string_view text) noexcept override {
        emitter_.emitWarning(as<ipc::WarningCode>(code), dispatch_id, text);
    }
    void finish() noexcept override { emitter_.stop(std::chrono::milliseconds(500)); }

  private:
    ipc::Emitter emitter_;
};

} // namespace

std::unique_ptr<EventSink> make_emitter_sink() {
    try {
        auto sink = std::make_unique<EmitterSink>();
        if (!sink->start())
            return nullptr;
        return sink;
    } catch (...) {
        return nullptr;
    }
}

} // namespace rs::engine
