// SPDX-License-Identifier: MIT
#include "synthetic/SyntheticSession.h"

#include "replayscope/counters/catalogue.h"
#include "replayscope/ipc/environment.h"
#include "replayscope/ipc/session_store.h"

#include <QFile>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rs::app {

namespace {

using namespace rs::ipc;

class Writer {
  public:
    /// `process`: the index from SessionStore::process(), 0 for the compatibility insert.
    Writer(SessionStore& store, std::int64_t process) : store_(store), process_(process) {}
    template <typename Fill>
    bool put(EventType type, Fill fill) {
        Record r;
        std::memset(&r, 0, sizeof r);
        r.type = type;
        r.sequence = ++seq_;
        ts_ += 1500 + seq_ % 700;
        r.timestamp_ns = ts_;
        fill(r);
        ++counts_[static_cast<std::size_t>(type)];
        if (!(process_ > 0 ? store_.insert(process_, r) : store_.insert(r))) {
            return false;
        }
        return ++pending_ % 10000 != 0 || store_.commit();
    }
    StringId string(const std::string& text) {
        const StringId id = ++strings_;
        put(EventType::string, [&](Record& r) {
            r.string.id = id;
            r.string.original_length = std::uint32_t(text.size());
            r.string.length = std::uint16_t(std::min(text.size(), kMaxStringBytes));
            std::memcpy(r.string.text, text.data(), r.string.length);
        });
        return id;
    }
    void advance(std::uint64_t ns) { ts_ += ns; }
    std::uint64_t now() const { return ts_; }
    std::uint64_t seq() const { return seq_; }
    std::uint64_t counts_[kEventTypeSlots] = {};

