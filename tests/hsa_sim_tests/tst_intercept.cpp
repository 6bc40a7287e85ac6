// SPDX-License-Identifier: MIT
/*
 * Intercept queues with ROCr 5.2.3 semantics, reached through the API table a test tool (table_tool)
 * saved: the handler runs once per valid packet (pkt_count 1, consecutive user_pkt_index) on the thread
 * that stored the proxy doorbell; the writer submits to the hardware queue at once (the packet completes
 * while the handler is still running); handlers may rewrite or drop packets; a doorbell store made inside
 * a handler is handled on another thread, not recursively. In child processes: a second writer call in one
 * invocation aborts with a message naming the writer, unless HSA_SIM_INTERCEPT_SEMANTICS=6.
 */
#include "child_process.h"
#include "sim_test_util.h"

#include <hsa_api_trace.h>

#include <QTest>

#include <dlfcn.h>
#include <mutex>

using namespace rs_test;

namespace {

enum class Action { Forward, ForwardAndWait, Rewrite, Drop, Resubmit };

struct Call {
    uint64_t pkt_count;
    uint64_t user_pkt_index;
    std::thread::id thread;
    int depth;
    bool completed_inside;
};

struct Interceptor {
    Action action = Action::Forward;
    hsa_queue_t* proxy = nullptr;
    hsa_signal_t replacement{0};
    hsa_signal_t resubmit_done{0};
    std::mutex mutex;
    std::vector<Call> calls;
    std::atomic<int> depth{0};
    std::atomic<bool> resubmitted{false};
};

void handler(const void* pkts, uint64_t pkt_count, uint64_t user_pkt_index, void* data,
             hsa_amd_queue_intercept_packet_writer writer) {
    auto* ic = static_cast<Interceptor*>(data);
    const int depth = ic->depth.fetch_add(1) + 1;
    Call call{pkt_count, user_pkt_index, std::this_thread::get_id(), depth, false};
    hsa_barrier_and_packet_t packet;
    std::memcpy(&packet, pkts, sizeof(packet));
    switch (ic->action) {
    case Action::Forward:
        writer(pkts, pkt_count);
        break;
    case Action::ForwardAndWait:
        writer(pkts, pkt_count);
        call.completed_inside = wait_below_one(packet.completion_signal, 3000) == 0;
        break;
    case Action::Rewrite:
        packet.completion_signal = ic->replacement;
        writer(&packet, 1);
        break;
    case Action::Drop:
        break;
    case Action::Resubmit:
        writer(pkts, pkt_count);
        if (!ic->resubmitted.exchange(true)) {
            // Submit another packet to the same proxy queue from inside the handler.
            submit_barrier(ic->proxy, HSA_PACKET_TYPE_BARRIER_AND, {}, ic->resubmit_done);
        }
        break;
    }
    ic->depth.fetch_sub(1);
    std::lock_guard lock(ic->mutex);
    ic->calls.push_back(call);
}

} // namespace

class InterceptTest : public QObject {
    Q_OBJECT

    const AmdExtTable* amd_ = nullptr;
    hsa_agent_t gpu_{0};
    hsa_queue_t* proxy_ = nullptr;
    Interceptor ic_;

    std::vector<Call> calls() {
        std::lock_guard lock(ic_.mutex);
        return ic_.calls;
    }

  private Q_SLOTS:
    void initTestCase() {
        qputenv("HSA_TOOLS_LIB", RS_TABLE_TOOL);
        QCOMPARE(hsa_init(), HSA_STATUS_SUCCESS);
        void* tool = dlopen(RS_TABLE_TOOL, RTLD_LAZY | RTLD_NOLOAD);
        QVERIFY2(tool, "HSA_TOOLS_LIB tool was not loaded by hsa_init");
        QVERIFY(*static_cast<int*>(dlsym(tool, "rs_table_tool_loaded")) == 1);
        amd_ = static_cast<const AmdExtTable*>(dlsym(tool, "rs_saved_amd_ext"));
        QVERIFY(amd_ && amd_->hsa_amd_queue_intercept_create_fn && amd_->hsa_amd_queue_intercept_register_fn);
        gpu_ = list_agents().gpus.at(0);
    }
    void cleanupTestCase() { QCOMPARE(hsa_shut_down(), HSA_STATUS_SUCCESS); }

