// SPDX-License-Identifier: MIT
/*
 * Signals: creation, every load/store/read-modify-write variant (values and returned previous values),
 * waits with each condition (satisfied at once, satisfied later by another thread, timing out with the
 * current value), hsa_amd_signal_wait_any and hsa_amd_signal_async_handler.
 */
#include "sim_test_util.h"

#include <QTest>

#include <atomic>
#include <mutex>

using namespace rs_test;

namespace {

using StoreFn = void (*)(hsa_signal_t, hsa_signal_value_t);
using RmwFn = void (*)(hsa_signal_t, hsa_signal_value_t);
using ExchFn = hsa_signal_value_t (*)(hsa_signal_t, hsa_signal_value_t);
using CasFn = hsa_signal_value_t (*)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);

struct HandlerLog {
    std::mutex mutex;
    std::vector<hsa_signal_value_t> values;
    std::atomic<int> calls{0};
};

} // namespace

class SignalsTest : public QObject {
    Q_OBJECT

    hsa_signal_t sig_{0};

  private Q_SLOTS:
    void initTestCase() { QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS); }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }
    void init() {
        QCOMPARE(hsa_signal_create(0, 0, nullptr, &sig_), HSA_STATUS_SUCCESS);
        QVERIFY(sig_.handle != 0);
    }
    void cleanup() { QCOMPARE(hsa_signal_destroy(sig_), HSA_STATUS_SUCCESS); }

    void createWithInitialValue() {
        hsa_signal_t s;
        QCOMPARE(hsa_signal_create(-42, 0, nullptr, &s), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_load_relaxed(s), hsa_signal_value_t{-42});
        QCOMPARE(hsa_signal_load_scacquire(s), hsa_signal_value_t{-42});
        hsa_signal_t other;
        QCOMPARE(hsa_signal_create(1, 0, nullptr, &other), HSA_STATUS_SUCCESS);
        QVERIFY(other.handle != s.handle);
        QCOMPARE(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_destroy(other), HSA_STATUS_SUCCESS);
        QCOMPARE(hsa_signal_create(0, 0, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    void stores() {
        const StoreFn fns[] = {hsa_signal_store_relaxed, hsa_signal_store_screlease,
                               hsa_signal_silent_store_relaxed, hsa_signal_silent_store_screlease};
        hsa_signal_value_t v = 11;
        for (StoreFn fn : fns) {
            fn(sig_, v);
            QCOMPARE(hsa_signal_load_relaxed(sig_), v);
            v *= 3;
        }
    }

    void arithmeticAndBitwise() {
        struct Op {
            RmwFn fns[4];
            hsa_signal_value_t operand;
            hsa_signal_value_t (*expect)(hsa_signal_value_t, hsa_signal_value_t);
        };
        const Op ops[] = {
            {{hsa_signal_add_relaxed, hsa_signal_add_scacquire, hsa_signal_add_screlease,
              hsa_signal_add_scacq_screl},
             5,
             [](hsa_signal_value_t a, hsa_signal_value_t b) { return a + b; }},
            {{hsa_signal_subtract_relaxed, hsa_signal_subtract_scacquire, hsa_signal_subtract_screlease,
              hsa_signal_subtract_scacq_screl},
             3,
             [](hsa_signal_value_t a, hsa_signal_value_t b) { return a - b; }},
            {{hsa_signal_and_relaxed, hsa_signal_and_scacquire, hsa_signal_and_screlease,
              hsa_signal_and_scacq_screl},
             0b1100,
             [](hsa_signal_value_t a, hsa_signal_value_t b) { return a & b; }},
            {{hsa_signal_or_relaxed, hsa_signal_or_scacquire, hsa_signal_or_screlease,
              hsa_signal_or_scacq_screl},
             0b0101,
             [](hsa_signal_value_t a, hsa_signal_value_t b) { return a | b; }},
            {{hsa_signal_xor_relaxed, hsa_signal_xor_scacquire, hsa_signal_xor_screlease,
              hsa_signal_xor_scacq_screl},
             0b0110,
             [](hsa_signal_value_t a, hsa_signal_value_t b) { return a ^ b; }},
        };
        for (const Op& op : ops) {
            for (RmwFn fn : op.fns) {
                const hsa_signal_value_t start = 0b1011;
                hsa_signal_store_relaxed(sig_, start);
                fn(sig_, op.operand);
                QCOMPARE(hsa_signal_load_scacquire(sig_), op.expect(start, op.operand));
            }
        }
    }

    void exchangeAndCas() {
        const ExchFn exch[] = {hsa_signal_exchange_relaxed, hsa_signal_exchange_scacquire,
                               hsa_signal_exchange_screlease, hsa_signal_exchange_scacq_screl};
        for (ExchFn fn : exch) {
            hsa_signal_store_relaxed(sig_, 7);
            QCOMPARE(fn(sig_, 9), hsa_signal_value_t{7});
            QCOMPARE(hsa_signal_load_relaxed(sig_), hsa_signal_value_t{9});
        }
        const CasFn cas[] = {hsa_signal_cas_relaxed, hsa_signal_cas_scacquire, hsa_signal_cas_screlease,
                             hsa_signal_cas_scacq_screl};
        for (CasFn fn : cas) {
            hsa_signal_store_relaxed(sig_, 4);
            // Mismatch: value unchanged, the observed value returned.
            QCOMPARE(fn(sig_, 5, 100), hsa_signal_value_t{4});
            QCOMPARE(hsa_signal_load_relaxed(sig_), hsa_signal_value_t{4});
            // Match: value replaced, the old value returned.
            QCOMPARE(fn(sig_, 4, 100), hsa_signal_value_t{4});
            QCOMPARE(hsa_signal_load_relaxed(sig_), hsa_signal_value_t{100});
        }
    }

    void concurrentAdds() {
        constexpr int threads = 4;
        constexpr int per_thread = 10000;
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([this] {
                for (int i = 0; i < per_thread; ++i) {
                    hsa_signal_add_scacq_screl(sig_, 1);
                }
            });
        }
        for (auto& t : pool) {
            t.join();
        }
        QCOMPARE(hsa_signal_load_scacquire(sig_), hsa_signal_value_t{threads * per_thread});
    }

    void waitSatisfiedImmediately_data() {
        QTest::addColumn<int>("condition");
        QTest::addColumn<qlonglong>("value");
        QTest::addColumn<qlonglong>("compare");
        QTest::newRow("EQ") << int(HSA_SIGNAL_CONDITION_EQ) << 5LL << 5LL;
        QTest::newRow("NE") << int(HSA_SIGNAL_CONDITION_NE) << 5LL << 6LL;
        QTest::newRow("LT") << int(HSA_SIGNAL_CONDITION_LT) << 5LL << 6LL;
        QTest::newRow("GTE equal") << int(HSA_SIGNAL_CONDITION_GTE) << 5LL << 5LL;
        QTest::newRow("GTE greater") << int(HSA_SIGNAL_CONDITION_GTE) << 9LL << 5LL;
    }
    void waitSatisfiedImmediately() {
        QFETCH(int, condition);
        QFETCH(qlonglong, value);
        QFETCH(qlonglong, compare);
        hsa_signal_store_relaxed(sig_, value);
        const auto cond = static_cast<hsa_signal_condition_t>(condition);
        QCOMPARE(hsa_signal_wait_scacquire(sig_, cond, compare, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), value);
        QCOMPARE(hsa_signal_wait_relaxed(sig_, cond, compare, UINT64_MAX, HSA_WAIT_STATE_ACTIVE), value);
    }

    void waitTimesOut_data() {
        QTest::addColumn<int>("condition");
        QTest::addColumn<qlonglong>("compare");
        QTest::newRow("EQ") << int(HSA_SIGNAL_CONDITION_EQ) << 5LL;
        QTest::newRow("NE") << int(HSA_SIGNAL_CONDITION_NE) << 3LL;
        QTest::newRow("LT") << int(HSA_SIGNAL_CONDITION_LT) << 3LL;
        QTest::newRow("GTE") << int(HSA_SIGNAL_CONDITION_GTE) << 4LL;
    }
    void waitTimesOut() {
        QFETCH(int, condition);
        QFETCH(qlonglong, compare);
        hsa_signal_store_relaxed(sig_, 3);
        const auto cond = static_cast<hsa_signal_condition_t>(condition);
        // timeout_hint is in system-timestamp ticks (ns): 30 ms.
        const uint64_t hint = 30'000'000;
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(hsa_signal_wait_scacquire(sig_, cond, compare, hint, HSA_WAIT_STATE_BLOCKED),
                 hsa_signal_value_t{3});
        QCOMPARE(hsa_signal_wait_relaxed(sig_, cond, compare, hint, HSA_WAIT_STATE_ACTIVE),
                 hsa_signal_value_t{3});
        // A hint, not a guarantee; but it must not be read as seconds or ignored.
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    }

    void waitWokenByOtherThread_data() {
        QTest::addColumn<int>("condition");
        QTest::addColumn<qlonglong>("compare");
        QTest::addColumn<qlonglong>("stored");
        QTest::newRow("EQ") << int(HSA_SIGNAL_CONDITION_EQ) << 0LL << 0LL;
        QTest::newRow("NE") << int(HSA_SIGNAL_CONDITION_NE) << 1LL << 7LL;
        QTest::newRow("LT") << int(HSA_SIGNAL_CONDITION_LT) << 1LL << -3LL;
        QTest::newRow("GTE") << int(HSA_SIGNAL_CONDITION_GTE) << 10LL << 12LL;
    }
    void waitWokenByOtherThread() {
        QFETCH(int, condition);
        QFETCH(qlonglong, compare);
        QFETCH(qlonglong, stored);
        hsa_signal_store_relaxed(sig_, 1);
        std::thread setter([this, stored] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            hsa_signal_store_screlease(sig_, stored);
        });
        const auto cond = static_cast<hsa_signal_condition_t>(condition);
        hsa_signal_value_t seen = 1;
        // The spec allows spurious returns: keep waiting while the condition does not hold.
        for (int i = 0; i < 100; ++i) {
            seen = hsa_signal_wait_scacquire(sig_, cond, compare, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
            if (seen == stored) {
                break;
            }
        }
        setter.join();
        QCOMPARE(seen, hsa_signal_value_t{stored});
    }

    void waitAny() {
        hsa_signal_t sigs[3];
        for (auto& s : sigs) {
            QCOMPARE(hsa_signal_create(1, 0, nullptr, &s), HSA_STATUS_SUCCESS);
        }
        hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                           HSA_SIGNAL_CONDITION_EQ};
        hsa_signal_value_t values[3] = {0, 0, 0};
        std::thread setter([&sigs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            hsa_signal_store_screlease(sigs[2], 0);
        });
        hsa_signal_value_t satisfying = -1;
        const uint32_t index =
            hsa_amd_signal_wait_any(3, sigs, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &satisfying);
        setter.join();
        QCOMPARE(index, 2u);
        QCOMPARE(satisfying, hsa_signal_value_t{0});
        // Already satisfied: returns the first satisfied index immediately.
        hsa_signal_store_relaxed(sigs[1], 0);
        QCOMPARE(
            hsa_amd_signal_wait_any(3, sigs, conds, values, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &satisfying),
            1u);
        // Timeout with nothing satisfied: UINT32_MAX.
        hsa_signal_store_relaxed(sigs[1], 1);
        hsa_signal_store_relaxed(sigs[2], 1);
        QCOMPARE(
            hsa_amd_signal_wait_any(3, sigs, conds, values, 20'000'000, HSA_WAIT_STATE_BLOCKED, &satisfying),
            UINT32_MAX);
        for (auto& s : sigs) {
            hsa_signal_destroy(s);
        }
    }

    void asyncHandler() {
        HandlerLog log;
        hsa_signal_store_relaxed(sig_, 5);
        auto handler = [](hsa_signal_value_t value, void* arg) {
            auto* l = static_cast<HandlerLog*>(arg);
            {
                std::lock_guard lock(l->mutex);
                l->values.push_back(value);
            }
            l->calls.fetch_add(1);
            return false; // one-shot
        };
        QCOMPARE(hsa_amd_signal_async_handler(sig_, HSA_SIGNAL_CONDITION_LT, 3, handler, &log),
                 HSA_STATUS_SUCCESS);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(log.calls.load(), 0);
        hsa_signal_store_screlease(sig_, 2);
        QTRY_COMPARE_WITH_TIMEOUT(log.calls.load(), 1, 3000);
        {
            std::lock_guard lock(log.mutex);
            QCOMPARE(log.values.at(0), hsa_signal_value_t{2});
        }
        // Returning false deregistered the handler.
        hsa_signal_store_screlease(sig_, 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(log.calls.load(), 1);
    }

    void asyncHandlerRearms() {
        struct State {
            std::atomic<int> calls{0};
        } state;
        hsa_signal_store_relaxed(sig_, 0);
        auto handler = [](hsa_signal_value_t, void* arg) {
            // Returning true keeps the handler registered until the third call.
            return static_cast<State*>(arg)->calls.fetch_add(1) + 1 < 3;
        };
        QCOMPARE(hsa_amd_signal_async_handler(sig_, HSA_SIGNAL_CONDITION_NE, 0, handler, &state),
                 HSA_STATUS_SUCCESS);
        for (int i = 1; i <= 3; ++i) {
            hsa_signal_store_screlease(sig_, i);
            QTRY_COMPARE_WITH_TIMEOUT(state.calls.load() >= i, true, 3000);
            hsa_signal_store_screlease(sig_, 0);
        }
        QTRY_COMPARE_WITH_TIMEOUT(state.calls.load(), 3, 3000);
        hsa_signal_store_screlease(sig_, 9);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(state.calls.load(), 3);
    }
};

QTEST_GUILESS_MAIN(SignalsTest)
#include "tst_signals.moc"
