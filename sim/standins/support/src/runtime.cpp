// SPDX-License-Identifier: MIT
// The stand-in runtime, compiled into every stand-in library by replayscope-standins: runs the grid of
// a dispatch on the calling thread. Work-groups run one after another; the work-items of a work-group
// each run on a fiber (Boost.Context) of that thread, one at a time: a work-item runs until it ends or
// reaches __syncthreads(), then the next one runs. When every work-item still running waits at the
// barrier, all of them pass it. Work-items that ended count as arrived (as on AMD hardware, where
// s_barrier waits for the wavefronts that have not terminated; HIP leaves a barrier not reached by every
// work-item undefined). A work-item that fails (unsupported feature, exception) ends the dispatch: the
// work-group's other fibers are unwound and the entry reports the reason.
#include <hsa_sim_standin/entry.h>

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace hsa_sim {

namespace {

namespace ctx = boost::context;

/** Bytes of stack per work-item fiber (plus one guard page below it). */
constexpr std::size_t kStackBytes = 256 * 1024;
/** The largest work-group AMD GPUs run. */
constexpr uint64_t kMaxWorkGroupSize = 1024;

/** Fiber stacks, reused across work-groups, dispatches and threads; unmapped when the library unloads. */
class stack_pool {
  public:
    ~stack_pool() {
        for (void* base : free_) {
            ::munmap(base, kStackBytes + page());
        }
    }
    void* take() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!free_.empty()) {
                void* base = free_.back();
                free_.pop_back();
                return base;
            }
        }
        void* base =
            ::mmap(nullptr, kStackBytes + page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) {
            throw std::bad_alloc();
        }
        ::mprotect(base, page(), PROT_NONE); // overflow faults instead of corrupting a neighbour
        return base;
    }
    void give(void* base) noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(base);
    }
    static std::size_t page() {
        static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        return size;
    }

  private:
    std::mutex mutex_;
    std::vector<void*> free_;
};

stack_pool& pool() {
    static stack_pool instance;
    return instance;
}

