// SPDX-License-Identifier: MIT
#include "model/SessionComparison.h"

#include "model/CounterSummary.h"
#include "model/Format.h"
#include "model/SessionLoader.h"
#include "model/SimulatedRuntime.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <utility>

namespace rs::app {

const QString SessionComparison::kDispatches = QStringLiteral("dispatches");
const QString SessionComparison::kReplayed = QStringLiteral("replayed");
const QString SessionComparison::kPasses = QStringLiteral("passes");
const QString SessionComparison::kPassesPerReplayed = QStringLiteral("passes per replayed");
const QString SessionComparison::kSnapshotBytes = QStringLiteral("snapshot bytes");
const QString SessionComparison::kMovedHost = QStringLiteral("restored (host link)");
const QString SessionComparison::kMovedDevice = QStringLiteral("restored (device)");
const QString SessionComparison::kSnapshotTime = QStringLiteral("snapshot time");
const QString SessionComparison::kRestoreTime = QStringLiteral("restore time");
const QString SessionComparison::kKernelMedian = QStringLiteral("kernel time median");
const QString SessionComparison::kKernelSpread = QStringLiteral("kernel time spread");
const QString SessionComparison::kMismatches = QStringLiteral("fidelity mismatches");

namespace {

double median(std::vector<double>& v) {
    if (v.empty()) {
        return -1;
    }
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1) {
        return *mid;
    }
    const double upper = *mid;
    const double lower = *std::max_element(v.begin(), mid);
    return (lower + upper) / 2;
}

} // namespace

