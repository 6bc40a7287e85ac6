// SPDX-License-Identifier: MIT
// Workload wait_on_window: packets of other queues that wait for a dispatch a tool may replay, every
// packet from one host thread, all written before that dispatch can start:
//   queue Q1: late_fill(z) (sleeps --delay-ms, default 200), P = add_one(a) with completion signal S,
//             then a barrier-AND with no dependency and completion signal E (an event marker);
//   queue Q2: barrier-AND on S,                            then set_values(x, 7);
//   queue Q3: barrier-OR on E,                             then set_values(y, 9);
//   queue Q4: AMD BARRIER_VALUE (S & ~0) == 0,             then set_values(w, 11).
// With --peer (two GPU agents, HSA_SIM_GPU_AGENTS=2), Q2 is a queue of agent 1, which is granted access to
// agent 0's buffers (hsa_amd_agents_allow_access), so a tool that gates agent 1 for agent 0's windows
// must also see that Q2's barrier waits for P. Each waiter can only run after P. A tool that replays P (and
// not set_values) and drains the agent's queues before its passes must not wait for Q2-Q4's set_values.
// Prints "every queue done in T ms" and checks a[i] == initial + 1 (in place: one execution) and x, y, w, z
// as set.
#include "hsa_session.h"
#include "kernels/window_kernels.h"

#include <hsa_ext_amd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace rs::workloads;

