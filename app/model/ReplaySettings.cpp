// SPDX-License-Identifier: MIT
#include "model/ReplaySettings.h"

#include "model/Format.h"

#include <replayscope/ipc/environment.h>
#include <replayscope/ipc/records.h>

namespace rs::app {

namespace {

namespace env = rs::ipc::env;

enum class Kind { text, count, limit, bytes, budget, toggle, milliseconds };

struct Known {
    const char* variable;
    const char* option; ///< replayscope-run's option
    Kind kind;
};

// The variables replayscope-run sets from its options (runner/target_environment.cpp).
constexpr Known kKnown[] = {
    {env::kPasses, "--passes", Kind::count},
    {env::kKernelIncludeRegex, "--kernel-include-regex", Kind::text},
    {env::kKernelExcludeRegex, "--kernel-exclude-regex", Kind::text},
    {env::kKernelIterationRange, "--kernel-iteration-range", Kind::text},
    {env::kDispatchSkip, "--dispatch-skip", Kind::count},
    {env::kDispatchCount, "--dispatch-count", Kind::limit},
    {env::kAgentFilter, "--agent", Kind::text},
    {env::kHostMemoryBudget, "--host-memory-budget", Kind::budget},
    {env::kFidelityCheck, "--fidelity-check", Kind::toggle},
    {env::kFidelityUnrestorableBudget, "--fidelity-unrestorable-budget", Kind::bytes},
    {env::kTrackVmem, "track vmem mappings", Kind::toggle},
    {env::kDrainTimeoutMs, "--replay-drain-timeout-ms", Kind::milliseconds},
    {env::kPassTimeoutMs, "--replay-pass-timeout-ms", Kind::milliseconds},
    {env::kSnapshotStore, "--snapshot-store", Kind::text},
    {env::kDeviceStoreReserve, "--device-store-reserve", Kind::bytes},
    {env::kRestore, "--restore", Kind::text},
    {env::kRestoreChunkSize, "--restore-chunk-size", Kind::bytes},
    {env::kPmc, "--pmc", Kind::text},
    {env::kFollowChildren, "--follow-children", Kind::text},
};

QString valueText(Kind kind, const QString& value) {
    bool ok = false;
    const qint64 n = value.toLongLong(&ok);
    switch (kind) {
    case Kind::text:
        return value;
    case Kind::count:
        return ok ? format::count(n) : value;
    case Kind::limit:
        return ok && n == 0 ? QStringLiteral("no limit") : ok ? format::count(n) : value;
    case Kind::budget:
        return ok && n == 0 ? QStringLiteral("none") : ok ? format::bytes(n) : value;
    case Kind::bytes:
        return ok ? format::bytes(n) : value;
    case Kind::toggle:
        return value == QLatin1String("1")   ? QStringLiteral("on")
               : value == QLatin1String("0") ? QStringLiteral("off")
                                             : value;
    case Kind::milliseconds:
        // The option takes milliseconds: the value as given, with seconds beside it.
        return ok && n >= 1000 ? QStringLiteral("%1 (%2 s)").arg(n).arg(double(n) / 1000.0) : value;
    }
    return value;
}

} // namespace

QList<ReplaySettings::Setting> ReplaySettings::describe(const QString& configuration) {
    QList<Setting> out;
    // The engine ends every line with '\n': text without it was cut (a session keeps the first
    // kMaxStringBytes bytes of a string), and its last line is a fragment, not a setting.
    QStringList lines = configuration.split(QLatin1Char('\n'));
    const bool cut = !configuration.isEmpty() && !configuration.endsWith(QLatin1Char('\n'));
    if (cut) {
        lines.removeLast();
    }
    for (const QString& raw : lines) {
        if (raw.trimmed().isEmpty()) {
            continue;
        }
        const QString line = raw.trimmed();
        const int eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            out.push_back({line, line});
            continue;
        }
        const QString key = line.left(eq), value = line.mid(eq + 1);
        QString shown;
        for (const Known& k : kKnown) {
            if (key == QLatin1String(k.variable)) {
                shown = QStringLiteral("%1 %2").arg(QLatin1String(k.option), valueText(k.kind, value));
                break;
            }
        }
        if (shown.isEmpty()) {
            QString name =
                key.startsWith(QLatin1String(env::kPrefix)) ? key.mid(int(qstrlen(env::kPrefix))) : key;
            shown = QStringLiteral("%1 %2").arg(name.toLower().replace(QLatin1Char('_'), QLatin1Char('-')),
                                                value);
        }
        out.push_back({shown, line});
    }
    if (cut) {
        out.push_back({QStringLiteral("… (the session keeps the first %1 bytes of the settings; the rest "
                                      "is not recorded)")
                           .arg(rs::ipc::kMaxStringBytes),
                       QString()});
    }
    return out;
}

QString ReplaySettings::text(const QString& configuration) {
    QStringList shown;
    for (const Setting& s : describe(configuration)) {
        shown << s.shown;
    }
    return shown.join(QStringLiteral("  ·  "));
}

} // namespace rs::app
