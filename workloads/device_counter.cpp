// SPDX-License-Identifier: MIT
// Workload device_counter: count_dispatch.kd increments the module-scope `__device__` variable
// dispatch_counter (initially 0) once per dispatch. After one dispatch the program reads the variable
// back from its VARIABLE_ADDRESS and expects 1.
#include "hsa_session.h"
#include "kernels/kernargs.h"

#include <cstdio>

using namespace rs::workloads;

int main(int argc, char** argv) {
    HsaSession session(argc, argv);
    const hsa_agent_t gpu = session.gpu();
    {
        const Executable executable = session.load("device_counter_kernels.so");
        const Kernel kernel = executable.kernel("count_dispatch.kd", gpu);
        const Variable counter = executable.variable("dispatch_counter", gpu);
        if (counter.size != sizeof(uint32_t)) {
            fail("dispatch_counter has VARIABLE_SIZE %u, expected %zu", counter.size, sizeof(uint32_t));
        }
        uint32_t value = 0xffffffffu;
        session.copy_to_host(&value, counter.address, sizeof value);
        std::printf("device_counter: dispatch_counter at %p, %u bytes, value %u after load\n",
                    counter.address, counter.size, value);
        if (value != 0) {
            fail("dispatch_counter is %u after load, expected its initial value 0", value);
        }

        Queue queue(gpu);
        void* kernarg = session.kernarg(CountDispatchArgs{1}, kernel.kernarg_segment_size);
        const KernelDispatch dispatch = make_dispatch(kernel, kernarg, 256);
        queue.dispatch_and_wait(dispatch);

        session.copy_to_host(&value, counter.address, sizeof value);
        std::printf("device_counter: value %u after one dispatch\n", value);
        if (value != 1) {
            fail("dispatch_counter is %u after one dispatch, expected 1", value);
        }
        session.free(kernarg);
    }
    std::printf("PASS\n");
    return 0;
}