/** Boost.Context stack allocator over the pool. */
struct pooled_stack {
    ctx::stack_context allocate() {
        ctx::stack_context sc;
        char* base = static_cast<char*>(pool().take());
        sc.size = kStackBytes;
        sc.sp = base + stack_pool::page() + kStackBytes;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept {
        pool().give(static_cast<char*>(sc.sp) - kStackBytes - stack_pool::page());
    }
};

enum class item_state { ready, at_barrier, done };

struct group_run;

struct work_item : work_item_ids {
    item_state state = item_state::ready;
    bool started = false;
    int predicate = 0; // this work-item's __syncthreads_count/and/or argument (0 or 1)
    group_run* group = nullptr;
    ctx::fiber self;      // the work-item's fiber while it is suspended
    ctx::fiber scheduler; // where barrier() returns to
};

struct group_run {
    invoke_fn invoke = nullptr;
    const void* context = nullptr;
    std::string error;
    int barrier_count = 0;   // work-items at the last barrier whose predicate was non-zero
    int barrier_arrived = 0; // work-items at the last barrier
};

thread_local work_item* t_item = nullptr;

/** Makes `item` the current work-item: t_item and the coordinates kernels read (threadIdx, ...). */
void make_current(work_item* item) {
    t_item = item;
    if (item == nullptr) {
        return;
    }
    auto store = [](coordinates& to, const dim3& from) { to = coordinates{from.x, from.y, from.z}; };
    store(::threadIdx, item->thread_idx);
    store(::blockIdx, item->block_idx);
    store(::blockDim, item->block_dim);
    store(::gridDim, item->grid_dim);
}

std::string coordinates(const dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

void record_failure(group_run& group, const work_item& item, const std::string& what) {
    if (group.error.empty()) {
        group.error = "work-item " + coordinates(item.thread_idx) + " of work-group " +
                      coordinates(item.block_idx) + ": " + what;
    }
}

ctx::fiber start_item(group_run& group, work_item& item) {
    return ctx::fiber(std::allocator_arg, pooled_stack{}, [&group, &item](ctx::fiber&& scheduler) {
        item.scheduler = std::move(scheduler);
        try {
            group.invoke(group.context);
        } catch (const ctx::detail::forced_unwind&) {
            throw; // the dispatch was aborted: Boost.Context unwinds this fiber
        } catch (const std::exception& e) {
            record_failure(group, item, e.what());
        } catch (...) {
            record_failure(group, item, "the kernel threw an exception that is not a std::exception");
        }
        item.state = item_state::done;
        return std::move(item.scheduler);
    });
}

/** Runs one work-group to its end; false when a work-item failed (group.error says why). */
bool run_group(group_run& group, std::vector<work_item>& items) {
    for (;;) {
        std::size_t waiting = 0;
        for (auto& item : items) {
            if (item.state != item_state::ready) {
                continue;
            }
            make_current(&item);
            if (!item.started) {
                item.started = true;
                item.self = start_item(group, item);
            }
            item.self = std::move(item.self).resume();
            t_item = nullptr;
            if (!group.error.empty()) {
                for (auto& other : items) {
                    make_current(&other);
                    other.self = ctx::fiber(); // unwinds a fiber waiting at a barrier
                }
                t_item = nullptr;
                return false;
            }
            if (item.state == item_state::at_barrier) {
                ++waiting;
            }
        }
        if (waiting == 0) {
            return true;
        }
        group.barrier_count = 0;
        group.barrier_arrived = 0;
        for (auto& item : items) {
            if (item.state == item_state::at_barrier) {
                item.state = item_state::ready;
                ++group.barrier_arrived;
                group.barrier_count += item.predicate;
            }
        }
    }
}

} // namespace

const work_item_ids& current_work_item() {
    if (t_item == nullptr) {
        throw std::logic_error("a work-item coordinate (threadIdx, blockIdx, ...) was read outside a kernel "
                               "dispatch");
    }
    return *t_item;
}

void barrier() {
    barrier_count(0, nullptr);
}

int barrier_count(int predicate, int* arrived) {
    work_item* item = t_item;
    if (item == nullptr) {
        throw std::logic_error("__syncthreads() called outside a kernel dispatch");
    }
    item->predicate = predicate != 0 ? 1 : 0;
    item->state = item_state::at_barrier;
    item->scheduler = std::move(item->scheduler).resume();
    if (arrived != nullptr) {
        *arrived = item->group->barrier_arrived;
    }
    return item->group->barrier_count;
}

void unsupported(const char* feature) {
    throw std::runtime_error(std::string("the kernel uses ") + feature +
                             ", which host stand-ins do not support (the work-items of a wavefront run one "
                             "after another, not in lock-step)");
}

int report(char* error, size_t error_size, const char* message) {
    if (error != nullptr && error_size > 0) {
        std::snprintf(error, error_size, "%s", message);
    }
    return 1;
}

int run_grid(const hsa_sim_standin_launch_t* launch, char* error, size_t error_size, invoke_fn invoke,
             const void* context) {
    if (launch == nullptr) {
        return report(error, error_size, "no launch description");
    }
    if (launch->dimensions < 1 || launch->dimensions > 3) {
        return report(error, error_size, "dimensions must be 1, 2 or 3");
    }
    uint32_t grid[3];
    uint32_t wg[3];
    uint32_t groups[3];
    uint64_t wg_items = 1;
    for (int d = 0; d < 3; ++d) {
        const bool used = d < static_cast<int>(launch->dimensions);
        grid[d] = used ? launch->grid_size[d] : 1u;
        wg[d] = used ? launch->workgroup_size[d] : 1u;
        if (wg[d] == 0) {
            return report(error, error_size, "a work-group size is 0");
        }
        if (grid[d] == 0) {
            return 0; // nothing to run
        }
        groups[d] = static_cast<uint32_t>((uint64_t{grid[d]} + wg[d] - 1) / wg[d]);
        wg_items *= wg[d];
    }
    if (wg_items > kMaxWorkGroupSize) {
        return report(
            error, error_size,
            ("work-group of " + std::to_string(wg_items) + " work-items: at most 1024 are supported")
                .c_str());
    }
    if (launch->dynamic_group_segment_size > HSA_SIM_STANDIN_MAX_DYNAMIC_LDS) {
        return report(error, error_size,
                      ("dynamic group segment of " + std::to_string(launch->dynamic_group_segment_size) +
                       " bytes: stand-ins provide at most " + std::to_string(HSA_SIM_STANDIN_MAX_DYNAMIC_LDS))
                          .c_str());
    }
    try {
        group_run group;
        group.invoke = invoke;
        group.context = context;
        work_item* const outer_item = t_item;
        std::vector<work_item> items;
        items.reserve(static_cast<std::size_t>(wg_items));
        bool ok = true;
        for (uint32_t gz = 0; gz < groups[2] && ok; ++gz) {
            for (uint32_t gy = 0; gy < groups[1] && ok; ++gy) {
                for (uint32_t gx = 0; gx < groups[0] && ok; ++gx) {
                    const dim3 block(gx, gy, gz);
                    const dim3 local(std::min(wg[0], grid[0] - gx * wg[0]),
                                     std::min(wg[1], grid[1] - gy * wg[1]),
                                     std::min(wg[2], grid[2] - gz * wg[2]));
                    items.clear();
                    for (uint32_t z = 0; z < local.z; ++z) {
                        for (uint32_t y = 0; y < local.y; ++y) {
                            for (uint32_t x = 0; x < local.x; ++x) {
                                work_item& item = items.emplace_back();
                                item.group = &group;
                                item.thread_idx = dim3(x, y, z);
                                item.block_idx = block;
                                item.block_dim = local;
                                item.grid_dim = dim3(groups[0], groups[1], groups[2]);
                            }
                        }
                    }
                    ok = run_group(group, items);
                }
            }
        }
        make_current(outer_item);
        if (!ok) {
            return report(error, error_size, group.error.c_str());
        }
        return 0;
    } catch (const std::exception& e) {
        return report(error, error_size, (std::string("stand-in runtime: ") + e.what()).c_str());
    }
}

unsigned long long amdgcn::s_memtime() {
    return static_cast<unsigned long long>(::clock64());
}

} // namespace hsa_sim

long long clock64() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
