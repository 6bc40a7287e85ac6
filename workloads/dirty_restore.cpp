// SPDX-License-Identifier: MIT
// Workload dirty_restore: one dispatch whose written bytes are known exactly, for the dirty-chunk
// restore tests (tests/engine/tst_dirty_restore.cpp). Every buffer is a coarse-grained allocation of
// GPU 0 filled with byte i = (i * 7 + 13 * b) % 256 (b: the buffer's index); host staging and kernarg
// memory are not device memory, so a snapshot of the dispatch holds exactly the buffers listed.
// Prints "region NAME address 0xADDR size BYTES" for every region, then checks the results: every
// byte the kernel changes changed exactly once (not once per replay pass), every other byte is as it was.
//
//   dirty_restore chunk-starts STRIDE SIZE[,SIZE...]   bump_chunk_starts.kd: one byte per STRIDE-aligned
//                                                      piece of each buffer (every chunk of that size dirty)
//   dirty_restore same-values SIZE[,SIZE...]           rewrite_same.kd: every byte rewritten unchanged
//   dirty_restore pokes SIZE[,SIZE...] B:OFF[,B:OFF...] bump_bytes.kd: byte OFF of buffer B, for each pair
//   dirty_restore variable OFFSET                      bump_variable.kd: byte OFFSET of `__device__`
//                                                      dirty_table (dirty_variable_kernels.so), no buffer
//   dirty_restore reclaim STRIDE SIZE SECOND           chunk-starts on one buffer of SIZE bytes, then an
//                                                      allocation of SECOND bytes from the same pool must
//                                                      succeed (the engine's device store gives memory back)
// Without arguments: chunk-starts 65536 1060921.
#include "hsa_session.h"
#include "kernels/dirty_kernels.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace rs::workloads;

namespace {

uint64_t parse_u64(const char* text, const char* what) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 0);
    if (!end || *end != '\0' || end == text) {
        fail("%s: '%s' is not a number", what, text);
    }
    return v;
}

std::vector<std::string> split(const char* text) {
    std::vector<std::string> out;
    std::string item;
    for (const char* p = text;; ++p) {
        if (*p == ',' || *p == '\0') {
            if (!item.empty()) {
                out.push_back(item);
            }
            item.clear();
            if (*p == '\0') {
                break;
            }
        } else {
            item += *p;
        }
    }
    return out;
}

uint8_t initial_byte(uint64_t i, uint32_t buffer) {
    return static_cast<uint8_t>((i * 7 + 13 * buffer) % 256);
}

/** The program's buffers, their initial contents and the bytes the kernel is to add to each. */
struct Buffers {
    const HsaSession& session;
    std::vector<uint8_t*> device;
    std::vector<std::vector<uint8_t>> initial, added;

    Buffers(const HsaSession& s, const char* sizes) : session(s) {
        for (const auto& text : split(sizes)) {
            const uint64_t bytes = parse_u64(text.c_str(), "buffer size");
            if (bytes == 0 || device.size() == kDirtyMaxBuffers) {
                fail("buffer sizes: 1 to %u sizes of at least one byte", kDirtyMaxBuffers);
            }
            const auto b = static_cast<uint32_t>(device.size());
            std::vector<uint8_t> contents(bytes);
            for (uint64_t i = 0; i < bytes; ++i) {
                contents[i] = initial_byte(i, b);
            }
            auto* buffer = static_cast<uint8_t*>(session.allocate(session.gpu_pools().coarse, bytes));
            session.copy_to_device(buffer, contents.data(), bytes);
            std::printf("region b%u address %p size %llu\n", b, static_cast<void*>(buffer),
                        static_cast<unsigned long long>(bytes));
            device.push_back(buffer);
            initial.push_back(std::move(contents));
            added.emplace_back(bytes, 0);
        }
        if (device.empty()) {
            fail("no buffer sizes given");
        }
    }
    ~Buffers() {
        for (uint8_t* b : device) {
            session.free(b);
        }
    }

    /** Fails at the first byte that is not initial + added (uint8_t arithmetic). */
    void check() const {
        for (size_t b = 0; b < device.size(); ++b) {
            std::vector<uint8_t> result(initial[b].size());
            session.copy_to_host(result.data(), device[b], result.size());
            for (size_t i = 0; i < result.size(); ++i) {
                const auto expected = static_cast<uint8_t>(initial[b][i] + added[b][i]);
                if (result[i] != expected) {
                    fail("buffer b%zu byte %zu is %u, expected %u (the kernel %s)", b, i, result[i], expected,
                         added[b][i] ? "changes it once" : "leaves it alone");
                }
            }
        }
    }
};

void run_kernel(const HsaSession& session, const char* code_object, const char* name, const void* args,
                size_t args_bytes) {
    const hsa_agent_t gpu = session.gpu();
    const Executable executable = session.load(code_object);
    const Kernel kernel = executable.kernel(name, gpu);
    Queue queue(gpu);
    void* kernarg = session.allocate(session.kernarg_pool(), kernel.kernarg_segment_size);
    std::memcpy(kernarg, args, args_bytes);
    queue.dispatch_and_wait(make_dispatch(kernel, kernarg, 1));
    session.free(kernarg);
}

