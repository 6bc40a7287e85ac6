// SPDX-License-Identifier: MIT
// The frame the interpreter's instruction suites share (tests/isa): kernels of kernels/<class>.s read
// eight input planes of 64 lanes and write eight output planes and a memory buffer (kernels/common.inc);
// IsaKernelSuite loads them, fills the planes, dispatches and checks rows of expected outputs.
#pragma once

#include "sim_test_util.h"
#include "stderr_capture.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <thread>

namespace rs_test::isa {

using Words = QList<quint32>;

constexpr int kLanes = 64;
constexpr int kInPlanes = 8;
constexpr size_t kBufferWords = 4096;
/// Plane 7, the old value of a destination, when a row does not give it.
constexpr uint32_t kOld = 0x0badf00d;
/// What the output buffer holds before a dispatch.
constexpr uint32_t kUnwritten = 0xcdcdcdcd;

/// The kernels' kernarg segment.
struct Kernarg {
    const uint32_t* in;
    uint32_t* out;
    uint32_t* mem;
};

inline quint32 f(float x) {
    return std::bit_cast<quint32>(x);
}

/// A double as its low and high dwords.
inline Words d(double x) {
    const auto bits = std::bit_cast<uint64_t>(x);
    return {static_cast<quint32>(bits), static_cast<quint32>(bits >> 32)};
}

inline Words q(uint64_t bits) {
    return {static_cast<quint32>(bits), static_cast<quint32>(bits >> 32)};
}

inline double as_double(uint32_t lo, uint32_t hi) {
    return std::bit_cast<double>(lo | static_cast<uint64_t>(hi) << 32);
}

inline uint32_t sext8(uint32_t x) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(x & 0xff)));
}

inline uint32_t sext16(uint32_t x) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(x & 0xffff)));
}

/// Varied bits for input plane `plane` of lane `lane`.
inline uint32_t mix(int plane, int lane) {
    uint32_t x =
        static_cast<uint32_t>(lane + 1) * 0x9e3779b1u ^ static_cast<uint32_t>(plane + 1) * 0x85ebca6bu;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return x;
}

inline QString hex(uint32_t x) {
    return QStringLiteral("0x%1").arg(x, 8, 16, QLatin1Char('0'));
}

/// Checks `count` words of `got` against want(i); fails the test at the first difference.
template <typename F>
inline bool expect(const QString& what, const uint32_t* got, F want, int count = kLanes) {
    for (int i = 0; i < count; ++i) {
        const auto w = static_cast<uint32_t>(want(i));
        if (got[i] != w) {
            QTest::qFail(
                qPrintable(
                    QStringLiteral("%1, lane %2: %3, expected %4").arg(what).arg(i).arg(hex(got[i]), hex(w))),
                __FILE__, __LINE__);
            return false;
        }
    }
    return true;
}

struct QueueError {
    std::atomic<int> count{0};
    std::atomic<int> status{0};
    bool packet_completed = false; ///< the failed dispatch's completion signal reached 0 all the same
};

inline void on_queue_error(hsa_status_t status, hsa_queue_t*, void* data) {
    auto* e = static_cast<QueueError*>(data);
    e->status.store(static_cast<int>(status));
    e->count.fetch_add(1);
}

/// The suites' fixture: agents, the suite's queue, the input/output/memory buffers and their kernarg,
/// code objects loaded on first use. init_suite() and cleanup_suite() are called from the suites'
/// initTestCase and cleanupTestCase.
class IsaKernelSuite {
  protected:
    hsa_agent_t cpu_{0};
    hsa_agent_t gpu_{0};
    hsa_queue_t* queue_ = nullptr;
    uint32_t* in_ = nullptr;
    uint32_t* out_ = nullptr;
    uint32_t* mem_ = nullptr;
    Kernarg* args_ = nullptr;
    std::map<QByteArray, LoadedCode> code_;

    /// Kernel object of `kernel` in kernels/<file>.co, loading the code object (from memory) on first use.
    uint64_t kernel_object_of(const char* file, const char* kernel) {
        LoadedCode& code = code_[QByteArray(file)];
        if (!code.exe.handle) {
            const QByteArray path = QByteArray(RS_ISA_KERNELS_DIR "/") + file + ".co";
            if (load_code(path.constData(), gpu_, true, true, &code) != HSA_STATUS_SUCCESS) {
                qWarning("cannot load %s", path.constData());
                unload_code(&code);
                code_.erase(QByteArray(file));
                return 0;
            }
        }
        return kernel_object(code.exe, gpu_, (QByteArray(kernel) + ".kd").constData());
    }

    /// Dispatches `kernel` of kernels/<file>.co on the suite's queue and waits for its completion signal.
    bool run(const char* file, const char* kernel, uint32_t grid = kLanes, uint16_t workgroup = kLanes) {
        const uint64_t object = kernel_object_of(file, kernel);
        if (!object) {
            qWarning("no kernel %s in %s.co", kernel, file);
            return false;
        }
        hsa_signal_t done{0};
        if (hsa_signal_create(1, 0, nullptr, &done) != HSA_STATUS_SUCCESS) {
            return false;
        }
        dispatch(queue_, object, args_, grid, workgroup, done, false);
        const bool ok = wait_below_one(done, 10000) == 0;
        hsa_signal_destroy(done);
        if (!ok) {
            qWarning("kernel %s of %s.co did not complete", kernel, file);
        }
        return ok;
    }

