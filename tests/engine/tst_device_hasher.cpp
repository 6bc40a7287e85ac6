// SPDX-License-Identifier: MIT
// The chunk-hash kernel and DeviceHasher (engine/src/device_hasher.h, docs/mechanism.md "Dirty-chunk
// hashing"), in process on the simulated runtime: the embedded code objects are real AMDGPU ELF files,
// the gfx90a one loads through the HSA loader and its dispatches give the host hash for aligned,
// unaligned, short, empty and many chunks, run by the kernel's stand-in library (engine.tst_device_hasher)
// and by the simulator's gfx90a interpreter executing the code object's machine code
// (engine.tst_device_hasher.isa, HSA_SIM_EXECUTOR=isa); an ISA without a code object and a failing kernel
// (stand-in library absent) make available() false with a reason, never an abort.
//
// The saved API tables come from a test tool (rs_simtest_table_tool, loaded through HSA_TOOLS_LIB), as
// the engine gets them in OnLoad.
#include "chunk_hash_code_objects.h"
#include "device_hasher.h"
#include "hsa_api.h"
#include "sim_in_process.h"

#include <hsa.h>
#include <hsa_api_trace.h>
#include <hsa_ext_amd.h>

#include <QTest>

#include <chrono>
#include <thread>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace rs::engine;

namespace {

/// The ISA name the replaced hsa_isa_get_info_alt answers (empty: the runtime's own answer).
std::string g_reported_isa;
decltype(CoreApiTable::hsa_isa_get_info_alt_fn) g_real_isa_get_info = nullptr;

hsa_status_t reported_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
    if (!g_reported_isa.empty() && attribute == HSA_ISA_INFO_NAME_LENGTH) {
        *static_cast<uint32_t*>(value) = static_cast<uint32_t>(g_reported_isa.size() + 1);
        return HSA_STATUS_SUCCESS;
    }
    if (!g_reported_isa.empty() && attribute == HSA_ISA_INFO_NAME) {
        std::memcpy(value, g_reported_isa.c_str(), g_reported_isa.size() + 1);
        return HSA_STATUS_SUCCESS;
    }
    return g_real_isa_get_info(isa, attribute, value);
}

std::vector<unsigned char> pattern(size_t bytes, uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<unsigned char> data(bytes);
    for (auto& b : data) {
        b = static_cast<unsigned char>(random());
    }
    return data;
}

} // namespace

class TestDeviceHasher : public QObject {
    Q_OBJECT

    hsa_agent_t gpu_{0};
    hsa_amd_memory_pool_t coarse_{};
    void* device_ = nullptr; ///< kDeviceBytes of the GPU's coarse-grained memory
    static constexpr size_t kDeviceBytes = 8u << 20;
    std::vector<unsigned char> contents_;

    /// Copies `contents_` to the device buffer.
    void upload() {
        QCOMPARE(hsa_memory_copy(device_, contents_.data(), contents_.size()), HSA_STATUS_SUCCESS);
    }
    uint64_t base() const { return reinterpret_cast<uintptr_t>(device_); }

    /// Hashes `spans` on the device and checks every hash against the host hash of `contents_`.
    void check_against_host(DeviceHasher& hasher, const std::vector<ChunkSpan>& spans) {
        std::vector<uint64_t> hashes(spans.size(), 0);
        uint64_t elapsed = 0;
        QVERIFY(hasher.hash(spans.data(), spans.size(), hashes.data(), elapsed));
        QVERIFY(elapsed > 0);
        for (size_t i = 0; i < spans.size(); ++i) {
            const uint64_t expected =
                rs_chunk_hash_host(contents_.data() + (spans[i].address - base()), spans[i].bytes);
            if (hashes[i] != expected) {
                QFAIL(qPrintable(QStringLiteral("chunk %1 (offset %2, %3 bytes): %4, host %5")
                                     .arg(i)
                                     .arg(spans[i].address - base())
                                     .arg(spans[i].bytes)
                                     .arg(hashes[i], 0, 16)
                                     .arg(expected, 0, 16)));
            }
        }
    }