void chunk_starts(const HsaSession& session, uint64_t stride, Buffers& buffers) {
    if (stride == 0 || (stride & (stride - 1)) != 0) {
        fail("stride %llu is not a power of two", static_cast<unsigned long long>(stride));
    }
    BumpChunkStartsArgs args{};
    args.stride = stride;
    args.count = static_cast<uint32_t>(buffers.device.size());
    for (uint32_t b = 0; b < args.count; ++b) {
        const uint64_t bytes = buffers.initial[b].size();
        args.buffers[b] = {buffers.device[b], bytes};
        const auto base = reinterpret_cast<uintptr_t>(buffers.device[b]);
        buffers.added[b][0] = 1;
        for (uintptr_t a = (base / stride + 1) * stride; a < base + bytes; a += stride) {
            buffers.added[b][a - base] = 1;
        }
    }
    run_kernel(session, "dirty_kernels.so", "bump_chunk_starts.kd", &args, sizeof(args));
}

} // namespace

int main(int argc, char** argv) {
    std::vector<const char*> args = program_arguments(argc, argv);
    if (args.empty()) { // as CTest's workload.dirty_restore runs it
        args = {"chunk-starts", "65536", "1060921"};
    }
    const std::string mode = args[0];
    HsaSession session(argc, argv);
    if (mode == "chunk-starts" && args.size() == 3) {
        Buffers buffers(session, args[2]);
        chunk_starts(session, parse_u64(args[1], "stride"), buffers);
        buffers.check();
        std::printf("every chunk start changed once\n");
    } else if (mode == "same-values" && args.size() == 2) {
        Buffers buffers(session, args[1]);
        RewriteSameArgs k{};
        k.count = static_cast<uint32_t>(buffers.device.size());
        for (uint32_t b = 0; b < k.count; ++b) {
            k.buffers[b] = {buffers.device[b], buffers.initial[b].size()};
        }
        run_kernel(session, "dirty_kernels.so", "rewrite_same.kd", &k, sizeof(k));
        buffers.check();
        std::printf("every byte rewritten unchanged\n");
    } else if (mode == "pokes" && args.size() == 3) {
        Buffers buffers(session, args[1]);
        BumpBytesArgs k{};
        for (const auto& poke : split(args[2])) {
            const auto colon = poke.find(':');
            if (colon == std::string::npos || k.count == kDirtyMaxPokes) {
                fail("pokes: up to %u pairs BUFFER:OFFSET", kDirtyMaxPokes);
            }
            const uint64_t b = parse_u64(poke.substr(0, colon).c_str(), "buffer index");
            const uint64_t offset = parse_u64(poke.substr(colon + 1).c_str(), "offset");
            if (b >= buffers.device.size() || offset >= buffers.initial[b].size() ||
                buffers.added[b][offset]) {
                fail("poke %s: no such byte, or named twice", poke.c_str());
            }
            k.pokes[k.count++] = {buffers.device[b], offset};
            buffers.added[b][offset] = 1;
        }
        run_kernel(session, "dirty_kernels.so", "bump_bytes.kd", &k, sizeof(k));
        buffers.check();
        std::printf("%u bytes changed once\n", k.count);
    } else if (mode == "variable" && args.size() == 2) {
        const uint64_t offset = parse_u64(args[1], "offset");
        if (offset >= kDirtyTableBytes) {
            fail("offset %llu is past dirty_table", static_cast<unsigned long long>(offset));
        }
        const hsa_agent_t gpu = session.gpu();
        const Executable executable = session.load("dirty_variable_kernels.so");
        const Variable table = executable.variable("dirty_table", gpu);
        if (table.size != kDirtyTableBytes) {
            fail("dirty_table has %u bytes", table.size);
        }
        std::printf("region dirty_table address %p size %u\n", table.address, table.size);
        const Kernel kernel = executable.kernel("bump_variable.kd", gpu);
        Queue queue(gpu);
        void* kernarg = session.kernarg(BumpVariableArgs{offset}, kernel.kernarg_segment_size);
        queue.dispatch_and_wait(make_dispatch(kernel, kernarg, 1));
        std::vector<uint8_t> result(kDirtyTableBytes);
        session.copy_to_host(result.data(), table.address, kDirtyTableBytes);
        for (uint64_t i = 0; i < kDirtyTableBytes; ++i) {
            const auto expected = static_cast<uint8_t>(i % 251 + (i == offset ? 1 : 0));
            if (result[i] != expected) {
                fail("dirty_table byte %llu is %u, expected %u", static_cast<unsigned long long>(i),
                     result[i], expected);
            }
        }
        session.free(kernarg);
        std::printf("dirty_table byte %llu changed once\n", static_cast<unsigned long long>(offset));
    } else if (mode == "reclaim" && args.size() == 4) {
        const uint64_t second = parse_u64(args[3], "second size");
        Buffers buffers(session, args[2]);
        chunk_starts(session, parse_u64(args[1], "stride"), buffers);
        // HSA_AMD_AGENT_INFO_MEMORY_AVAIL (ROCr 6.x; refused by 5.2.3): the free device memory the
        // allocation meets, which the engine's device store reduces while it holds its snapshot copy.
        uint64_t free_bytes = 0;
        if (hsa_agent_get_info(session.gpu(), static_cast<hsa_agent_info_t>(0xA015), &free_bytes) ==
            HSA_STATUS_SUCCESS) {
            std::printf("device memory free before the second allocation: %llu\n",
                        static_cast<unsigned long long>(free_bytes));
        }
        void* extra = nullptr;
        const hsa_status_t status =
            hsa_amd_memory_pool_allocate(session.gpu_pools().coarse, second, 0, &extra);
        std::printf("second allocation of %llu bytes: status %d\n", static_cast<unsigned long long>(second),
                    static_cast<int>(status));
        check(status, "the allocation after the window");
        buffers.check();
        session.free(extra);
        std::printf("every chunk start changed once; the later allocation succeeded\n");
    } else {
        fail("unknown mode or wrong number of arguments: %s (%zu arguments)", mode.c_str(), args.size());
    }
    std::printf("PASS\n");
    return 0;
}