QMap<QString, KernelFigures> KernelFigures::of(const SessionSnapshot& snapshot) {
    QMap<QString, KernelFigures> out;
    if (snapshot.isNull()) {
        return out;
    }
    const SessionData& s = snapshot.data();
    // Per kernel index first (cheap), then by name (two indices may share a name across processes).
    std::vector<KernelFigures> byIndex(std::size_t(s.kernelNames.size()) + 1);
    std::vector<std::vector<double>> medians(byIndex.size()), spreads(byIndex.size());
    QHash<int, QString> declineNames;
    for (std::size_t row = 0; row < s.dispatches.size(); ++row) {
        const DispatchRow& d = s.dispatches[row];
        const std::size_t k =
            d.kernel >= 0 && d.kernel < s.kernelNames.size() ? std::size_t(d.kernel) : byIndex.size() - 1;
        KernelFigures& f = byIndex[k];
        ++f.dispatches;
        if (d.replayed()) {
            ++f.replayed;
            f.passes += d.passes;
        } else {
            auto name = declineNames.constFind(d.decision);
            if (name == declineNames.cend()) {
                name = declineNames.insert(d.decision,
                                           snapshot.enumName(QStringLiteral("decision"), d.decision));
            }
            ++f.declined[*name];
        }
        f.snapshotBytes += d.snapshotBytes;
        if (d.restores > 0 && d.movedHost >= 0) {
            f.movedHost = std::max<qint64>(f.movedHost, 0) + d.movedHost;
            f.movedDevice = std::max<qint64>(f.movedDevice, 0) + std::max<qint64>(d.movedDevice, 0);
        } else if (s.hasRestoreRecords && f.movedHost < 0) {
            f.movedHost = 0; // recorded: this dispatch moved nothing
            f.movedDevice = 0;
        }
        f.snapshotNs += d.snapshotNs;
        f.restoreNs += d.restoreNs;
        if (d.kernelMedian >= 0) {
            const double medianNs = double(d.kernelMedian) * SessionComparison::kNsPerTick;
            medians[k].push_back(medianNs);
            ++f.timedDispatches;
            f.dispatchMedianMinNs =
                f.dispatchMedianMinNs < 0 ? medianNs : std::min(f.dispatchMedianMinNs, medianNs);
            f.dispatchMedianMaxNs = std::max(f.dispatchMedianMaxNs, medianNs);
            if (d.kernelMin > 0 && d.kernelMax >= d.kernelMin) {
                const double spread = double(d.kernelMax) / double(d.kernelMin) - 1.0;
                spreads[k].push_back(spread);
                f.kernelSpreadMax = std::max(f.kernelSpreadMax, spread);
            }
        }
        if (row + 1 < s.mismatchBegin.size()) {
            f.mismatches += s.mismatchBegin[row + 1] - s.mismatchBegin[row];
        }
        if (row + 1 < s.passBegin.size()) {
            for (int i = s.passBegin[row]; i < s.passBegin[row + 1]; ++i) {
                f.fidelityCheckedPasses += s.passes[std::size_t(i)].fidelityChecked() ? 1 : 0;
            }
        }
    }
    QSet<QString> sharedNames;
    for (std::size_t k = 0; k < byIndex.size(); ++k) {
        if (byIndex[k].dispatches == 0) {
            continue;
        }
        byIndex[k].kernelMedianNs = median(medians[k]);
        byIndex[k].kernelSpread = median(spreads[k]);
        const QString name = k < std::size_t(s.kernelNames.size()) ? s.kernelNames[int(k)]
                                                                   : QStringLiteral("(unknown kernel)");
        auto it = out.find(name);
        if (it == out.end()) {
            out.insert(name, byIndex[k]);
            continue;
        }
        // The same name under two indices (several processes or ranks): counts add up; the medians are
        // taken again over the samples of every index (below).
        KernelFigures& a = *it;
        const KernelFigures& b = byIndex[k];
        sharedNames.insert(name);
        a.dispatches += b.dispatches;
        a.replayed += b.replayed;
        a.passes += b.passes;
        for (auto r = b.declined.cbegin(); r != b.declined.cend(); ++r) {
            a.declined[r.key()] += r.value();
        }
        a.snapshotBytes += b.snapshotBytes;
        if (b.movedHost >= 0) {
            a.movedHost = std::max<qint64>(a.movedHost, 0) + b.movedHost;
            a.movedDevice = std::max<qint64>(a.movedDevice, 0) + b.movedDevice;
        }
        a.snapshotNs += b.snapshotNs;
        a.restoreNs += b.restoreNs;
        a.mismatches += b.mismatches;
        a.fidelityCheckedPasses += b.fidelityCheckedPasses;
        a.kernelSpreadMax = std::max(a.kernelSpreadMax, b.kernelSpreadMax);
        a.timedDispatches += b.timedDispatches;
        if (b.dispatchMedianMinNs >= 0) {
            a.dispatchMedianMinNs = a.dispatchMedianMinNs < 0
                                        ? b.dispatchMedianMinNs
                                        : std::min(a.dispatchMedianMinNs, b.dispatchMedianMinNs);
        }
        a.dispatchMedianMaxNs = std::max(a.dispatchMedianMaxNs, b.dispatchMedianMaxNs);
    }
    for (const QString& name : std::as_const(sharedNames)) {
        std::vector<double> m, sp;
        for (std::size_t k = 0; k < byIndex.size(); ++k) {
            const QString n = k < std::size_t(s.kernelNames.size()) ? s.kernelNames[int(k)]
                                                                    : QStringLiteral("(unknown kernel)");
            if (n == name) {
                m.insert(m.end(), medians[k].begin(), medians[k].end());
                sp.insert(sp.end(), spreads[k].begin(), spreads[k].end());
            }
        }
        out[name].kernelMedianNs = median(m);
        out[name].kernelSpread = median(sp);
    }
    return out;
}

