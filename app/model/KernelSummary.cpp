// SPDX-License-Identifier: MIT
#include "model/KernelSummary.h"

#include "model/Format.h"

#include <QHash>

#include <algorithm>

namespace rs::app {

std::vector<KernelSummary::Stat> KernelSummary::stats(const SessionSnapshot& snapshot) {
    std::vector<Stat> out;
    if (snapshot.isNull()) {
        return out;
    }
    const SessionData& data = snapshot.data();
    QHash<int, std::size_t> index; // kernel -> position in out
    std::vector<std::vector<qint64>> ticks;
    for (std::size_t row = 0; row < data.dispatches.size(); ++row) {
        const DispatchRow& d = data.dispatches[row];
        auto it = index.constFind(d.kernel);
        if (it == index.cend()) {
            it = index.insert(d.kernel, out.size());
            Stat s;
            s.kernel = d.kernel;
            s.name = data.kernelNames.value(d.kernel);
            s.symbol = data.kernelSymbols.value(d.kernel);
            out.push_back(s);
            ticks.emplace_back();
        }
        Stat& s = out[*it];
        ++s.dispatches;
        if (d.replayed()) {
            ++s.replayed;
        } else {
            ++s.declined[d.decision];
        }
        s.passes += d.passes;
        s.snapshotNs += d.snapshotNs;
        s.restoreNs += d.restoreNs;
        s.snapshotBytes += d.snapshotBytes;
        if (d.restores > 0) {
            s.movedBytes += d.movedBytes();
        }
        if (row + 1 < data.passBegin.size()) {
            for (int p = data.passBegin[row]; p < data.passBegin[row + 1]; ++p) {
                const PassRow& pass = data.passes[std::size_t(p)];
                if (pass.endTick >= pass.startTick && pass.endTick > 0) {
                    ticks[*it].push_back(pass.endTick - pass.startTick);
                }
            }
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::vector<qint64>& t = ticks[i];
        if (!t.empty()) {
            std::sort(t.begin(), t.end());
            out[i].passMin = t.front();
            out[i].passMax = t.back();
            out[i].passMedian = t[(t.size() - 1) / 2] + (t[t.size() / 2] - t[(t.size() - 1) / 2]) / 2;
        }
    }
    return out;
}

QString KernelSummary::declinedText(const SessionSnapshot& snapshot, const Stat& s) {
    std::vector<std::pair<qint64, int>> reasons; // (count, code)
    for (auto it = s.declined.cbegin(); it != s.declined.cend(); ++it) {
        reasons.emplace_back(it.value(), it.key());
    }
    std::sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    QStringList parts;
    for (const auto& [count, code] : reasons) {
        parts << QStringLiteral("%1 %2").arg(count).arg(snapshot.enumName(QStringLiteral("decision"), code));
    }
    return parts.join(QStringLiteral(", "));
}

QString KernelSummary::text(const SessionSnapshot& snapshot, int limit) {
    std::vector<Stat> all = stats(snapshot);
    if (all.empty()) {
        return {};
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Stat& a, const Stat& b) { return a.dispatches > b.dispatches; });
    QString out =
        QStringLiteral("kernels (%1; per kernel: dispatches, replayed, passes, pass time min / median / "
                       "max, snapshot and restore time summed, bytes moved back):\n")
            .arg(all.size());
    auto time = [](qint64 ns) { return ns >= 0 ? format::us(ns) : QStringLiteral("-"); };
    const int shown = std::min<int>(limit, int(all.size()));
    for (int i = 0; i < shown; ++i) {
        const Stat& s = all[std::size_t(i)];
        out += QStringLiteral("  %1\n").arg(s.name.isEmpty() ? QStringLiteral("(unknown kernel)") : s.name);
        out += QStringLiteral("    %1 dispatches, %2 replayed%3; %4 passes, %5 / %6 / %7 µs; snapshot %8 µs, "
                              "restore %9 µs, moved %10\n")
                   .arg(format::count(s.dispatches), format::count(s.replayed),
                        s.declinedCount() > 0
                            ? QStringLiteral(", %1 declined (%2)")
                                  .arg(format::count(s.declinedCount()), declinedText(snapshot, s))
                            : QString(),
                        format::count(s.passes), time(s.passMin), time(s.passMedian), time(s.passMax),
                        format::us(s.snapshotNs), format::us(s.restoreNs))
                   .arg(format::bytes(s.movedBytes));
    }
    if (int(all.size()) > shown) {
        out += QStringLiteral("  … %1 more kernels (the inspector's Kernels page lists them all)\n")
                   .arg(all.size() - std::size_t(shown));
    }
    return out;
}

} // namespace rs::app
