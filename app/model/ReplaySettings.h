// SPDX-License-Identifier: MIT
// The replay settings a session records (the `configuration` of its session start: the engine's
// REPLAYSCOPE_* variables as "KEY=value" lines, docs/session-schema.md) as people read them: the
// replayscope-run option that sets each, with sizes in binary units, timeouts also in seconds, switches
// on/off and "none" for a zero budget or limit ("--host-memory-budget none", "--device-store-reserve 1.0
// GiB").
#pragma once

#include <QString>
#include <QStringList>

namespace rs::app {

class ReplaySettings {
  public:
    /// One setting: its text as shown, and the line as recorded.
    struct Setting {
        QString shown;  ///< "--restore-chunk-size 64 KiB"
        QString stored; ///< "REPLAYSCOPE_RESTORE_CHUNK_SIZE=65536"
    };
    /// The settings of `configuration` in its order. A variable this build does not know is shown without
    /// the REPLAYSCOPE_ prefix, lower-cased with '-' for '_', its value as stored; a line that is not
    /// "KEY=value" is shown as it is.
    /// A configuration cut short (the session keeps the first rs::ipc::kMaxStringBytes bytes; the engine
    /// ends every line with a newline) loses its last, partial line and ends with a setting saying so
    /// (`stored` empty).
    static QList<Setting> describe(const QString& configuration);
    /// describe()'s shown texts joined by " · ".
    static QString text(const QString& configuration);
};

} // namespace rs::app