  private:
    SessionStore& store_;
    std::int64_t process_ = 0;
    std::uint64_t seq_ = 0;
    std::uint64_t ts_ = 4'200'000'000'000ull;
    std::uint64_t pending_ = 0;
    StringId strings_ = 0;
};

struct Allocation {
    std::uint64_t id, address, size, agent;
    bool tracked, live;
};

/// Where one synthetic snapshot lives and what each of its restores moves (format 4).
struct Plan {
    std::uint64_t hostBytes = 0, deviceBytes = 0, hashNs = 0;
    std::uint32_t totalChunks = 0;
    SnapshotStore store = SnapshotStore::host;
    ChunkHashPath hashPath = ChunkHashPath::none;
    bool pinned = true;
    std::uint64_t chunk = 65536;
    std::uint32_t dirtyChunks = 0, regionsTouched = 0;
    std::uint64_t movedHost = 0, movedDevice = 0, restoreHashNs = 0;
};

/// Chunks of a region [address, address + size) at chunk size `chunk` (boundaries at multiples of it).
std::uint32_t chunksOf(std::uint64_t address, std::uint64_t size, std::uint64_t chunk) {
    return size == 0 ? 0u : std::uint32_t((address + size + chunk - 1) / chunk - address / chunk);
}

/// The store, chunks and dirty restore of dispatch index `i` (kernel `k`) on agent index `a` whose snapshot
/// of `bytes` holds the allocations `regions` and two module variables. Kernel k writes a fixed share of its
/// chunks: 100 %, 10 %, 1 %, 0.1 %, none (it writes back the same values), 25 %.
Plan planRestores(const SyntheticSession::Options& o, const std::vector<Allocation>& allocations,
                  const std::vector<std::size_t>& regions, std::size_t a, int i, std::size_t k,
                  std::uint64_t bytes) {
    static constexpr double kWritten[] = {1.0, 0.1, 0.01, 0.001, 0.0, 0.25, 0.0};
    Plan plan;
    plan.chunk = o.chunkSize;
    std::uint64_t firstRegion = regions.empty() ? 0 : allocations[regions.front()].size;
    for (std::size_t r : regions) {
        plan.totalChunks += chunksOf(allocations[r].address, allocations[r].size, plan.chunk);
    }
    for (int v = 0; v < 2; ++v) {
        plan.totalChunks +=
            chunksOf(0x7f00'1000'0000ull + 0x100000ull * a + 0x1000ull * v, 256ull << v, plan.chunk);
    }
    if (a == 0) {
        if (bytes <= (128ull << 20) || regions.size() < 2) {
            plan.store = SnapshotStore::device;
            plan.deviceBytes = bytes;
        } else {
            plan.store = SnapshotStore::mixed;
            plan.hostBytes = firstRegion;
            plan.deviceBytes = bytes - firstRegion;
        }
    } else {
        plan.store = SnapshotStore::host;
        plan.hostBytes = bytes;
        plan.pinned = i % 13 != 0;
    }
    plan.hashPath = i % 11 == 0 ? ChunkHashPath::host : ChunkHashPath::device;
    // Device hashing reads the footprint at about 2 TB/s; host hashing reads it back over the link first.
    plan.hashNs = plan.hashPath == ChunkHashPath::device ? bytes / 2000 + 9'000 : bytes / 20 + 5'000;
    plan.restoreHashNs = plan.hashNs;
    const double written = kWritten[k % 7];
    plan.dirtyChunks =
        written <= 0 ? 0u : std::max<std::uint32_t>(1u, std::uint32_t(double(plan.totalChunks) * written));
    plan.dirtyChunks = std::min(plan.dirtyChunks, plan.totalChunks);
    const std::uint64_t moved = std::min<std::uint64_t>(bytes, std::uint64_t(plan.dirtyChunks) * plan.chunk);
    const double hostShare = bytes ? double(plan.hostBytes) / double(bytes) : 0.0;
    plan.movedHost = std::uint64_t(double(moved) * hostShare);
    plan.movedDevice = moved - plan.movedHost;
    plan.regionsTouched = std::uint32_t(std::min<std::size_t>(regions.size() + 2, plan.dirtyChunks));
    return plan;
}

/// Writes the events of one process (`process` 0: through the compatibility insert) with `dispatches`
/// dispatches; with o.complete, its frees and session_end. False on a store error.
bool writeProcess(SessionStore& store, const SyntheticSession::Options& o, int dispatches,
                  std::int64_t process, std::uint32_t pid) {
    std::mt19937_64 rng(o.seed + unsigned(process));
    auto uniform = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    Writer w(store, process);
    const StringId exe = w.string("synthetic-session");
    const StringId argv = w.string("synthetic-session (generated by app/synthetic, not a real run)");
    const StringId host = w.string(o.hostname);
    const StringId engine = w.string("0.1.0");
    namespace env = rs::ipc::env;
    const StringId config = w.string(std::string(env::kPasses) + "=" + std::to_string(o.passes) + "\n" +
                                     env::kDispatchSkip + "=0\n" + env::kDispatchCount + "=0\n" +
                                     env::kHostMemoryBudget + "=2147483648\n" + env::kFidelityCheck + "=1\n");
    w.put(EventType::session_start, [&](Record& r) {
        r.session_start = {pid,   kProtocolVersion, 1'764'460'800'000'000'000ull, exe, argv, host, engine,
                           config};
    });
    std::vector<std::uint64_t> agents;
    const StringId cpuName =
        w.string(o.simulatedRuntime ? "ReplayScope simulated CPU" : "AMD EPYC 7763 64-Core Processor");
    const StringId cpuIsa = w.string("");
    w.put(EventType::agent, [&](Record& r) { r.agent = {0x1000, cpuName, cpuIsa, DeviceType::cpu, 0}; });
    const StringId gpuName = w.string("gfx90a");
    const StringId gpuIsa = w.string("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
    for (int a = 0; a < o.agents; ++a) {
        const std::uint64_t handle = 0x5600'0000'0000ull + 0x10000ull * (a + 1);
        agents.push_back(handle);
        w.put(EventType::agent,
              [&](Record& r) { r.agent = {handle, gpuName, gpuIsa, DeviceType::gpu, std::uint32_t(a + 1)}; });
    }
    const char* kernels[] = {"CalcFBHourglassForceForElems",    "CalcKinematicsForElems",
                             "IntegrateStressForElems",         "CalcMonotonicQGradientsForElems",
                             "ApplyMaterialPropertiesForElems", "CalcEnergyForElems",
                             "__amd_rocclr_fillBufferAligned"};
    std::vector<StringId> kernelIds;
    for (const char* k : kernels) {
        kernelIds.push_back(w.string(k));
    }
    // Code objects and module variables.
    const StringId uri = w.string("file:///synthetic/code_object.so#offset=0&size=412360");
    const char* variables[] = {"d_cutoffs", "d_material_table", "d_qqc_monoq", "d_empty_slot",
                               "d_huge_lookup"};
    for (std::size_t a = 0; a < agents.size(); ++a) {
        w.put(EventType::executable_loaded,
              [&](Record& r) { r.executable = {0x7000 + a, 0x8000 + a, agents[a], uri}; });
        for (int v = 0; v < 5; ++v) {
            const StringId sym = w.string(variables[v]);
            const VariableStatus status = v == 3   ? VariableStatus::skipped_zero_size
                                          : v == 4 ? VariableStatus::skipped_too_large
                                                   : VariableStatus::captured;
            w.put(EventType::module_variable, [&](Record& r) {
                r.module_variable = {0x7000 + a,
                                     agents[a],
                                     0x7f00'1000'0000ull + 0x100000ull * a + 0x1000ull * v,
                                     v == 3 ? 0u : (v == 4 ? (3ull << 30) : 256ull << v),
                                     sym,
                                     status};
            });
        }
    }
    // Allocations: most tracked, some excluded with each reason.
    std::vector<Allocation> allocations;
    std::uint64_t nextAddress = 0x7fa0'0000'0000ull;
    auto allocate = [&](std::uint64_t agent, AllocationClass cls, std::uint64_t size) {
        const std::uint64_t id = allocations.size() + 1;
        allocations.push_back({id, nextAddress, size, agent, cls == AllocationClass::tracked, true});
        w.put(EventType::allocation, [&](Record& r) {
            r.allocation = {id,
                            nextAddress,
                            size,
                            agent,
                            cls == AllocationClass::excluded_fine_grained ? 2u : 1u,
                            AllocationApi::memory_pool_allocate,
                            cls == AllocationClass::excluded_host ? PointerType::locked : PointerType::hsa,
                            cls};
        });
        nextAddress += (size + 0xfffff) & ~0xfffffull;
    };
    for (int i = 0; i < o.allocations; ++i) {
        const std::uint64_t agent = agents[std::size_t(i) % agents.size()];
        AllocationClass cls = AllocationClass::tracked;
        switch (i % 10) {
        case 7:
            cls = AllocationClass::excluded_kernarg;
            break;
        case 8:
            cls = i % 20 == 8 ? AllocationClass::excluded_fine_grained : AllocationClass::excluded_host;
            break;
        case 9:
            cls = i % 30 == 9 ? AllocationClass::excluded_executable : AllocationClass::excluded_kernarg;
            break;
        default:
            break;
        }
        allocate(agent, cls, cls == AllocationClass::excluded_kernarg ? 4096 : uniform(1, 64) << 20);
        w.advance(uniform(10'000, 200'000));
    }
    // One virtual-memory mapping (hsa_amd_vmem_map), not part of any inventory here.
    w.put(EventType::allocation, [&](Record& r) {
        r.allocation = {std::uint64_t(o.allocations) + 100000,
                        0x7d00'0000'0000ull,
                        64ull << 20,
                        agents[0],
                        1u,
                        AllocationApi::vmem_map,
                        PointerType::hsa,
                        AllocationClass::tracked};
    });

    // Dispatches.
    std::vector<std::uint64_t> generation(agents.size(), 0);
    std::vector<std::vector<std::size_t>> inventory(agents.size());
    std::uint64_t tick = 9'000'000'000ull;
    int nextMiss = 300;
    for (int i = 0; i < dispatches; ++i) {
        const std::size_t a = std::size_t(i) % agents.size();
        const std::uint64_t agent = agents[a];
        const std::uint64_t id = std::uint64_t(i) + 1;
        const std::size_t k = std::size_t(i) % 7;
        // Occasionally churn an allocation (free + new) so restores must skip and inventories change.
        if (i > 0 && i % 97 == 0) {
            for (Allocation& al : allocations) {
                if (al.live && al.tracked && al.agent == agent && uniform(0, 3) == 0) {
                    al.live = false;
                    w.put(EventType::free, [&](Record& r) { r.free = {al.id, al.address}; });
                    break;
                }
            }
            allocate(agent, AllocationClass::tracked, uniform(1, 48) << 20);
        }
        DispatchDecision decision = DispatchDecision::replayed;
        const std::uint64_t roll = uniform(0, 99);
        if (k == 6) {
            decision = DispatchDecision::declined_filtered;
        } else if (roll < 3) {
            decision = DispatchDecision::declined_footprint_budget;
        } else if (roll < 5) {
            decision = DispatchDecision::declined_multi_packet;
        } else if (roll < 6) {
            decision = DispatchDecision::declined_graph_launch;
        }
        const bool newInventory =
            inventory[a].empty() || i % (o.newInventoryEvery * int(agents.size())) < int(agents.size());
        if (decision == DispatchDecision::replayed && (newInventory || o.newInventoryEvery <= 1)) {
            ++generation[a];
            inventory[a].clear();
            std::vector<std::size_t> candidates;
            for (std::size_t j = 0; j < allocations.size(); ++j) {
                if (allocations[j].live && allocations[j].tracked && allocations[j].agent == agent) {
                    candidates.push_back(j);
                }
            }
            std::shuffle(candidates.begin(), candidates.end(), rng);
            const int regions = o.regionsPerInventory;
            for (int r = 0; r < regions - 2 && r < int(candidates.size()); ++r) {
                inventory[a].push_back(candidates[std::size_t(r)]);
            }
            std::uint64_t bytes = 0;
            std::vector<InventoryRegionRecord> list;
            for (std::size_t r = 0; r < inventory[a].size(); ++r) {
                const Allocation& al = allocations[inventory[a][r]];
                list.push_back({agent, generation[a], al.address, al.size, al.id, std::uint32_t(r),
                                RegionKind::allocation});
            }
            for (int v = 0; v < 2; ++v) {
                list.push_back({agent, generation[a], 0x7f00'1000'0000ull + 0x100000ull * a + 0x1000ull * v,
                                256ull << v, 0, std::uint32_t(list.size()), RegionKind::module_variable});
            }
            for (int r = int(list.size()); r < regions; ++r) { // pad to the requested count
                list.push_back({agent, generation[a], 0x7e00'0000'0000ull + 0x1000ull * r, 4096, 0,
                                std::uint32_t(r), RegionKind::module_variable});
            }
            for (const auto& l : list) {
                bytes += l.size;
            }
            w.put(EventType::inventory, [&](Record& r) {
                r.inventory = {agent, generation[a], bytes, std::uint32_t(list.size())};
            });
            for (const auto& l : list) {
                w.put(EventType::inventory_region, [&](Record& r) { r.inventory_region = l; });
            }
        }
        w.put(EventType::dispatch, [&](Record& r) {
            r.dispatch = {id,
                          agent,
                          agent + 0x100,
                          0x9000'0000ull + k * 0x100,
                          kernelIds[k],
                          {std::uint32_t(91125u << (k % 3)), 1, 1},
                          {256, 1, 1},
                          decision};
        });
        if (decision != DispatchDecision::replayed) {
            w.advance(uniform(20'000, 80'000));
            continue;
        }
        std::uint64_t bytes = 0;
        for (std::size_t j : inventory[a]) {
            bytes += allocations[j].size;
        }
        bytes += 256 + 512;
        const std::uint64_t snapNs = bytes / 12 + uniform(5'000, 40'000); // ~12 GB/s
        // Stores and chunks (format 4), a function of the dispatch only (the random stream stays that of
        // earlier builds): agent 0 keeps snapshots in its device store while they fit in 128 MiB, larger
        // ones go mixed (the first region to the host store); agent 1 uses the page-locked host store, every
        // 13th dispatch pageable memory. Every 11th dispatch hashes on the host, the others on the device.
        const Plan plan =
            o.storesAndRestores ? planRestores(o, allocations, inventory[a], a, i, k, bytes) : Plan{};
        // The window's fence wait, a function of the dispatch too: 1 to 31 us (-1, not recorded, for an
        // older engine's snapshots).
        const std::int64_t fenceNs = o.storesAndRestores ? 1'000 + std::int64_t(id % 13) * 2'500 : -1;
        w.put(EventType::snapshot, [&](Record& r) {
            r.snapshot = {id,
                          agent,
                          generation[a],
                          bytes,
                          snapNs,
                          std::uint32_t(inventory[a].size() + 2),
                          0,
                          true,
                          plan.hostBytes,
                          plan.deviceBytes,
                          plan.hashNs,
                          plan.totalChunks,
                          plan.store,
                          plan.hashPath,
                          plan.pinned,
                          fenceNs};
        });
        if (o.storesAndRestores && plan.store == SnapshotStore::mixed) {
            for (std::size_t r = 0; r < inventory[a].size(); ++r) {
                const Allocation& al = allocations[inventory[a][r]];
                w.put(EventType::snapshot_placement, [&](Record& rec) {
                    rec.snapshot_placement = {id, al.address, al.size,
                                              r == 0 ? SnapshotStore::host : SnapshotStore::device};
                });
            }
        }
        // The fidelity check finds a chunk the dirty restore missed: once per 997 dispatches, on the first
        // replayed one from index 300 on whose kernel writes part of its footprint.
        const bool miss = o.storesAndRestores && i >= nextMiss && k >= 1 && k <= 3 && !inventory[a].empty();
        if (miss) {
            nextMiss += 997;
        }
        auto putRestore = [&](std::uint32_t passIndex, bool final) {
            const std::uint32_t missed = miss && passIndex == 1 ? 1u : 0u;
            w.put(EventType::restore, [&](Record& r) {
                r.restore = {id,
                             plan.movedHost,
                             plan.movedDevice,
                             plan.restoreHashNs,
                             plan.restoreHashNs + (plan.movedHost / 50) + (plan.movedDevice / 2000) + 4'000,
                             passIndex,
                             plan.dirtyChunks > 0 ? plan.regionsTouched : 0u,
                             plan.dirtyChunks,
                             plan.totalChunks,
                             missed,
                             final};
            });
            if (missed > 0) {
                const Allocation& al = allocations[inventory[a].front()];
                w.put(EventType::restore_miss, [&](Record& r) {
                    r.restore_miss = {id, al.address + plan.chunk, plan.chunk, al.id, passIndex};
                });
            }
        };
        const std::uint64_t kernelBase = 20'000 + k * 15'000 + uniform(0, 5'000);
        const bool differs = i % 997 == 500; // fidelity check: pass 2 output differs in one region
        for (int p = 0; p < o.passes; ++p) {
            std::uint32_t skips = 0;
            std::vector<std::size_t> skipped;
            if (p > 0) {
                for (std::size_t j : inventory[a]) {
                    if (!allocations[j].live) {
                        skipped.push_back(j);
                    }
                }
                skips = std::uint32_t(skipped.size());
            }
            const std::uint64_t kernel = std::uint64_t(
                double(kernelBase + uniform(0, kernelBase / 20) + (p == 0 ? kernelBase / 8 : 0)) *
                o.kernelTimeScale);
            const std::uint64_t restore = p == 0 ? 0 : bytes / 14 + uniform(3'000, 30'000);
            if (p > 0 && o.storesAndRestores) {
                putRestore(std::uint32_t(p), false);
            }
            w.put(EventType::pass, [&](Record& r) {
                r.pass = {id,
                          tick,
                          tick + kernel,
                          restore,
                          p == 0 ? 0 : bytes,
                          std::uint32_t(p),
                          p == 0 ? 0u : std::uint32_t(inventory[a].size() + 2 - skips),
                          skips,
                          p == 0 ? kFidelityNotChecked
                                 : (differs && p == 1 ? kFidelityDiffered : kFidelityMatched)};
            });
            if (differs && p == 1 && !inventory[a].empty()) {
                const Allocation& al = allocations[inventory[a][0]];
                w.put(EventType::fidelity_mismatch, [&](Record& r) {
                    r.fidelity_mismatch = {id, std::uint32_t(p), al.address, al.size, al.id};
                });
            }
            for (std::size_t j : skipped) {
                const Allocation& al = allocations[j];
                w.put(EventType::restore_skip, [&](Record& r) {
                    r.restore_skip = {id,    al.address,       al.size,
                                      al.id, std::uint32_t(p), RestoreSkipReason::freed};
                });
            }
            tick += kernel + restore + 10'000;
        }
        if (o.storesAndRestores) {
            putRestore(std::uint32_t(o.passes),
                       true); // after the last pass, before the application's dispatch
        }
        for (const auto& [name, value] : o.counters) {
            if (const auto counter = rs::counters::find_counter(name)) {
                w.put(EventType::counter_value, [&](Record& r) {
                    r.counter_value = {id, value * (k + 1) + std::uint64_t(i % 4), 0, *counter};
                });
            }
        }
        if (i % 50 == 25) { // an async copy met this replay window
            const auto outcome = i % 150 == 25 ? AsyncCopyOutcome::timed_out : AsyncCopyOutcome::waited;
            w.put(EventType::async_copy, [&](Record& r) {
                r.async_copy = {agent,
                                0x7c00'0000'0000ull + std::uint64_t(i) * 0x10000,
                                0x7b00'0000'0000ull,
                                1ull << 20,
                                id,
                                outcome == AsyncCopyOutcome::waited ? 180'000u : 5'000'000u,
                                outcome};
            });
        }
        w.advance(snapNs + tick % 100'000);
        if (i % 997 == 500) {
            const StringId text =
                w.string("pass 2 output differs from pass 1 in region " + std::to_string(i % 5) +
                         " of dispatch " + std::to_string(id) + " (fidelity check)");
            w.put(EventType::warning,
                  [&](Record& r) { r.warning = {id, text, WarningCode::fidelity_mismatch}; });
        }
    }
    const StringId budget =
        w.string("host-memory budget 2.0 GiB declined dispatches whose snapshot would exceed it");
    w.put(EventType::warning, [&](Record& r) { r.warning = {0, budget, WarningCode::configuration}; });
    if (!o.complete) {
        return true; // the writer "dies" here: no frees, no session end
    }
    for (Allocation& al : allocations) {
        if (al.live && al.id % 3 == 0) {
            w.put(EventType::free, [&](Record& r) { r.free = {al.id, al.address}; });
        }
    }
    w.put(EventType::session_end, [&](Record& r) {
        ++w.counts_[static_cast<std::size_t>(EventType::session_end)];
        std::memcpy(r.session_end.counts, w.counts_, sizeof w.counts_);
        r.session_end.spooled = 0;
        r.session_end.last_sequence = w.seq();
    });
    return true;
}

} // namespace

bool SyntheticSession::write(const QString& path, const Options& o, QString* error) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        QFile::remove(path + QLatin1String(suffix));
    }
    std::string err;
    auto store = SessionStore::open(path.toStdString(), SessionStore::Mode::overwrite, err);
    if (!store) {
        if (error) {
            *error = QString::fromStdString(err);
        }
        return false;
    }
    const auto writeOne = [&](int dispatches, std::int64_t process, std::uint32_t pid) {
        return writeProcess(*store, o, dispatches, process, pid);
    };
    bool ok = true;
    if (o.processDispatches.empty()) {
        ok = writeOne(o.dispatches, 0, 4242);
    } else {
        // Processes of one run: each counts its own sequence numbers from 1 (they overlap).
        for (std::size_t i = 0; i < o.processDispatches.size() && ok; ++i) {
            const std::uint32_t pid = 4242 + std::uint32_t(i);
            const std::int64_t index =
                store->process({0x5eed'0000'0000'0000ull + i + 1, pid, i == 0 ? 4241u : 4242u});
            ok = index > 0 && writeOne(o.processDispatches[i], index, pid);
        }
    }
    if (!ok) {
        if (error) {
            *error = QString::fromStdString(store->last_error());
        }
        return false;
    }
    if (!o.complete) {
        store->commit();
        store.reset(); // the writer "dies": committed rows stay, no session end
        return true;
    }
    if (!store->finish("session end received")) {
        if (error) {
            *error = QString::fromStdString(store->last_error());
        }
        return false;
    }
    store.reset();
    if (o.jobRank >= 0 && !rs::ipc::record_job_rank(path.toStdString(), o.jobRank, err)) {
        if (error) {
            *error = QString::fromStdString(err);
        }
        return false;
    }
    return true;
}

} // namespace rs::app
