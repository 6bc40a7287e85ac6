// SPDX-License-Identifier: MIT
// `replayscope --export-trace FILE.json SESSION...`: the replay timelines of sessions in the Chrome trace
// event format (Perfetto UI, chrome://tracing); docs/inspector.md, "Trace export".
#pragma once

#include "model/TimelineModel.h"

#include <QString>
#include <QStringList>

class QIODevice;

namespace rs::app {

class TraceExporter {
  public:
    /// One session of the trace and the name its processes carry (the file name).
    struct Input {
        QString name;
        TimelineModel timeline;
    };

    /// Loads every file of `sessions` (SessionLoader::loadAll) and writes their timelines to `output`
    /// (replaced atomically: QSaveFile). False with `error` set to one line naming the file and the problem
    /// (a session that cannot be read, an output that cannot be written); nothing is written then.
    static bool exportFiles(const QStringList& sessions, const QString& output, QString& error);

    /// Streams the trace of `inputs` to `out` (event by event: memory does not grow with the dispatches).
    /// One trace process per (session, process of the session), one thread per timeline lane; each window
    /// a complete event ("X") with its parts nested inside, each declined dispatch an instant event ("i").
    /// ts and dur are microseconds (three decimals: exact ns) from `originNs`, the earliest time of all
    /// inputs (see origin()). False when `out` reports a write error.
    static bool write(const std::vector<Input>& inputs, QIODevice& out);

    /// The earliest window start or mark over `inputs` (ns), 0 when they are all empty.
    static qint64 origin(const std::vector<Input>& inputs);
};

} // namespace rs::app