  private Q_SLOTS:
    void initTestCase() {
        qputenv("HSA_TOOLS_LIB", RS_TABLE_TOOL);
        qputenv("HSA_SIM_STANDINS", RS_CHUNK_HASH_STANDINS);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        QVERIFY(rs::test::take_saved_tables(RS_TABLE_TOOL));
        g_real_isa_get_info = hsa().core.hsa_isa_get_info_alt_fn;
        hsa().core.hsa_isa_get_info_alt_fn = &reported_isa_get_info;

        hsa_iterate_agents(rs::test::find_gpu, &gpu_);
        QVERIFY(gpu_.handle != 0);
        hsa_amd_agent_iterate_memory_pools(gpu_, rs::test::find_coarse_pool, &coarse_);
        QVERIFY(coarse_.handle != 0);
        QCOMPARE(hsa_amd_memory_pool_allocate(coarse_, kDeviceBytes, 0, &device_), HSA_STATUS_SUCCESS);
        contents_ = pattern(kDeviceBytes, 1);
        upload();
    }

    void cleanupTestCase() {
        if (device_) {
            hsa_amd_memory_pool_free(device_);
        }
        hsa_shut_down();
    }

    /// The code objects are AMDGPU ELF files of their processor (the NT_AMDGPU_METADATA note names the
    /// target), and the build covers the common targets.
    void code_objects_are_amdgpu_elf() {
        const auto objects = chunk_hash_code_objects();
        if (objects.empty()) {
            QSKIP("built without an AMDGPU-capable clang: no code objects");
        }
        for (const auto& object : objects) {
            QVERIFY2(object.size > 64, object.processor);
            QCOMPARE(std::memcmp(object.data,
                                 "\x7f"
                                 "ELF",
                                 4),
                     0);
            QCOMPARE(object.data[4], static_cast<unsigned char>(2)); // ELFCLASS64
            uint16_t machine = 0;
            std::memcpy(&machine, object.data + 18, 2);
            QCOMPARE(machine, static_cast<uint16_t>(0xE0)); // EM_AMDGPU
            const std::string bytes(reinterpret_cast<const char*>(object.data), object.size);
            QVERIFY2(bytes.find("amdhsa.target") != std::string::npos, object.processor);
            const std::string target = std::string("amdgcn-amd-amdhsa--") + object.processor;
            QVERIFY2(bytes.find(target) != std::string::npos, object.processor);
            QVERIFY2(bytes.find("replayscope_chunk_hash.kd") != std::string::npos, object.processor);
        }
        for (const char* required : {"gfx908", "gfx90a", "gfx1030", "gfx1100"}) {
            QVERIFY2(find_chunk_hash_code_object(required), required);
        }
        if (std::string(RS_CHUNK_HASH_COMPILER).find("clang-19") != std::string::npos) {
            QVERIFY(find_chunk_hash_code_object("gfx942"));
        }
    }

    void isa_processor_parsing() {
        QCOMPARE(isa_processor("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"), std::string_view("gfx90a"));
        QCOMPARE(isa_processor("amdgcn-amd-amdhsa--gfx1100"), std::string_view("gfx1100"));
        QCOMPARE(isa_processor("gfx942:xnack+"), std::string_view("gfx942"));
        QCOMPARE(isa_processor(""), std::string_view(""));
    }

    /// The host math: length and every byte position matter, padding is not data.
    void host_hash_properties() {
        const auto data = pattern(4096, 2);
        const uint64_t h = rs_chunk_hash_host(data.data(), data.size());
        QVERIFY(h != 0);
        for (size_t i : {size_t(0), size_t(7), size_t(8), size_t(511), size_t(512), size_t(4095)}) {
            auto changed = data;
            changed[i] ^= 1;
            QVERIFY2(rs_chunk_hash_host(changed.data(), changed.size()) != h, qPrintable(QString::number(i)));
        }
        const unsigned char zeros[16] = {};
        QVERIFY(rs_chunk_hash_host(zeros, 7) != rs_chunk_hash_host(zeros, 8)); // zero padding vs zero data
        QVERIFY(rs_chunk_hash_host(zeros, 0) != 0);
        // Two lanes swapped (words 0 and 1) give another hash: the lanes combine in order.
        auto swapped = data;
        std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
        QVERIFY(rs_chunk_hash_host(swapped.data(), swapped.size()) != h);
        // The value does not depend on the buffer's alignment.
        std::vector<unsigned char> shifted(data.size() + 1);
        std::memcpy(shifted.data() + 1, data.data(), data.size());
        QCOMPARE(rs_chunk_hash_host(shifted.data() + 1, data.size()), h);
    }