    /// Dispatches `object` (one work-group of kLanes) on a new MULTI queue whose error callback records
    /// into `error`, waits up to 5 s for that callback, notes whether the packet completed all the same,
    /// destroys the queue and returns what the runtime printed on stderr meanwhile.
    QByteArray dispatch_expecting_queue_error(uint64_t object, QueueError& error) {
        hsa_queue_t* q = nullptr;
        if (hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, &on_queue_error, &error, UINT32_MAX, UINT32_MAX,
                             &q) != HSA_STATUS_SUCCESS) {
            return "hsa_queue_create failed";
        }
        hsa_signal_t done{0};
        (void)hsa_signal_create(1, 0, nullptr, &done);
        QByteArray text;
        {
            rs::test::StderrCapture capture;
            dispatch(q, object, args_, kLanes, kLanes, done, false);
            for (int i = 0; i < 500 && error.count.load() == 0; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            text = capture.text();
        }
        error.packet_completed = hsa_signal_load_scacquire(done) != 1;
        hsa_signal_destroy(done);
        (void)hsa_queue_destroy(q);
        return text;
    }

    /// Every lane of input plane k gets in[k] (plane 7, the old destination, kOld when not given).
    void fill_uniform(const Words& in) {
        for (int k = 0; k < kInPlanes; ++k) {
            const uint32_t v = k < in.size() ? in[k] : (k == 7 ? kOld : 0);
            std::fill(in_ + k * kLanes, in_ + (k + 1) * kLanes, v);
        }
        std::fill(out_, out_ + kBufferWords, kUnwritten);
    }

    /// Input plane k of lane i = value(k, i).
    void fill_lanes(const std::function<uint32_t(int, int)>& value) {
        for (int k = 0; k < kInPlanes; ++k) {
            for (int lane = 0; lane < kLanes; ++lane) {
                in_[k * kLanes + lane] = value(k, lane);
            }
        }
        std::fill(out_, out_ + kBufferWords, kUnwritten);
    }

    uint32_t in(int plane, int lane) const { return in_[plane * kLanes + lane]; }
    const uint32_t* out(int plane) const { return out_ + plane * kLanes; }

    static void columns() {
        QTest::addColumn<QByteArray>("kernel");
        QTest::addColumn<Words>("in");
        QTest::addColumn<Words>("expected");
        QTest::addColumn<Words>("mask");
    }

    /// A row: the kernel, its input planes (the same in every lane), the expected output planes
    /// (masked by `mask` where given: a NaN's quiet bit and exponent, say).
    static void row(const char* name, const char* kernel, const Words& in, const Words& expected,
                    const Words& mask = {}) {
        QTest::newRow(name) << QByteArray(kernel) << in << expected << mask;
    }

    /// Runs the current row's kernel of kernels/<file>.co and checks every lane of its outputs.
    void check_row(const char* file) {
        QFETCH(QByteArray, kernel);
        QFETCH(Words, in);
        QFETCH(Words, expected);
        QFETCH(Words, mask);
        fill_uniform(in);
        QVERIFY(run(file, kernel.constData()));
        for (int k = 0; k < expected.size(); ++k) {
            const uint32_t m = k < mask.size() ? mask[k] : ~0u;
            const uint32_t* got = out(k);
            for (int lane = 0; lane < kLanes; ++lane) {
                if ((got[lane] & m) != expected[k]) {
                    QFAIL(qPrintable(QStringLiteral("%1: output %2, lane %3: %4, expected %5 (mask %6)")
                                         .arg(QString::fromLatin1(kernel))
                                         .arg(k)
                                         .arg(lane)
                                         .arg(hex(got[lane]), hex(expected[k]), hex(m))));
                }
            }
        }
    }

    /// Initialises HSA with the interpreter, creates the queue and the buffers (initTestCase).
    void init_suite() {
        qputenv("HSA_SIM_EXECUTOR", "isa");
        qunsetenv("HSA_SIM_STANDINS");
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        const Agents agents = list_agents();
        QVERIFY(!agents.cpus.empty() && !agents.gpus.empty());
        cpu_ = agents.cpus.front();
        gpu_ = agents.gpus.front();
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX,
                                  &queue_),
                 HSA_STATUS_SUCCESS);
        const hsa_amd_memory_pool_t system = find_pool(cpu_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
        QVERIFY(system.handle != 0);
        for (uint32_t** buffer : {&in_, &out_, &mem_}) {
            void* p = nullptr;
            QCOMPARE(hsa_amd_memory_pool_allocate(system, kBufferWords * 4, 0, &p), HSA_STATUS_SUCCESS);
            *buffer = static_cast<uint32_t*>(p);
        }
        args_ = alloc_kernarg<Kernarg>(cpu_);
        *args_ = {in_, out_, mem_};
    }

    /// Releases what init_suite() and the loads made, and shuts HSA down (cleanupTestCase).
    void cleanup_suite() {
        for (auto& [name, code] : code_) {
            unload_code(&code);
        }
        code_.clear();
        for (uint32_t* buffer : {in_, out_, mem_}) {
            hsa_amd_memory_pool_free(buffer);
        }
        hsa_amd_memory_pool_free(args_);
        if (queue_) {
            QCOMPARE(hsa_queue_destroy(queue_), HSA_STATUS_SUCCESS);
        }
        QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
};

} // namespace rs_test::isa
