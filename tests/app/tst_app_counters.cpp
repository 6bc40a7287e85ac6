// SPDX-License-Identifier: MIT
// The hardware-counter section of `replayscope --summary` (model/CounterSummary): counter values written
// through the collector's SessionStore (format 7) are read back per kernel and counter, with the number of
// dispatches and the minimum, median and maximum computed here from the values written.
#include "model/CounterSummary.h"
#include "model/SessionLoader.h"
#include "model/TerminalSummary.h"

#include "replayscope/ipc/session_store.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace rs::app;
using namespace rs::ipc;

namespace {

/// Writes string, dispatch and counter_value records into a new session at `path`.
class Writer {
  public:
    explicit Writer(const std::string& path) {
        std::string error;
        store_ = SessionStore::open(path, SessionStore::Mode::create, error);
        QVERIFY2(store_, error.c_str());
    }
    StringId string(const std::string& text) {
        Record& r = next(EventType::string);
        r.string.id = ++strings_;
        r.string.original_length = std::uint32_t(text.size());
        r.string.length = std::uint16_t(text.size());
        std::memcpy(r.string.text, text.data(), text.size());
        insert(r);
        return r.string.id;
    }
    void dispatch(std::uint64_t id, StringId kernel) {
        Record& r = next(EventType::dispatch);
        r.dispatch = {id, 0xa1, 0x9a, 0xdead, kernel, {64, 1, 1}, {64, 1, 1}, DispatchDecision::replayed};
        insert(r);
    }
    void counter(std::uint64_t dispatch, std::uint32_t pass, std::uint32_t id, std::uint64_t value) {
        Record& r = next(EventType::counter_value);
        r.counter_value = {dispatch, value, pass, id};
        insert(r);
    }
    bool finish() { return store_->finish("test"); }

  private:
    Record& next(EventType type) {
        std::memset(&record_, 0, sizeof record_);
        record_.type = type;
        record_.sequence = ++sequence_;
        record_.timestamp_ns = 1000 * sequence_;
        return record_;
    }
    void insert(const Record& r) { QVERIFY2(store_->insert(r), store_->last_error().c_str()); }
    std::unique_ptr<SessionStore> store_;
    Record record_{};
    std::uint64_t sequence_ = 0;
    StringId strings_ = 0;
};

// Catalogue ids (counters/catalogue.h, append-only): SQ_WAVES 0, SQ_INSTS_VALU 1, GRBM_COUNT 22.
constexpr std::uint32_t kSqWaves = 0, kSqInstsValu = 1, kGrbmCount = 22;

} // namespace

class TstAppCounters : public QObject {
    Q_OBJECT
  private slots:
    void perKernelMinMedianMax() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/counters.rsdb").toStdString();
        {
            Writer w(path);
            const StringId scale = w.string("_Z5scalePf.kd"), reduce = w.string("_Z6reducePKfPf.kd");
            // scale: four dispatches, SQ_WAVES in pass 0 and SQ_INSTS_VALU in pass 1 of each.
            const std::uint64_t waves[] = {16, 4, 64, 8}, valu[] = {160, 40, 640, 81};
            for (std::uint64_t d = 1; d <= 4; ++d) {
                w.dispatch(d, scale);
                w.counter(d, 0, kSqWaves, waves[d - 1]);
                w.counter(d, 1, kSqInstsValu, valu[d - 1]);
            }
            // reduce: three dispatches, GRBM_COUNT.
            const std::uint64_t cycles[] = {900, 300, 600};
            for (std::uint64_t d = 5; d <= 7; ++d) {
                w.dispatch(d, reduce);
                w.counter(d, 0, kGrbmCount, cycles[d - 5]);
            }
            QVERIFY(w.finish());
        }
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(QString::fromStdString(path), error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        QCOMPARE(s->counterValues.size(), std::size_t{11});
        const QString text = CounterSummary::text(s);
        // Sorted: waves 4 8 16 64 -> median (8 + 16) / 2 = 12; valu 40 81 160 640 -> (81 + 160) / 2 = 120.5;
        // cycles 300 600 900 -> 600.
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY2(lines[0].startsWith("counters (per kernel"), qPrintable(text));
        // Kernels by name, counters by name within each.
        QCOMPARE(lines[1], QString("  _Z5scalePf"));
        QCOMPARE(lines[2].simplified(), QString("SQ_INSTS_VALU 4 dispatches 40 / 120.5 / 640 instructions"));
        QCOMPARE(lines[3].simplified(), QString("SQ_WAVES 4 dispatches 4 / 12 / 64 waves"));
        QCOMPARE(lines[4], QString("  _Z6reducePKfPf"));
        QCOMPARE(lines[5].simplified(), QString("GRBM_COUNT 3 dispatches 300 / 600 / 900 cycles"));
        QVERIFY(TerminalSummary::text(s).contains(text));
    }

    /// A session without counter values prints no counter section.
    void noCountersNoSection() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/none.rsdb").toStdString();
        {
            Writer w(path);
            w.dispatch(1, w.string("_Z5scalePf.kd"));
            QVERIFY(w.finish());
        }
        SessionError error;
        const SessionSnapshot s = SessionLoader::loadAll(QString::fromStdString(path), error);
        QVERIFY2(!error.isError(), qPrintable(error.message));
        QVERIFY(CounterSummary::text(s).isEmpty());
        QVERIFY(!TerminalSummary::text(s).contains("counters ("));
    }
};

QTEST_GUILESS_MAIN(TstAppCounters)
#include "tst_app_counters.moc"
