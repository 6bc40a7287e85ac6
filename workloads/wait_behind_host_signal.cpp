// Workload wait_behind_host_signal: the application puts a barrier-AND packet that waits on its own
// signal `gate` (value 1) into its queue, then an in-place dispatch (a[i] += 1) behind it, each with its
// own doorbell, and sets `gate` to 0 from the host only DELAY_MS after the dispatch was submitted. The
// dispatch cannot start before that, so a replaying tool that waits for the queue to drain before its
// snapshot must give up after its drain timeout (shorter than the delay) and let the dispatch run once,
// when the application releases it. Prints how long the dispatch's doorbell store took ("submit took N
// ms"). Afterwards a[i] == initial + 1.
//   wait_behind_host_signal [DELAY_MS]   (default 200)
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace rs::workloads;

namespace {

/// Writes a barrier-AND packet (barrier bit, system-scope fences) waiting on `dependency` into `index`.
void write_barrier_and(hsa_queue_t* queue, uint64_t index, hsa_signal_t dependency) {
    auto* packets = static_cast<hsa_barrier_and_packet_t*>(queue->base_address);
    hsa_barrier_and_packet_t* packet = &packets[index & (queue->size - 1)];
    packet->reserved0 = 0;
    packet->reserved1 = 0;
    for (hsa_signal_t& s : packet->dep_signal)
        s.handle = 0;
    packet->dep_signal[0] = dependency;
    packet->reserved2 = 0;
    packet->completion_signal.handle = 0;
    const uint16_t header = static_cast<uint16_t>(
        (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) | (1u << HSA_PACKET_HEADER_BARRIER) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
        (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
    __atomic_store_n(reinterpret_cast<uint32_t*>(packet), static_cast<uint32_t>(header), __ATOMIC_RELEASE);
}

} // namespace

int main(int argc, char** argv) {
    long delay_ms = 200;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--code-object-dir")
            ++i;
        else
            delay_ms = std::strtol(argv[i], nullptr, 10);
    }
    constexpr uint32_t kCount = 1024;
    constexpr std::size_t kBytes = kCount * sizeof(uint32_t);

    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("accumulate_kernels.so");
        const Kernel kernel = executable.kernel("accumulate.kd", gpu);
        Queue queue(gpu);

        std::vector<uint32_t> initial(kCount);
        for (uint32_t i = 0; i < kCount; ++i)
            initial[i] = 11 * i + 3;
        auto* a = static_cast<uint32_t*>(session.allocate(session.gpu_pools().coarse, kBytes));
        session.copy_to_device(a, initial.data(), kBytes);
        void* kernarg = session.kernarg(AccumulateArgs{a, kCount}, kernel.kernarg_segment_size);
        KernelDispatch dispatch = make_dispatch(kernel, kernarg, kCount);

        hsa_signal_t gate{};
        check(hsa_signal_create(1, 0, nullptr, &gate), "hsa_signal_create");
        check(hsa_signal_create(1, 0, nullptr, &dispatch.completion_signal), "hsa_signal_create");
        const uint64_t barrier_index = reserve_packets(queue.get(), 1);
        write_barrier_and(queue.get(), barrier_index, gate);
        ring_doorbell(queue.get(), barrier_index);

        const auto before = std::chrono::steady_clock::now();
        const uint64_t index = reserve_packets(queue.get(), 1);
        write_dispatch_packet(queue.get(), index, dispatch);
        ring_doorbell(queue.get(), index);
        const auto submitted = std::chrono::steady_clock::now();
        std::printf("wait_behind_host_signal: submit took %lld ms\n",
                    static_cast<long long>(
                        std::chrono::duration_cast<std::chrono::milliseconds>(submitted - before).count()));

        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        if (hsa_signal_load_scacquire(dispatch.completion_signal) < 1)
            fail("the dispatch completed before the barrier it sits behind was released");
        hsa_signal_store_screlease(gate, 0);
        wait_for_completion(dispatch.completion_signal);
        check(hsa_signal_destroy(dispatch.completion_signal), "hsa_signal_destroy");
        check(hsa_signal_destroy(gate), "hsa_signal_destroy");

        std::vector<uint32_t> result(kCount);
        session.copy_to_host(result.data(), a, kBytes);
        for (uint32_t i = 0; i < kCount; ++i)
            if (result[i] != initial[i] + 1)
                fail("a[%u] = %u, expected %u: the dispatch ran %s", i, result[i], initial[i] + 1,
                     result[i] > initial[i] + 1 ? "more than once" : "not at all");
        session.free(kernarg);
        session.free(a);
        std::printf("wait_behind_host_signal: released after %ld ms; a[i] == initial + 1\n", delay_ms);
    }
    std::printf("PASS\n");
    return 0;
}
