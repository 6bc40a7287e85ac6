// SPDX-License-Identifier: MIT
#include "model/JobSummary.h"

#include "model/CounterSummary.h"
#include "model/SessionLoader.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <atomic>

namespace rs::app {

namespace {

/// Median of `values` (sorted in place); -1 when empty.
double medianOf(QVector<double>& values) {
    if (values.isEmpty()) {
        return -1;
    }
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

/// `a` before `b` with digit runs compared as numbers ("rank-2" before "rank-10"), the rest as text.
/// (QCollator's numeric mode needs ICU and a locale; a C-locale session has neither.)
bool naturalLess(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit()) {
                ++ei;
            }
            while (ej < b.size() && b[ej].isDigit()) {
                ++ej;
            }
            const QString na = a.mid(i, ei - i), nb = b.mid(j, ej - j);
            if (na != nb) {
                // Longer runs (without leading zeros) are larger numbers; equal lengths compare as text.
                const auto strip = [](const QString& n) {
                    qsizetype k = 0;
                    while (k + 1 < n.size() && n[k] == QLatin1Char('0')) {
                        ++k;
                    }
                    return n.mid(k);
                };
                const QString sa = strip(na), sb = strip(nb);
                if (sa.size() != sb.size()) {
                    return sa.size() < sb.size();
                }
                if (sa != sb) {
                    return sa < sb;
                }
            }
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) {
            return a[i] < b[j];
        }
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace

RankDigest RankDigest::of(const SessionSnapshot& snapshot) {
    RankDigest d;
    if (snapshot.isNull()) {
        return d;
    }
    d.path = snapshot->info.path;
    d.info = snapshot->info;
    d.totals.path = d.path;
    d.totals.host = d.info.hostname;
    for (const DispatchRow& r : snapshot->dispatches) {
        ++d.totals.dispatches;
        if (r.replayed()) {
            ++d.totals.replayed;
        } else {
            ++d.totals.declined;
            ++d.declines[snapshot.enumName(QStringLiteral("decision"), r.decision)];
        }
        d.totals.snapshotBytes += r.snapshotBytes;
        if (r.restores > 0 && r.movedHost >= 0) {
            d.totals.restoredBytes = std::max<qint64>(d.totals.restoredBytes, 0) + r.movedBytes();
            d.movedHost += r.movedHost;
            d.movedDevice += std::max<qint64>(r.movedDevice, 0);
        }
        d.totals.snapshotNs += r.snapshotNs;
        d.totals.restoreNs += r.restoreNs;
    }
    if (snapshot->hasRestoreRecords) {
        d.totals.restoredBytes = std::max<qint64>(d.totals.restoredBytes, 0);
    }
    d.kernels = KernelFigures::of(snapshot);
    for (const CounterSummary::Stat& c : CounterSummary::stats(snapshot, CounterSummary::Grouping::kernel)) {
        d.counterMedians[c.kernel].insert(c.counter, c.median());
        if (!d.counterNames.contains(c.counter)) {
            d.counterNames << c.counter;
        }
    }
    return d;
}

RankDigest RankDigest::read(const QString& path, SessionError& error) {
    SessionLoader loader(path);
    error = loader.open();
    if (error.isError()) {
        return {};
    }
    auto* data = new SessionData;
    const SessionSnapshot snapshot(data);
    error = loader.loadFigures(*data);
    if (error.isError()) {
        return {};
    }
    return of(snapshot); // the rank with it: SessionInfo::jobRank, read on the loader's connection
}

JobSummary JobSummary::load(const QStringList& paths, SessionError& error) {
    struct Read {
        RankDigest digest;
        SessionError error;
    };
    // Every file's digest is independent: the reads share nothing but the (thread-safe) SQLite library.
    // Once one file is refused the others are skipped (their result is not used).
    std::atomic<bool> refused{false};
    const std::function<Read(const QString&)> readOne = [&refused](const QString& path) {
        Read r;
        if (!refused.load(std::memory_order_relaxed)) {
            r.digest = RankDigest::read(path, r.error);
            if (r.error.isError()) {
                refused.store(true, std::memory_order_relaxed);
            }
        }
        return r;
    };
    const QList<Read> reads = QtConcurrent::blockingMapped(paths, readOne);
    QVector<RankDigest> digests;
    digests.reserve(reads.size());
    for (const Read& r : reads) {
        if (r.error.isError()) {
            error = r.error;
            return {};
        }
        if (r.digest.path.isEmpty()) { // skipped after another file's refusal, reported above
            continue;
        }
        digests.push_back(r.digest);
    }
    error = {};
    return of(digests);
}

JobSummary JobSummary::of(const QVector<RankDigest>& given) {
    JobSummary out;
    // Files in rank order (a shell glob gives run-10 before run-2); ties keep the order given.
    QVector<int> ranks(given.size()), order(given.size());
    for (int i = 0; i < given.size(); ++i) {
        ranks[i] = given[i].info.jobRank >= 0 ? given[i].info.jobRank : i;
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ranks[a] < ranks[b]; });
    QVector<RankDigest> digests;
    for (int i : order) {
        digests.push_back(given[i]);
        out.ranks_.push_back(ranks[i]);
    }
    out.digests_ = digests;
    for (int i = 0; i < digests.size(); ++i) {
        const int rank = out.ranks_[i];
        for (int g = 0; g < i; ++g) {
            if (out.ranks_[g] == rank) {
                auto origin = [&](int f) {
                    return digests[f].info.jobRank >= 0 ? QStringLiteral("recorded")
                                                        : QStringLiteral("by position");
                };
                out.problems_ << QStringLiteral("%1 and %2 are both rank %3 (%4, %5): they may be of "
                                                "different jobs; both are shown")
                                     .arg(QFileInfo(digests[g].path).fileName(),
                                          QFileInfo(digests[i].path).fileName())
                                     .arg(rank)
                                     .arg(origin(g), origin(i));
                break;
            }
        }
    }
    return out;
}

QStringList JobSummary::expandDirectories(const QStringList& paths) {
    QStringList out;
    for (const QString& p : paths) {
        const QFileInfo info(p);
        if (!info.isDir()) {
            out << p;
            continue;
        }
        const QDir dir(p);
        QStringList names = dir.entryList({QStringLiteral("*.rsdb")}, QDir::Files | QDir::Readable);
        std::sort(names.begin(), names.end(),
                  [](const QString& a, const QString& b) { return naturalLess(a, b); });
        for (const QString& n : names) {
            out << dir.filePath(n);
        }
    }
    return out;
}

std::optional<QVector<int>> JobSummary::parseRanks(const QString& text) {
    const QString t = text.trimmed();
    QVector<int> out;
    if (t.isEmpty() || t.compare(QLatin1String("all"), Qt::CaseInsensitive) == 0) {
        return out;
    }
    for (const QString& part : t.split(QLatin1Char(','))) {
        const QStringList ends = part.trimmed().split(QLatin1Char('-'));
        bool ok1 = false, ok2 = false;
        const int first = ends.value(0).trimmed().toInt(&ok1);
        const int last = ends.size() == 2 ? ends[1].trimmed().toInt(&ok2) : first;
        if (!ok1 || (ends.size() == 2 && !ok2) || ends.size() > 2 || first < 0 || last < first ||
            last - first > 1'000'000) {
            return std::nullopt;
        }
        for (int r = first; r <= last; ++r) {
            out.push_back(r);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QString JobSummary::rankText(QVector<int> ranks) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    QStringList parts;
    for (int i = 0; i < ranks.size();) {
        int j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) {
            ++j;
        }
        parts << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

QStringList JobSummary::paths() const {
    QStringList out;
    for (const RankDigest& d : digests_) {
        out << d.path;
    }
    return out;
}

QVector<int> JobSummary::distinctRanks() const {
    QVector<int> out = ranks_;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QStringList JobSummary::hosts() const {
    QStringList out;
    for (const RankDigest& d : digests_) {
        if (!out.contains(d.info.hostname)) {
            out << d.info.hostname;
        }
    }
    return out;
}

QString JobSummary::rankLabel(int file) const {
    const int rank = ranks_.value(file, -1);
    const QString label = QStringLiteral("rank %1").arg(rank);
    return ranks_.count(rank) > 1
               ? QStringLiteral("%1 (%2)").arg(label, QFileInfo(digests_.value(file).path).fileName())
               : label;
}

QVector<RankTotals> JobSummary::totals() const {
    QVector<RankTotals> out;
    for (int f = 0; f < digests_.size(); ++f) {
        RankTotals t = digests_[f].totals;
        t.rank = ranks_[f];
        t.path = digests_[f].path;
        t.host = digests_[f].info.hostname;
        out.push_back(t);
    }
    return out;
}

qint64 JobSummary::dispatches() const {
    qint64 n = 0;
    for (const RankDigest& d : digests_) {
        n += d.totals.dispatches;
    }
    return n;
}

QStringList JobSummary::counterNames(const QVector<int>& only) const {
    QStringList out;
    for (int f : fileList(only)) {
        for (const QString& c : digests_[f].counterNames) {
            if (!out.contains(c)) {
                out << c;
            }
        }
    }
    return out;
}

QVector<int> JobSummary::fileList(const QVector<int>& files) const {
    if (!files.isEmpty()) {
        return files;
    }
    QVector<int> all(digests_.size());
    for (int i = 0; i < all.size(); ++i) {
        all[i] = i;
    }
    return all;
}

RankChart JobSummary::categoriesOf(const QVector<int>& files) const {
    RankChart c;
    for (int f : files) {
        c.categories << rankLabel(f);
    }
    return c;
}

RankChart JobSummary::kernelMedianByRank(const QVector<int>& only, int maxKernels) const {
    const QVector<int> files = fileList(only);
    RankChart c = categoriesOf(files);
    QHash<QString, qint64> replayed; // kernel -> replayed dispatches over the files
    for (int f : files) {
        const auto& figures = digests_[f].kernels;
        for (auto it = figures.cbegin(); it != figures.cend(); ++it) {
            if (it->kernelMedianNs >= 0) {
                replayed[it.key()] += it->replayed;
            }
        }
    }
    QStringList kernels = replayed.keys();
    std::sort(kernels.begin(), kernels.end(), [&](const QString& a, const QString& b) {
        return replayed[a] != replayed[b] ? replayed[a] > replayed[b] : a < b;
    });
    kernels = kernels.mid(0, std::max(0, maxKernels));
    for (const QString& k : kernels) {
        ChartSeriesBuilder::BarSet set{k, {}};
        for (int f : files) {
            const auto it = digests_[f].kernels.constFind(k);
            set.values << (it != digests_[f].kernels.cend() && it->kernelMedianNs >= 0 ? it->kernelMedianNs
                                                                                       : 0.0);
        }
        c.sets << set;
    }
    return c;
}

RankChart JobSummary::figuresByRank(const QVector<int>& only, const QList<Figure>& figures) const {
    const QVector<int> files = fileList(only);
    RankChart c = categoriesOf(files);
    for (const Figure& figure : figures) {
        ChartSeriesBuilder::BarSet set{figure.name, {}};
        for (int f : files) {
            set.values << double(figure.of(digests_[f]));
        }
        c.sets << set;
    }
    return c;
}

RankChart JobSummary::snapshotRestoreTimeByRank(const QVector<int>& files) const {
    return figuresByRank(
        files, {{QStringLiteral("snapshot"), [](const RankDigest& d) { return d.totals.snapshotNs; }},
                {QStringLiteral("restore"), [](const RankDigest& d) { return d.totals.restoreNs; }}});
}

RankChart JobSummary::bytesByRank(const QVector<int>& files) const {
    return figuresByRank(
        files,
        {{QStringLiteral("snapshot"), [](const RankDigest& d) { return d.totals.snapshotBytes; }},
         {QStringLiteral("restored over the host link"), [](const RankDigest& d) { return d.movedHost; }},
         {QStringLiteral("restored inside the device"), [](const RankDigest& d) { return d.movedDevice; }}});
}

RankChart JobSummary::declinesByRank(const QVector<int>& only) const {
    const QVector<int> files = fileList(only);
    RankChart c = categoriesOf(files);
    QStringList reasons;
    for (int f : files) {
        for (auto it = digests_[f].declines.cbegin(); it != digests_[f].declines.cend(); ++it) {
            if (!reasons.contains(it.key())) {
                reasons << it.key();
            }
        }
    }
    std::sort(reasons.begin(), reasons.end());
    for (const QString& r : reasons) {
        ChartSeriesBuilder::BarSet set{r, {}};
        for (int f : files) {
            set.values << double(digests_[f].declines.value(r));
        }
        c.sets << set;
    }
    return c;
}

RankChart JobSummary::dispatchesByRank(const QVector<int>& files) const {
    return figuresByRank(
        files, {{QStringLiteral("replayed"), [](const RankDigest& d) { return d.totals.replayed; }},
                {QStringLiteral("declined"), [](const RankDigest& d) { return d.totals.declined; }}});
}

QVector<JobKernel> JobSummary::kernels(const QVector<int>& only) const {
    const QVector<int> files = fileList(only);
    QMap<QString, JobKernel> byName;
    QMap<QString, QVector<double>> medians;
    for (int f : files) {
        const auto& figures = digests_[f].kernels;
        for (auto it = figures.cbegin(); it != figures.cend(); ++it) {
            JobKernel& k = byName[it.key()];
            k.name = it.key();
            ++k.ranks;
            k.dispatches += it->dispatches;
            k.replayed += it->replayed;
            k.declined += it->dispatches - it->replayed;
            k.snapshotNs += it->snapshotNs;
            k.restoreNs += it->restoreNs;
            k.movedBytes += std::max<qint64>(it->movedHost, 0) + std::max<qint64>(it->movedDevice, 0);
            if (it->kernelMedianNs >= 0) {
                medians[it.key()] << it->kernelMedianNs;
                if (it->kernelMedianNs > k.rankMedianMaxNs) {
                    k.rankMedianMaxNs = it->kernelMedianNs;
                    k.slowestFile = f;
                }
            }
        }
    }
    // Counters: per kernel and counter, the ranks' medians.
    QMap<QString, QMap<QString, QVector<double>>> counters;
    for (int f : files) {
        const auto& perKernel = digests_[f].counterMedians;
        for (auto k = perKernel.cbegin(); k != perKernel.cend(); ++k) {
            for (auto c = k->cbegin(); c != k->cend(); ++c) {
                counters[k.key()][c.key()] << c.value();
            }
        }
    }
    QVector<JobKernel> out;
    for (auto it = byName.begin(); it != byName.end(); ++it) {
        QVector<double>& m = medians[it.key()];
        if (!m.isEmpty()) {
            it->rankMedianMinNs = *std::min_element(m.cbegin(), m.cend());
            it->rankMedianNs = medianOf(m);
        }
        auto c = counters.find(it.key());
        if (c != counters.end()) {
            for (auto v = c->begin(); v != c->end(); ++v) {
                it->counterMedians.insert(v.key(), medianOf(*v));
            }
        }
        out.push_back(*it);
    }
    std::stable_sort(out.begin(), out.end(), [](const JobKernel& a, const JobKernel& b) {
        return a.dispatches != b.dispatches ? a.dispatches > b.dispatches : a.name < b.name;
    });
    return out;
}

} // namespace rs::app