    /// rs_chunk_hash_host (one sequential pass, used by the host path and the stand-in) equals the
    /// kernel's formulation: lane by lane (rs_chunk_hash_lane, one per work-item), then combined.
    void host_hash_equals_the_kernels_lanes() {
        const auto data = pattern(70000, 3);
        for (uint64_t bytes : {0, 1, 7, 8, 9, 511, 512, 513, 1024, 4095, 65536, 65529}) {
            for (size_t offset = 0; offset < 9; ++offset) {
                uint64_t lanes[kChunkHashLanes];
                for (uint32_t lane = 0; lane < kChunkHashLanes; ++lane) {
                    lanes[lane] = rs_chunk_hash_lane(data.data() + offset, bytes, lane);
                }
                QCOMPARE(rs_chunk_hash_host(data.data() + offset, bytes),
                         rs_chunk_hash_combine(lanes, bytes));
            }
        }
    }

    void available_on_the_simulated_gfx90a() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        DeviceHasher hasher(gpu_);
        std::string why;
        QVERIFY2(hasher.available(why), why.c_str());
        QVERIFY(why.empty());
        QVERIFY(hasher.available(why)); // cached
    }

    void aligned_unaligned_short_and_empty_chunks() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        DeviceHasher hasher(gpu_);
        std::string why;
        QVERIFY2(hasher.available(why), why.c_str());
        const uint64_t b = base();
        check_against_host(hasher, {{b, 65536},
                                    {b + 65536, 65536},
                                    {b + 131072 + 5, 65536 - 5}, // a region starting inside a chunk
                                    {b + 196608, 100},           // a region ending inside a chunk
                                    {b + 200001, 3},
                                    {b + 300000, 1},
                                    {b + 400000, 0},
                                    {b + 500003, 512 * 8 + 1}, // more words than lanes, unaligned
                                    {b + 1048576, 1048576}});
        // Changing one byte changes that chunk's hash only.
        std::vector<ChunkSpan> spans = {{b, 4096}, {b + 4096, 4096}, {b + 8192, 4096}};
        std::vector<uint64_t> before(3), after(3);
        uint64_t elapsed = 0;
        QVERIFY(hasher.hash(spans.data(), 3, before.data(), elapsed));
        contents_[4096 + 1234] ^= 0x40;
        upload();
        QVERIFY(hasher.hash(spans.data(), 3, after.data(), elapsed));
        QCOMPARE(after[0], before[0]);
        QVERIFY(after[1] != before[1]);
        QCOMPARE(after[2], before[2]);
        QCOMPARE(after[1], rs_chunk_hash_host(contents_.data() + 4096, 4096));
    }

    /// More chunks than one batch holds (three dispatches), and the host path agrees.
    void many_chunks_in_batches() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        DeviceHasher hasher(gpu_);
        std::string why;
        QVERIFY2(hasher.available(why), why.c_str());
        std::vector<ChunkSpan> spans;
        for (uint64_t offset = 0; offset + 160 <= kDeviceBytes && spans.size() < 40000; offset += 160) {
            spans.push_back({base() + offset, 160});
        }
        QCOMPARE(spans.size(), size_t(40000));
        check_against_host(hasher, spans);

        std::vector<uint64_t> device(spans.size()), host(spans.size());
        uint64_t device_ns = 0, host_ns = 0;
        QVERIFY(hasher.hash(spans.data(), spans.size(), device.data(), device_ns));
        QVERIFY(hash_chunks_on_host(spans.data(), spans.size(), host.data(), host_ns));
        QVERIFY(device == host);
        QVERIFY(host_ns > 0);
    }

    void nothing_to_hash() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        DeviceHasher hasher(gpu_);
        std::string why;
        QVERIFY2(hasher.available(why), why.c_str());
        uint64_t elapsed = 1;
        QVERIFY(hasher.hash(nullptr, 0, nullptr, elapsed));
    }

    /// An agent whose ISA has no code object: unavailable, and the reason names the processor.
    void no_code_object_for_the_isa() {
        g_reported_isa = "amdgcn-amd-amdhsa--gfx1201";
        DeviceHasher hasher(gpu_);
        std::string why;
        const bool available = hasher.available(why);
        g_reported_isa.clear();
        QVERIFY(!available);
        QVERIFY2(why.find("no chunk-hash code object for gfx1201") != std::string::npos, why.c_str());
        uint64_t hash = 0, elapsed = 0;
        const ChunkSpan span{base(), 64};
        QVERIFY(!hasher.hash(&span, 1, &hash, elapsed));
    }

    /// The kernel fails on its queue (HSA_SIM_FAIL_KERNEL, as a faulting kernel): unavailable with the
    /// reason, the process goes on, and a hasher loaded afterwards works again.
    void queue_error_makes_it_unavailable() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        qputenv("HSA_SIM_FAIL_KERNEL", "replayscope_chunk_hash");
        DeviceHasher broken(gpu_);
        std::string why;
        const bool available = broken.available(why);
        qunsetenv("HSA_SIM_FAIL_KERNEL");
        QVERIFY(!available);
        QVERIFY2(why.find("failed on its queue") != std::string::npos, why.c_str());
        QVERIFY(!broken.available(why)); // the answer stays
        uint64_t hash = 0, elapsed = 0;
        const ChunkSpan span{base(), 64};
        QVERIFY(!broken.hash(&span, 1, &hash, elapsed));
        broken.release();

        DeviceHasher working(gpu_);
        QVERIFY2(working.available(why), why.c_str());
        QVERIFY(working.hash(&span, 1, &hash, elapsed));
        QCOMPARE(hash, rs_chunk_hash_host(contents_.data(), 64));
    }

    /// A batch that misses its timeout is waited for until it completes (bounded by ten more timeouts):
    /// when available() (its probe) answers, the kernel no longer runs. Only with the chunk-hash kernel
    /// slowed to 300 ms (engine.tst_device_hasher.slow_kernel); batch timeout 100 ms.
    void late_batch_is_waited_for() {
        if (!qEnvironmentVariableIsSet("RS_TEST_SLOW_CHUNK_HASH")) {
            QSKIP("needs HSA_SIM_KERNEL_TIME_NS=replayscope_chunk_hash=300000000 "
                  "(engine.tst_device_hasher.slow_kernel)");
        }
        DeviceHasher hasher(gpu_, std::chrono::milliseconds(100));
        std::string why;
        const auto t0 = std::chrono::steady_clock::now();
        QVERIFY(!hasher.available(why));
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
                .count();
        QVERIFY2(why.find("did not complete within 100 ms (it completed later)") != std::string::npos,
                 why.c_str());
        QVERIFY2(ms >= 290, qPrintable(QString::number(ms))); // returned only once the kernel was done
        hasher.release(); // not stuck: freed, and a later available() loads again
        DeviceHasher normal(gpu_);
        QVERIFY2(normal.available(why), why.c_str());
    }

    /// A batch still running after ten more timeouts leaves the hasher stuck: unavailable for good (also
    /// after release(), which leaves its buffers to the kernel, so its late writes land in memory still
    /// allocated: AddressSanitizer would see a write into freed memory otherwise). Batch timeout 20 ms,
    /// kernel 300 ms.
    void stuck_batch_is_never_reused() {
        if (!qEnvironmentVariableIsSet("RS_TEST_SLOW_CHUNK_HASH")) {
            QSKIP("needs HSA_SIM_KERNEL_TIME_NS=replayscope_chunk_hash=300000000 "
                  "(engine.tst_device_hasher.slow_kernel)");
        }
        DeviceHasher hasher(gpu_, std::chrono::milliseconds(20));
        std::string why;
        QVERIFY(!hasher.available(why));
        QVERIFY2(why.find("nor ten times that after") != std::string::npos, why.c_str());
        hasher.release();
        std::string again;
        QVERIFY(!hasher.available(again));
        QCOMPARE(again, why);
        uint64_t hash = 0, elapsed = 0;
        const ChunkSpan span{base(), 64};
        QVERIFY(!hasher.hash(&span, 1, &hash, elapsed));
        std::this_thread::sleep_for(std::chrono::milliseconds(400)); // the kernel completes into its buffers
    }

    /// release() gives everything back; the next available() loads again.
    void release_and_reload() {
        if (!find_chunk_hash_code_object("gfx90a")) {
            QSKIP("no gfx90a code object");
        }
        DeviceHasher hasher(gpu_);
        std::string why;
        QVERIFY2(hasher.available(why), why.c_str());
        hasher.release();
        hasher.release(); // idempotent
        QVERIFY2(hasher.available(why), why.c_str());
        uint64_t hash = 0, elapsed = 0;
        const ChunkSpan span{base() + 1, 999};
        QVERIFY(hasher.hash(&span, 1, &hash, elapsed));
        QCOMPARE(hash, rs_chunk_hash_host(contents_.data() + 1, 999));
    }
};

QTEST_GUILESS_MAIN(TestDeviceHasher)
#include "tst_device_hasher.moc"
