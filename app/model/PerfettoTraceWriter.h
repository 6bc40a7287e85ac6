// SPDX-License-Identifier: MIT
// `replayscope --export-trace FILE.pftrace SESSION...`: sessions in Perfetto's protobuf trace format (a
// Trace of TracePackets: TrackDescriptors and TrackEvents), written with the classes protoc generates from
// Perfetto's own protos (third_party/perfetto); docs/inspector.md, "Trace export".
#pragma once

#include "model/TraceExporter.h"

#include <QHash>
#include <QString>

#include <vector>

class QIODevice;

namespace rs::app {

class PerfettoTraceWriter {
  public:
    /// Streams the trace of `inputs` to `out`, packet by packet (the bytes are one serialized
    /// perfetto.protos.Trace). One Perfetto process per (session, process of the session), named after the
    /// file, its rank, its host and its pid; under it, per agent: the replay windows with their parts nested,
    /// the application's dispatches on one track per queue (flows from each window to the dispatch it
    /// released), and the counter tracks (tracked footprint, bytes moved per restore, each hardware
    /// counter). Timestamps are ns, each host's clock shifted by hostOrigins(). False when `out` reports a
    /// write error.
    static bool write(const std::vector<TraceExporter::Input>& inputs, QIODevice& out);

    /// Host name -> the earliest time (session ns) the trace holds for that host's processes: its windows,
    /// dispatches and tracked allocations. Processes of one host share CLOCK_MONOTONIC, so their times are
    /// written relative to this one origin; the clocks of different hosts are unrelated, so each host
    /// starts at 0. A process without a host name counts as the host "".
    static QHash<QString, qint64> hostOrigins(const std::vector<TraceExporter::Input>& inputs);
};

} // namespace rs::app