    void init() {
        QCOMPARE(amd_->hsa_amd_queue_intercept_create_fn(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr,
                                                         UINT32_MAX, UINT32_MAX, &proxy_),
                 HSA_STATUS_SUCCESS);
        QVERIFY(proxy_ && proxy_->base_address && proxy_->doorbell_signal.handle);
        QCOMPARE(proxy_->size, 64u);
        {
            std::lock_guard lock(ic_.mutex);
            ic_.calls.clear();
        }
        ic_.action = Action::Forward;
        ic_.proxy = proxy_;
        ic_.resubmitted = false;
        QCOMPARE(amd_->hsa_amd_queue_intercept_register_fn(proxy_, handler, &ic_), HSA_STATUS_SUCCESS);
    }
    void cleanup() {
        QCOMPARE(hsa_queue_destroy(proxy_), HSA_STATUS_SUCCESS);
        proxy_ = nullptr;
    }

    /// ROCr 5.2.3 hsa_amd_queue_intercept_create takes its lower queue from hsa_queue_create, so a
    /// COOPERATIVE proxy sits on the agent's one shared cooperative queue: same id, type and size as the
    /// plain cooperative queue; CU mask and priority set on the proxy act on that lower queue; packets
    /// forwarded by the handler run there; the proxy's destruction leaves the plain queue working.
    void cooperativeProxyWrapsTheSharedQueue() {
        hsa_queue_t* plain = nullptr;
        QCOMPARE(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_COOPERATIVE, nullptr, nullptr, UINT32_MAX,
                                  UINT32_MAX, &plain),
                 HSA_STATUS_SUCCESS);
        hsa_queue_t* coop = nullptr;
        QCOMPARE(amd_->hsa_amd_queue_intercept_create_fn(gpu_, 1024, HSA_QUEUE_TYPE_COOPERATIVE, nullptr,
                                                         nullptr, UINT32_MAX, UINT32_MAX, &coop),
                 HSA_STATUS_SUCCESS);
        QVERIFY(coop != plain);
        QCOMPARE(coop->id, plain->id);
        QCOMPARE(coop->type, uint32_t{HSA_QUEUE_TYPE_COOPERATIVE});
        QCOMPARE(coop->size, plain->size);
        const uint32_t mask[1] = {0x5};
        QCOMPARE(hsa_amd_queue_cu_set_mask(coop, 32, mask), HSA_STATUS_SUCCESS);
        uint32_t seen[1] = {0};
        QCOMPARE(hsa_amd_queue_cu_get_mask(plain, 32, seen), HSA_STATUS_SUCCESS);
        QCOMPARE(seen[0], 0x5u);
        Interceptor ic;
        ic.action = Action::Forward;
        ic.proxy = coop;
        QCOMPARE(amd_->hsa_amd_queue_intercept_register_fn(coop, handler, &ic), HSA_STATUS_SUCCESS);
        hsa_signal_t done[2];
        for (auto& d : done) {
            hsa_signal_create(1, 0, nullptr, &d);
        }
        submit_barrier(coop, HSA_PACKET_TYPE_BARRIER_AND, {}, done[0]);
        submit_barrier(plain, HSA_PACKET_TYPE_BARRIER_AND, {}, done[1]);
        QCOMPARE(wait_below_one(done[0], 3000), hsa_signal_value_t{0});
        QCOMPARE(wait_below_one(done[1], 3000), hsa_signal_value_t{0});
        // Both producers wrote the one lower ring.
        QTRY_COMPARE_WITH_TIMEOUT(hsa_queue_load_read_index_scacquire(plain), uint64_t{2}, 2000);
        QCOMPARE(hsa_queue_destroy(coop), HSA_STATUS_SUCCESS);
        hsa_signal_store_screlease(done[1], 1);
        submit_barrier(plain, HSA_PACKET_TYPE_BARRIER_AND, {}, done[1]);
        QCOMPARE(wait_below_one(done[1], 3000), hsa_signal_value_t{0});
        for (auto& d : done) {
            hsa_signal_destroy(d);
        }
        QCOMPARE(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
    }