namespace {

/// Writes a 64-byte packet at `index` with its header word last (HSA 1.2 §2.8.1), then rings.
template <typename Packet>
void publish(hsa_queue_t* queue, uint64_t index, Packet packet, uint32_t header_word) {
    auto* slot = static_cast<unsigned char*>(queue->base_address) + (index & (queue->size - 1)) * 64;
    static_assert(sizeof(Packet) == 64);
    std::memcpy(slot + 4, reinterpret_cast<const unsigned char*>(&packet) + 4, 60);
    __atomic_store_n(reinterpret_cast<uint32_t*>(slot), header_word, __ATOMIC_RELEASE);
    ring_doorbell(queue, index);
}

uint32_t barrier_header(uint8_t type) {
    return (static_cast<uint32_t>(type) << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
           (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
           (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

void barrier(hsa_queue_t* queue, uint8_t type, hsa_signal_t dependency, hsa_signal_t completion) {
    hsa_barrier_and_packet_t b{}; // the OR packet has the same layout
    b.dep_signal[0] = dependency;
    b.completion_signal = completion;
    publish(queue, reserve_packets(queue, 1), b, barrier_header(type));
}

void barrier_value_zero(hsa_queue_t* queue, hsa_signal_t signal) {
    hsa_amd_barrier_value_packet_t b{};
    b.signal = signal;
    b.value = 0;
    b.mask = ~hsa_signal_value_t{0};
    b.cond = HSA_SIGNAL_CONDITION_EQ;
    const uint32_t header = barrier_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC) |
                            (static_cast<uint32_t>(HSA_AMD_PACKET_TYPE_BARRIER_VALUE) << 16);
    publish(queue, reserve_packets(queue, 1), b, header);
}

} // namespace

int main(int argc, char** argv) {
    constexpr uint32_t kCount = 2048;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);
    uint64_t delay_ms = 200;
    bool peer = false;
    for (const char* a : program_arguments(argc, argv)) {
        if (std::strcmp(a, "--peer") == 0) {
            peer = true;
        } else {
            delay_ms = std::strtoull(a, nullptr, 10);
        }
    }

    HsaSession session(argc, argv);
    if (peer && session.gpus().size() < 2) {
        fail("--peer needs two GPU agents but found %zu (run with HSA_SIM_GPU_AGENTS=2)",
             session.gpus().size());
    }
    const hsa_agent_t gpu = session.gpu(0), other = peer ? session.gpu(1) : session.gpu(0);
    {
        const std::vector<hsa_agent_t> agents =
            peer ? std::vector<hsa_agent_t>{gpu, other} : std::vector<hsa_agent_t>{};
        const Executable executable = session.load("window_kernels.so", agents);
        const Kernel add_one = executable.kernel("add_one.kd", gpu);
        const Kernel late_fill = executable.kernel("late_fill.kd", gpu);
        const Kernel set_values = executable.kernel("set_values.kd", gpu);
        const Kernel set_values_other = executable.kernel("set_values.kd", other);
        Queue q1(gpu), q2(other), q3(gpu), q4(gpu);

        const std::vector<uint32_t> initial = linear_values(kCount, 300, 7);
        uint32_t* buffers[5] = {};
        for (uint32_t*& b : buffers) {
            b = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        }
        uint32_t *a = buffers[0], *x = buffers[1], *y = buffers[2], *w = buffers[3], *z = buffers[4];
        if (peer) {
            for (uint32_t* b : buffers) {
                check(hsa_amd_agents_allow_access(1, &other, nullptr, b), "hsa_amd_agents_allow_access");
            }
        }
        session.copy_to_device(a, initial.data(), kBytes);
        void* args_fill =
            session.kernarg(LateFillArgs{z, kCount, 5, delay_ms * 1000000}, late_fill.kernarg_segment_size);
        void* args_a = session.kernarg(AddOneArgs{a, kCount}, add_one.kernarg_segment_size);
        void* args_x = session.kernarg(SetValuesArgs{x, kCount, 7}, set_values_other.kernarg_segment_size);
        void* args_y = session.kernarg(SetValuesArgs{y, kCount, 9}, set_values.kernarg_segment_size);
        void* args_w = session.kernarg(SetValuesArgs{w, kCount, 11}, set_values.kernarg_segment_size);

        hsa_signal_t s{}, e{}, done[4] = {};
        check(hsa_signal_create(1, 0, nullptr, &s), "hsa_signal_create");
        check(hsa_signal_create(1, 0, nullptr, &e), "hsa_signal_create");
        for (hsa_signal_t& d : done) {
            check(hsa_signal_create(1, 0, nullptr, &d), "hsa_signal_create");
        }

        const auto start = std::chrono::steady_clock::now();
        submit_dispatch(q1.get(), make_dispatch(late_fill, args_fill, kCount));
        KernelDispatch p = make_dispatch(add_one, args_a, kCount);
        p.completion_signal = s;
        submit_dispatch(q1.get(), p);
        barrier(q1.get(), HSA_PACKET_TYPE_BARRIER_AND, hsa_signal_t{0}, e);
        barrier(q2.get(), HSA_PACKET_TYPE_BARRIER_AND, s, hsa_signal_t{0});
        barrier(q3.get(), HSA_PACKET_TYPE_BARRIER_OR, e, hsa_signal_t{0});
        barrier_value_zero(q4.get(), s);
        const void* waiter_args[3] = {args_x, args_y, args_w};
        hsa_queue_t* waiters[3] = {q2.get(), q3.get(), q4.get()};
        for (int i = 0; i < 3; ++i) {
            KernelDispatch d = make_dispatch(i == 0 ? set_values_other : set_values,
                                             const_cast<void*>(waiter_args[i]), kCount);
            d.completion_signal = done[i];
            submit_dispatch(waiters[i], d);
        }
        barrier(q1.get(), HSA_PACKET_TYPE_BARRIER_AND, hsa_signal_t{0}, done[3]);
        for (hsa_signal_t d : done) {
            wait_for_completion(d);
        }
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf("wait_on_window: every queue done in %.1f ms\n", ms);

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        expect_incremented(result, initial, "a", "add_one");
        const struct {
            uint32_t* buffer;
            uint32_t value;
            const char* name;
        } set[] = {{x, 7, "x"}, {y, 9, "y"}, {w, 11, "w"}, {z, 5, "z"}};
        for (const auto& c : set) {
            session.copy_to_host(result.data(), c.buffer, kBytes);
            for (uint32_t i = 0; i < kCount; ++i) {
                if (result[i] != c.value + i) {
                    fail("%s[%u] = %u, expected %u", c.name, i, result[i], c.value + i);
                }
            }
        }
        hsa_signal_destroy(s);
        hsa_signal_destroy(e);
        for (hsa_signal_t d : done) {
            hsa_signal_destroy(d);
        }
        for (void* k : {args_fill, args_a, args_x, args_y, args_w}) {
            session.free(k);
        }
        for (uint32_t* b : buffers) {
            session.free(b);
        }
    }
    std::printf("wait_on_window: a[i] == initial + 1, x, y, w and z as set\nPASS\n");
    return 0;
}