double SessionComparison::Metric::percent() const {
    if (!comparable()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (base == 0) {
        return now == 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    }
    return (now - base) / std::abs(base) * 100.0;
}

bool SessionComparison::Metric::outsideBand() const {
    if (!comparable() || now == base) {
        return false;
    }
    if (noiseBand < 0 || base <= 0 || now <= 0) {
        return true;
    }
    const double ratio = now / base;
    return ratio > 1.0 + noiseBand || ratio < 1.0 / (1.0 + noiseBand);
}

bool SessionComparison::Metric::changed() const {
    return comparable() && now != base && !simulatedTime && outsideBand();
}

SessionComparison::Verdict SessionComparison::Metric::verdict() const {
    if (!comparable()) {
        return Verdict::notRecorded;
    }
    if (simulatedTime) {
        return Verdict::simulated;
    }
    if (now == base) {
        return Verdict::same;
    }
    if (unit != Unit::kernelNs) {
        return Verdict::changed;
    }
    if (!outsideBand()) {
        return Verdict::withinNoise;
    }
    return now > base ? Verdict::slower : Verdict::faster;
}

double SessionComparison::Counter::ratio() const {
    return baseMedian == 0 ? std::numeric_limits<double>::quiet_NaN() : newMedian / baseMedian;
}

bool SessionComparison::Kernel::changed() const {
    if (side != Side::both) {
        return true;
    }
    return std::any_of(metrics.begin(), metrics.end(), [](const Metric& m) { return m.changed(); });
}

const SessionComparison::Metric* SessionComparison::Kernel::metric(const QString& metricName) const {
    for (const Metric& m : metrics) {
        if (m.name == metricName) {
            return &m;
        }
    }
    return nullptr;
}

QString SessionComparison::declinedMetric(const QString& reason) {
    return QStringLiteral("declined: ") + reason;
}

QString SessionComparison::counterMetric(const QString& counter) {
    return QStringLiteral("counter: ") + counter;
}

namespace {

using Metric = SessionComparison::Metric;
using Unit = SessionComparison::Unit;

/// The noise band of a kernel's time from both sides' figures: the widest pass-to-pass spread of one
/// dispatch in either session; without one (single passes), the spread of the dispatches' median times
/// (largest / smallest - 1) of a side with two or more timed dispatches.
void setNoiseBand(Metric& m, const KernelFigures& b, const KernelFigures& n) {
    const double passes = std::max(b.kernelSpreadMax, n.kernelSpreadMax);
    if (passes >= 0) {
        m.noiseBand = passes;
        m.bandBasis = SessionComparison::BandBasis::passSpread;
        return;
    }
    double dispatches = -1;
    for (const KernelFigures* f : {&b, &n}) {
        if (f->timedDispatches >= 2 && f->dispatchMedianMinNs > 0) {
            dispatches = std::max(dispatches, f->dispatchMedianMaxNs / f->dispatchMedianMinNs - 1.0);
        }
    }
    if (dispatches >= 0) {
        m.noiseBand = dispatches;
        m.bandBasis = SessionComparison::BandBasis::dispatchSpread;
    }
}

std::vector<Metric> metricsOf(const KernelFigures* b, const KernelFigures* n, bool simulated) {
    std::vector<Metric> out;
    auto add = [&](const QString& name, Unit unit, auto get, auto recorded) {
        Metric m;
        m.name = name;
        m.unit = unit;
        if (b && recorded(*b)) {
            m.baseRecorded = true;
            m.base = double(get(*b));
        }
        if (n && recorded(*n)) {
            m.newRecorded = true;
            m.now = double(get(*n));
        }
        out.push_back(m);
    };
    const auto always = [](const KernelFigures&) { return true; };
    add(
        SessionComparison::kDispatches, Unit::count, [](const KernelFigures& f) { return f.dispatches; },
        always);
    add(SessionComparison::kReplayed, Unit::count, [](const KernelFigures& f) { return f.replayed; }, always);
    add(SessionComparison::kPasses, Unit::count, [](const KernelFigures& f) { return f.passes; }, always);
    add(
        SessionComparison::kPassesPerReplayed, Unit::count,
        [](const KernelFigures& f) { return double(f.passes) / double(f.replayed); },
        [](const KernelFigures& f) { return f.replayed > 0; });
    QStringList reasons;
    for (const KernelFigures* f : {b, n}) {
        if (f) {
            for (auto it = f->declined.cbegin(); it != f->declined.cend(); ++it) {
                if (!reasons.contains(it.key())) {
                    reasons << it.key();
                }
            }
        }
    }
    reasons.sort();
    for (const QString& reason : reasons) {
        add(
            SessionComparison::declinedMetric(reason), Unit::count,
            [reason](const KernelFigures& f) { return f.declined.value(reason); }, always);
    }
    add(
        SessionComparison::kSnapshotBytes, Unit::bytes,
        [](const KernelFigures& f) { return f.snapshotBytes; }, always);
    add(
        SessionComparison::kMovedHost, Unit::bytes, [](const KernelFigures& f) { return f.movedHost; },
        [](const KernelFigures& f) { return f.movedHost >= 0; });
    add(
        SessionComparison::kMovedDevice, Unit::bytes, [](const KernelFigures& f) { return f.movedDevice; },
        [](const KernelFigures& f) { return f.movedDevice >= 0; });
    add(
        SessionComparison::kSnapshotTime, Unit::ns, [](const KernelFigures& f) { return f.snapshotNs; },
        always);
    add(
        SessionComparison::kRestoreTime, Unit::ns, [](const KernelFigures& f) { return f.restoreNs; },
        always);
    add(
        SessionComparison::kKernelMedian, Unit::kernelNs,
        [](const KernelFigures& f) { return f.kernelMedianNs; },
        [](const KernelFigures& f) { return f.kernelMedianNs >= 0; });
    add(
        SessionComparison::kKernelSpread, Unit::ratio, [](const KernelFigures& f) { return f.kernelSpread; },
        [](const KernelFigures& f) { return f.kernelSpread >= 0; });
    add(
        SessionComparison::kMismatches, Unit::count, [](const KernelFigures& f) { return f.mismatches; },
        [](const KernelFigures& f) { return f.fidelityCheckedPasses > 0; });
    for (Metric& m : out) {
        if (m.name == SessionComparison::kKernelMedian || m.name == SessionComparison::kKernelSpread) {
            m.simulatedTime = simulated;
        }
        if (m.name == SessionComparison::kKernelMedian && b && n) {
            setNoiseBand(m, *b, *n);
        }
    }
    return out;
}

/// Per kernel and counter collected in both sessions, the medians of both; counts the pairs of one side.
std::vector<SessionComparison::Counter> countersOf(const SessionSnapshot& base, const SessionSnapshot& now,
                                                   int& oneSided) {
    using Stat = CounterSummary::Stat;
    QMap<QPair<QString, QString>, Stat> b, n;
    // Collected counters only: derived metrics are computed from them.
    for (const Stat& st : CounterSummary::stats(base, CounterSummary::Grouping::kernel)) {
        if (!st.derived) {
            b.insert({st.kernel, st.counter}, st);
        }
    }
    for (const Stat& st : CounterSummary::stats(now, CounterSummary::Grouping::kernel)) {
        if (!st.derived) {
            n.insert({st.kernel, st.counter}, st);
        }
    }
    std::vector<SessionComparison::Counter> out;
    oneSided = 0;
    for (auto it = b.cbegin(); it != b.cend(); ++it) {
        const auto other = n.constFind(it.key());
        if (other == n.cend()) {
            ++oneSided;
            continue;
        }
        SessionComparison::Counter c;
        c.kernel = it.key().first.isEmpty() ? QStringLiteral("(unknown kernel)") : it.key().first;
        c.counter = it->counter;
        c.unit = it->unit;
        c.baseDispatches = it->dispatches;
        c.newDispatches = other->dispatches;
        c.baseMedian = it->median();
        c.newMedian = other->median();
        c.baseMedianText = it->medianText();
        c.newMedianText = other->medianText();
        c.baseMin = it->min;
        c.baseMax = it->max;
        c.newMin = other->min;
        c.newMax = other->max;
        out.push_back(std::move(c));
    }
    for (auto it = n.cbegin(); it != n.cend(); ++it) {
        oneSided += b.contains(it.key()) ? 0 : 1;
    }
    return out;
}

} // namespace

SessionComparison SessionComparison::compare(const SessionSnapshot& base, const SessionSnapshot& now) {
    SessionComparison c;
    if (!base.isNull()) {
        c.base_path_ = base->info.path;
        c.base_format_ = base->info.formatVersion;
    }
    if (!now.isNull()) {
        c.new_path_ = now->info.path;
        c.new_format_ = now->info.formatVersion;
    }
    c.base_simulated_ = SimulatedRuntime::processes(base);
    c.new_simulated_ = SimulatedRuntime::processes(now);
    const bool simulated = c.simulated();
    const QMap<QString, KernelFigures> b = KernelFigures::of(base);
    const QMap<QString, KernelFigures> n = KernelFigures::of(now);
    c.counters_ = countersOf(base, now, c.one_sided_counters_);
    std::vector<Kernel> baseOnly, newOnly;
    for (auto it = b.cbegin(); it != b.cend(); ++it) {
        const auto other = n.constFind(it.key());
        Kernel k;
        k.name = it.key();
        if (other == n.cend()) {
            k.side = Side::baseOnly;
            k.metrics = metricsOf(&*it, nullptr, simulated);
            baseOnly.push_back(std::move(k));
        } else {
            k.metrics = metricsOf(&*it, &*other, simulated);
            c.kernels_.push_back(std::move(k));
        }
    }
    for (auto it = n.cbegin(); it != n.cend(); ++it) {
        if (!b.contains(it.key())) {
            Kernel k;
            k.name = it.key();
            k.side = Side::newOnly;
            k.metrics = metricsOf(nullptr, &*it, simulated);
            newOnly.push_back(std::move(k));
        }
    }
    for (auto* part : {&baseOnly, &newOnly}) {
        std::move(part->begin(), part->end(), std::back_inserter(c.kernels_));
    }
    return c;
}

SessionComparison SessionComparison::compareFiles(const QString& base, const QString& now,
                                                  SessionError& error) {
    // The two files load at once, each on a thread with its own loader (a connection per thread).
    SessionError nowError;
    auto later = std::async(std::launch::async, [&] {
        return SessionLoader::loadAll(now, nowError, SessionLoader::Parts::withoutRegions);
    });
    const SessionSnapshot b = SessionLoader::loadAll(base, error, SessionLoader::Parts::withoutRegions);
    const SessionSnapshot n = later.get();
    if (error.isError()) {
        return {};
    }
    if (nowError.isError()) {
        error = nowError;
        return {};
    }
    return compare(b, n);
}

int SessionComparison::count(Side side) const {
    return int(
        std::count_if(kernels_.begin(), kernels_.end(), [side](const Kernel& k) { return k.side == side; }));
}

int SessionComparison::changedKernels() const {
    return int(std::count_if(kernels_.begin(), kernels_.end(), [](const Kernel& k) { return k.changed(); }));
}

QString SessionComparison::valueText(Unit unit, double value, bool recorded) {
    if (!recorded) {
        return format::kNotRecorded;
    }
    switch (unit) {
    case Unit::count:
        return value == std::floor(value) ? format::count(qint64(value)) : QString::number(value, 'f', 2);
    case Unit::bytes:
        return value < 0 ? QStringLiteral("-") + format::bytes(qint64(-value)) : format::bytes(qint64(value));
    case Unit::ns:
        return format::ms(qint64(std::llround(value))) + QStringLiteral(" ms");
    case Unit::kernelNs:
        return QString::number(value / 1e3, 'f', 3) + QStringLiteral(" µs");
    case Unit::ratio:
        return format::percent(value * 100.0);
    }
    return {};
}

QString SessionComparison::differenceText(const Metric& m) {
    if (!m.comparable()) {
        return format::kNotRecorded;
    }
    const double d = m.difference();
    if (d == 0) {
        return QStringLiteral("0");
    }
    const QString sign = d > 0 ? QStringLiteral("+") : QString();
    if (m.unit == Unit::ratio) { // a difference of shares is in percentage points
        return sign + QString::number(d * 100.0, 'f', 2) + QStringLiteral(" pt");
    }
    return sign + valueText(m.unit, d);
}

QString SessionComparison::percentText(const Metric& m) {
    if (!m.comparable()) {
        return format::kNotRecorded;
    }
    const double p = m.percent();
    if (std::isnan(p)) {
        return QStringLiteral("new");
    }
    if (p == 0) {
        return QStringLiteral("0 %");
    }
    return (p > 0 ? QStringLiteral("+") : QString()) + format::percent(p);
}

int SessionComparison::changedCounters() const {
    return int(
        std::count_if(counters_.begin(), counters_.end(), [](const Counter& c) { return c.changed(); }));
}

QString SessionComparison::verdictText(Verdict verdict) {
    switch (verdict) {
    case Verdict::same:
        return QStringLiteral("same");
    case Verdict::changed:
        return QStringLiteral("changed");
    case Verdict::faster:
        return QStringLiteral("faster");
    case Verdict::slower:
        return QStringLiteral("slower");
    case Verdict::withinNoise:
        return QStringLiteral("within noise");
    case Verdict::simulated:
        return QStringLiteral("simulated time");
    case Verdict::notRecorded:
        return QStringLiteral("not recorded");
    }
    return {};
}

QString SessionComparison::bandText(const Metric& m) {
    if (m.noiseBand < 0) {
        return {};
    }
    const QString band = QStringLiteral("±") + format::percent(m.noiseBand * 100.0);
    return m.bandBasis == BandBasis::passSpread ? band + QStringLiteral(" pass spread")
                                                : band + QStringLiteral(" dispatch spread");
}

namespace {

QString halves(double value) {
    return value == std::floor(value) ? QString::number(value, 'f', 0) : QString::number(value, 'f', 1);
}

} // namespace

QString SessionComparison::counterDifferenceText(const Counter& c) {
    const double d = c.difference();
    if (d == 0) {
        return QStringLiteral("0");
    }
    return (d > 0 ? QStringLiteral("+") : QString()) + halves(d);
}

QString SessionComparison::counterRatioText(const Counter& c) {
    const double r = c.ratio();
    if (std::isnan(r)) {
        return c.newMedian == 0 ? format::kNotRecorded : QStringLiteral("new");
    }
    return QString::number(r, 'f', 4) + QStringLiteral("×");
}

QStringList SessionComparison::kernelTimeRule() const {
    QStringList out;
    auto runtime = [](int simulatedProcesses) {
        return simulatedProcesses > 0 ? QStringLiteral("simulated runtime") : QStringLiteral("GPU");
    };
    out << QStringLiteral("runtime: base %1, new %2").arg(runtime(base_simulated_), runtime(new_simulated_));
    if (simulated()) {
        out << QStringLiteral(
            "kernel time is simulated time (the host running the gfx90a interpreter), never "
            "a change of the kernel;");
        out << QStringLiteral("  shown with its noise band; hardware counters are exact and compared below");
    } else {
        out << QStringLiteral("kernel time is faster/slower only when new/base lies outside 1/(1+s) .. 1+s;");
    }
    out << QStringLiteral(
        "noise band s: the widest pass spread (max/min - 1) of one dispatch of the kernel in");
    out << QStringLiteral("  either session; with single passes the spread of its dispatches' median times");
    return out;
}

QString SessionComparison::statusText(const Metric& m) {
    const Verdict v = m.verdict();
    if (v == Verdict::notRecorded) {
        return {};
    }
    if (m.unit != Unit::kernelNs || v == Verdict::same) {
        return verdictText(v);
    }
    const QString band = m.noiseBand < 0 ? QStringLiteral("no band")
                                         : QStringLiteral("±") + format::percent(m.noiseBand * 100.0);
    switch (v) {
    case Verdict::simulated:
        return QStringLiteral("simulated, ") + band;
    case Verdict::withinNoise:
        return QStringLiteral("within ") + band;
    default:
        return verdictText(v) + QStringLiteral(", ") + band;
    }
}

QString SessionComparison::text(int width) const {
    const int metricWidth = 30, valueWidth = 16, pctWidth = 10, statusWidth = 19;
    auto line = [&](const QString& metric, const QString& b, const QString& n, const QString& d,
                    const QString& p, const QString& status) {
        QString text = QStringLiteral("  ") + metric.leftJustified(metricWidth, QLatin1Char(' '), true) +
                       b.rightJustified(valueWidth) + n.rightJustified(valueWidth) +
                       d.rightJustified(valueWidth) + p.rightJustified(pctWidth) + QLatin1Char(' ') +
                       status.left(statusWidth);
        while (text.endsWith(QLatin1Char(' '))) {
            text.chop(1);
        }
        return text + QLatin1Char('\n');
    };
    QString out;
    out += QStringLiteral("base: %1 (format %2)\nnew:  %3 (format %4)\n")
               .arg(base_path_)
               .arg(base_format_)
               .arg(new_path_)
               .arg(new_format_);
    out += QStringLiteral("kernels: %1 in both (%2 changed), %3 only in base, %4 only in new\n")
               .arg(count(Side::both))
               .arg(std::count_if(kernels_.begin(), kernels_.end(),
                                  [](const Kernel& k) { return k.side == Side::both && k.changed(); }))
               .arg(count(Side::baseOnly))
               .arg(count(Side::newOnly));
    out += QStringLiteral("counters: %1 compared (%2 changed), %3 collected in one session only\n")
               .arg(counters_.size())
               .arg(changedCounters())
               .arg(one_sided_counters_);
    out += QStringLiteral("times in ms, kernel time in µs (agent ticks at 1 GHz); spread: max/min - 1 of a "
                          "dispatch's passes\n");
    out += kernelTimeRule().join(QLatin1Char('\n')) + QStringLiteral("\n\n");
    out += line(QStringLiteral("metric"), QStringLiteral("base"), QStringLiteral("new"),
                QStringLiteral("difference"), QStringLiteral("%"), QStringLiteral("status"));
    const int ruleWidth = std::min(width, 2 + metricWidth + 3 * valueWidth + pctWidth + 1 + statusWidth);
    out += QString(ruleWidth, QLatin1Char('-')) + QLatin1Char('\n');
    for (const Kernel& k : kernels_) {
        QString title = k.name;
        if (k.side == Side::baseOnly) {
            title += QStringLiteral("  [only in base]");
        } else if (k.side == Side::newOnly) {
            title += QStringLiteral("  [only in new]");
        }
        if (title.size() > width) {
            title = title.left(width - 3) + QStringLiteral("...");
        }
        out += title + QLatin1Char('\n');
        for (const Metric& m : k.metrics) {
            const QString status = k.side == Side::both ? statusText(m) : QString();
            out += line(m.name, valueText(m.unit, m.base, m.baseRecorded),
                        valueText(m.unit, m.now, m.newRecorded), differenceText(m), percentText(m), status);
        }
    }
    if (!counters_.empty()) {
        out += QStringLiteral("\nhardware counters (median over the dispatches each was collected for; a "
                              "difference is other work)\n");
        out += line(QStringLiteral("counter"), QStringLiteral("base median"), QStringLiteral("new median"),
                    QStringLiteral("difference"), QStringLiteral("ratio"), QStringLiteral("status"));
        out += QString(ruleWidth, QLatin1Char('-')) + QLatin1Char('\n');
        for (std::size_t i = 0; i < counters_.size(); ++i) {
            const Counter& c = counters_[i];
            if (i == 0 || c.kernel != counters_[i - 1].kernel) {
                QString title = c.kernel;
                if (title.size() > width) {
                    title = title.left(width - 3) + QStringLiteral("...");
                }
                out += title + QLatin1Char('\n');
            }
            out +=
                line(c.counter, c.baseMedianText, c.newMedianText, counterDifferenceText(c),
                     counterRatioText(c), c.changed() ? QStringLiteral("changed") : QStringLiteral("same"));
        }
    }
    return out;
}

QStringList SessionComparison::chartMetrics() {
    return {kKernelMedian, kSnapshotTime, kRestoreTime, kSnapshotBytes, kMovedHost, kMovedDevice, kReplayed};
}

QStringList SessionComparison::allChartMetrics() const {
    QStringList out = chartMetrics();
    for (const Counter& c : counters_) {
        const QString metric = counterMetric(c.counter);
        if (!out.contains(metric)) {
            out << metric;
        }
    }
    return out;
}

QVector<ChartSeriesBuilder::Bar> SessionComparison::differenceBars(const QString& metric) const {
    QVector<ChartSeriesBuilder::Bar> out;
    auto shortLabel = [](QString label) {
        return label.size() > 40 ? label.left(37) + QStringLiteral("...") : label;
    };
    for (const Counter& c : counters_) {
        if (counterMetric(c.counter) != metric || c.baseMedian == 0) {
            continue;
        }
        Metric m;
        m.base = c.baseMedian;
        m.now = c.newMedian;
        m.baseRecorded = m.newRecorded = true;
        out.push_back({QStringLiteral("%1 (%2)").arg(shortLabel(c.kernel), percentText(m).toHtmlEscaped()),
                       m.percent()});
    }
    for (const Kernel& k : kernels_) {
        const Metric* m = k.metric(metric);
        if (k.side != Side::both || !m || !m->comparable() || std::isnan(m->percent())) {
            continue;
        }
        // Chart labels are rich text: "< 0.001 %" would open a tag, so the escaped form is used.
        QString value = percentText(*m).toHtmlEscaped();
        if (m->simulatedTime) {
            value += QStringLiteral(", simulated");
        }
        out.push_back({QStringLiteral("%1 (%2)").arg(shortLabel(k.name), value), m->percent()});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ChartSeriesBuilder::Bar& a, const ChartSeriesBuilder::Bar& b) {
                         return std::abs(a.value) > std::abs(b.value);
                     });
    return out;
}

} // namespace rs::app