    void handlerOncePerPacketOnStoringThread() {
        ic_.action = Action::ForwardAndWait;
        hsa_signal_t done[3];
        for (auto& s : done) {
            hsa_signal_create(1, 0, nullptr, &s);
        }
        // Three packets made valid, then one doorbell store for all of them.
        uint64_t last = 0;
        for (auto& s : done) {
            last = reserve_slot(proxy_);
            fill_barrier(proxy_, last, {}, s);
            publish(proxy_, last, packet_header(HSA_PACKET_TYPE_BARRIER_AND, false), 0, false);
        }
        hsa_signal_store_screlease(proxy_->doorbell_signal, static_cast<hsa_signal_value_t>(last));
        // The handler ran synchronously inside the doorbell store.
        const std::vector<Call> seen = calls();
        QCOMPARE(seen.size(), size_t{3});
        for (uint64_t i = 0; i < 3; ++i) {
            QCOMPARE(seen[i].pkt_count, uint64_t{1});
            QCOMPARE(seen[i].user_pkt_index, i);
            QVERIFY(seen[i].thread == std::this_thread::get_id());
            QCOMPARE(seen[i].depth, 1);
            QVERIFY2(seen[i].completed_inside, "writer did not submit and ring the hardware queue at once");
        }
        for (auto& s : done) {
            QCOMPARE(hsa_signal_load_scacquire(s), hsa_signal_value_t{0});
            hsa_signal_destroy(s);
        }
        // Indices keep counting across doorbell stores.
        hsa_signal_t more;
        hsa_signal_create(1, 0, nullptr, &more);
        submit_barrier(proxy_, HSA_PACKET_TYPE_BARRIER_AND, {}, more);
        QCOMPARE(wait_below_one(more, 3000), hsa_signal_value_t{0});
        QCOMPARE(calls().size(), size_t{4});
        QCOMPARE(calls()[3].user_pkt_index, uint64_t{3});
        hsa_signal_destroy(more);
    }

    void handlerRewritesPackets() {
        ic_.action = Action::Rewrite;
        hsa_signal_t original, replacement;
        hsa_signal_create(1, 0, nullptr, &original);
        hsa_signal_create(1, 0, nullptr, &replacement);
        ic_.replacement = replacement;
        submit_barrier(proxy_, HSA_PACKET_TYPE_BARRIER_AND, {}, original);
        QCOMPARE(wait_below_one(replacement, 3000), hsa_signal_value_t{0});
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        QCOMPARE(hsa_signal_load_scacquire(original), hsa_signal_value_t{1});
        hsa_signal_destroy(original);
        hsa_signal_destroy(replacement);
    }

    void handlerDropsPackets() {
        ic_.action = Action::Drop;
        hsa_signal_t done;
        hsa_signal_create(1, 0, nullptr, &done);
        submit_barrier(proxy_, HSA_PACKET_TYPE_BARRIER_AND, {}, done);
        QCOMPARE(calls().size(), size_t{1});
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QCOMPARE(hsa_signal_load_scacquire(done), hsa_signal_value_t{1});
        hsa_signal_destroy(done);
    }

