// SPDX-License-Identifier: MIT
// `replayscope --export-trace FILE SESSION...`: sessions as a trace for Perfetto: its protobuf format
// (model/PerfettoTraceWriter.h) unless FILE ends in ".json", then the replay timelines in the Chrome trace
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

    /// The two formats of the export.
    enum class Format {
        perfetto, ///< Perfetto's protobuf trace (PerfettoTraceWriter): any file name but "*.json"
        json,     ///< the Chrome trace event format (write()): a file name ending in ".json", any case
    };
    /// The format `--export-trace` writes to `path`, chosen by its name.
    static Format formatOf(const QString& path);

    /// Loads every file of `sessions` (SessionLoader::loadAll) and writes them to `output` in the format
    /// formatOf(output) (replaced atomically: QSaveFile). False with `error` set to one line naming the file
    /// and the problem (a session that cannot be read, an output that cannot be written); nothing is written
    /// then.
    static bool exportFiles(const QStringList& sessions, const QString& output, QString& error);

    /// Streams the trace of `inputs` to `out` (event by event: memory does not grow with the dispatches).
    /// One trace process per (session, process of the session), one thread per timeline lane; each window
    /// a complete event ("X") with its parts nested inside, each declined dispatch an instant event ("i").
    /// ts and dur are microseconds (three decimals: exact ns) from the origin of the input's host (see
    /// origin()): each host's monotonic clock is its own, so the ranks of one host line up and every host
    /// starts at 0. otherData holds `host_origins_ns` (host -> origin) and, when every input is of one
    /// host, `origin_ns`. False when `out` reports a write error.
    static bool write(const std::vector<Input>& inputs, QIODevice& out);

    /// The earliest window start or mark over the inputs recorded on `host` (their session's hostname;
    /// every input when `host` is null), ns; 0 when they are all empty.
    static qint64 origin(const std::vector<Input>& inputs, const QString& host = QString());
};

} // namespace rs::app