    void doorbellFromHandlerIsDeferred() {
        ic_.action = Action::Resubmit;
        hsa_signal_t first, second;
        hsa_signal_create(1, 0, nullptr, &first);
        hsa_signal_create(1, 0, nullptr, &second);
        ic_.resubmit_done = second;
        submit_barrier(proxy_, HSA_PACKET_TYPE_BARRIER_AND, {}, first);
        QCOMPARE(wait_below_one(first, 3000), hsa_signal_value_t{0});
        QCOMPARE(wait_below_one(second, 3000), hsa_signal_value_t{0});
        QTRY_COMPARE_WITH_TIMEOUT(calls().size(), size_t{2}, 3000);
        const std::vector<Call> seen = calls();
        QCOMPARE(seen[0].user_pkt_index, uint64_t{0});
        QVERIFY(seen[0].thread == std::this_thread::get_id());
        QCOMPARE(seen[1].user_pkt_index, uint64_t{1});
        QVERIFY2(seen[1].thread != std::this_thread::get_id(),
                 "nested doorbell handled on the storing thread");
        QCOMPARE(seen[0].depth, 1);
        QCOMPARE(seen[1].depth, 1);
        hsa_signal_destroy(first);
        hsa_signal_destroy(second);
    }

    /// ROCr 5.2.3 rule (docs/rocm-behaviour.md#intercept-queues-in-rocr-523): a second writer call in one
    /// invocation aborts. Default on 5.2.3 headers; on 6.1 headers (several calls allowed by default) forced
    /// with HSA_SIM_INTERCEPT_SEMANTICS=5.
    void secondWriterCallAborts() {
#if HSA_API_TABLE_MAJOR_VERSION >= 3
        const ChildResult r =
            run_child(RS_SIM_CHILD_PATH, {"intercept-writer", RS_TABLE_TOOL},
                      {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}, {"HSA_SIM_INTERCEPT_SEMANTICS", "5"}});
#else
        const ChildResult r = run_child(RS_SIM_CHILD_PATH, {"intercept-writer", RS_TABLE_TOOL},
                                        {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}});
#endif
        QVERIFY2(r.finished, qPrintable(r.describe()));
        QVERIFY2(r.out.contains("submitting"), qPrintable(r.describe()));
        QVERIFY2(r.status == QProcess::CrashExit, qPrintable(r.describe()));
        QVERIFY2(r.err.contains("writer"), qPrintable(r.describe()));
        QVERIFY2(!r.out.contains("completion"), qPrintable(r.describe()));
    }

    void semantics6AllowsSeveralWriterCalls() {
        // The handler forwards the packet twice; its completion signal starts at 2 and reaches 0.
        const ChildResult r =
            run_child(RS_SIM_CHILD_PATH, {"intercept-writer", RS_TABLE_TOOL},
                      {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}, {"HSA_SIM_INTERCEPT_SEMANTICS", "6"}});
        QVERIFY2(r.finished && r.status == QProcess::NormalExit && r.exit_code == 0,
                 qPrintable(r.describe()));
        QCOMPARE(r.value("completion"), QString("0"));
    }

    /// ROCr 6.0+ rule: on 6.1 headers several writer calls per invocation are the default; on 5.2.3
    /// headers the default is the abort above (secondWriterCallAborts).
    void defaultWriterSemanticsFollowHeaders() {
        const ChildResult r = run_child(RS_SIM_CHILD_PATH, {"intercept-writer", RS_TABLE_TOOL},
                                        {{"HSA_TOOLS_LIB", RS_TABLE_TOOL}});
        QVERIFY2(r.finished, qPrintable(r.describe()));
#if HSA_API_TABLE_MAJOR_VERSION >= 3
        QVERIFY2(r.status == QProcess::NormalExit && r.exit_code == 0, qPrintable(r.describe()));
        QCOMPARE(r.value("completion"), QString("0"));
#else
        QVERIFY2(r.status == QProcess::CrashExit && r.err.contains("writer"), qPrintable(r.describe()));
#endif
    }
};

QTEST_GUILESS_MAIN(InterceptTest)
#include "tst_intercept.moc"
