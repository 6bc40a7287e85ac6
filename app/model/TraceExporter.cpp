// SPDX-License-Identifier: MIT
#include "model/TraceExporter.h"

#include "model/PerfettoTraceWriter.h"
#include "model/SessionLoader.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSaveFile>

#include <limits>

namespace rs::app {

namespace {

/// Writes the events one by one between the header and the footer.
class EventStream {
  public:
    explicit EventStream(QIODevice& out) : out_(out) {}
    void add(const QJsonObject& event) {
        if (!first_) {
            buffer_ += ",\n";
        }
        addRaw(QJsonDocument(event).toJson(QJsonDocument::Compact), false);
    }
    /// One event already in JSON (buffered: written in blocks of about 1 MiB).
    void addRaw(const QByteArray& event, bool separate = true) {
        if (separate && !first_) {
            buffer_ += ",\n";
        }
        first_ = false;
        buffer_ += event;
        if (buffer_.size() >= (1 << 20)) {
            flush();
        }
    }
    void flush() {
        ok_ = ok_ && out_.write(buffer_) == buffer_.size();
        buffer_.clear();
    }
    void raw(const QByteArray& bytes) { buffer_ += bytes; }
    bool ok() const { return ok_; }

  private:
    QIODevice& out_;
    QByteArray buffer_;
    bool first_ = true;
    bool ok_ = true;
};

/// ns as µs with three decimals, exact ("1234.567"; "-0.005").
QByteArray micros(qint64 ns) {
    const qint64 magnitude = ns < 0 ? -ns : ns;
    QByteArray out = ns < 0 ? QByteArray("-") : QByteArray();
    out += QByteArray::number(magnitude / 1000);
    out += '.';
    const QByteArray fraction = QByteArray::number(magnitude % 1000);
    out += QByteArray(3 - fraction.size(), '0') + fraction;
    return out;
}

/// `text` as a JSON string literal (quotes, backslashes and control characters escaped; UTF-8).
QByteArray jsonString(const QString& text) {
    QByteArray out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char c : text.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += "0123456789abcdef"[u >> 4];
            out += "0123456789abcdef"[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

QJsonObject metadata(const char* name, int pid, int tid, const QJsonObject& args) {
    return QJsonObject{{QStringLiteral("ph"), QStringLiteral("M")},
                       {QStringLiteral("name"), QLatin1String(name)},
                       {QStringLiteral("pid"), pid},
                       {QStringLiteral("tid"), tid},
                       {QStringLiteral("args"), args}};
}

} // namespace

TraceExporter::Format TraceExporter::formatOf(const QString& path) {
    return path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) ? Format::json : Format::perfetto;
}

qint64 TraceExporter::origin(const std::vector<Input>& inputs, const QString& host) {
    qint64 origin = std::numeric_limits<qint64>::max();
    for (const Input& in : inputs) {
        const bool onHost = host.isNull() || (!in.timeline.snapshot().isNull() &&
                                              in.timeline.snapshot()->info.hostname == host);
        if (onHost && (in.timeline.windowCount() > 0 || !in.timeline.lanes().empty())) {
            origin = std::min(origin, in.timeline.beginNs());
        }
    }
    return origin == std::numeric_limits<qint64>::max() ? 0 : origin;
}

bool TraceExporter::write(const std::vector<Input>& inputs, QIODevice& out) {
    QMap<QString, qint64> hostOrigins; // each host's clock from its own earliest time
    for (const Input& in : inputs) {
        if (!in.timeline.snapshot().isNull() &&
            !hostOrigins.contains(in.timeline.snapshot()->info.hostname)) {
            const QString host = in.timeline.snapshot()->info.hostname;
            hostOrigins.insert(host, origin(inputs, host));
        }
    }
    EventStream events(out);
    events.raw("{\"traceEvents\":[\n");
    int pid = 0;
    QJsonArray sessions;
    for (const Input& in : inputs) {
        const TimelineModel& t = in.timeline;
        const SessionSnapshot& s = t.snapshot();
        if (s.isNull()) {
            continue;
        }
        const qint64 originNs = hostOrigins.value(s->info.hostname);
        QHash<int, QByteArray> kernels; // kernel index -> its name as a JSON string
        const auto jsonKernel = [&](int row) -> const QByteArray& {
            const int k = s->dispatches[std::size_t(row)].kernel;
            auto it = kernels.find(k);
            if (it == kernels.end()) {
                it = kernels.insert(k, jsonString(t.kernelName(row)));
            }
            return *it;
        };
        sessions.append(in.name);
        for (const ProcessInfo& process : s->processes) {
            ++pid;
            const QString command = process.argv.isEmpty() ? process.executable : process.argv;
            events.add(metadata(
                "process_name", pid, 0,
                {{QStringLiteral("name"),
                  QStringLiteral("%1: pid %2 %3").arg(in.name).arg(process.pid).arg(command).trimmed()}}));
            events.add(metadata("process_sort_index", pid, 0, {{QStringLiteral("sort_index"), pid}}));
            for (int l = 0; l < int(t.lanes().size()); ++l) {
                const TimelineLane& lane = t.lanes()[std::size_t(l)];
                if (lane.process != process.process) {
                    continue;
                }
                const int tid = l + 1;
                events.add(metadata("thread_name", pid, tid, {{QStringLiteral("name"), lane.label}}));
                events.add(metadata("thread_sort_index", pid, tid, {{QStringLiteral("sort_index"), tid}}));
                for (const TimelineWindow& w : lane.windows) {
                    const DispatchRow& r = s->dispatches[std::size_t(w.row)];
                    const QByteArray& kernel = jsonKernel(w.row);
                    QByteArray event = "{\"ph\":\"X\",\"cat\":\"window\",\"name\":" + kernel;
                    event += ",\"ts\":" + micros(w.startNs - originNs) + ",\"dur\":" + micros(w.durationNs) +
                             ",\"pid\":" + QByteArray::number(pid) + ",\"tid\":" + QByteArray::number(tid) +
                             ",\"args\":{\"dispatch\":" + QByteArray::number(r.id) + ",\"kernel\":" + kernel +
                             ",\"bytes\":" + QByteArray::number(r.snapshotBytes) +
                             ",\"passes\":" + QByteArray::number(r.passes);
                    if (r.restores > 0) {
                        event += ",\"moved_bytes\":" + QByteArray::number(r.movedBytes());
                    }
                    event += "}}";
                    events.addRaw(event);
                    const QByteArray tail = ",\"pid\":" + QByteArray::number(pid) +
                                            ",\"tid\":" + QByteArray::number(tid) +
                                            ",\"args\":{\"dispatch\":" + QByteArray::number(r.id) + "}}";
                    const TimelinePart* parts = t.partsOf(w);
                    for (int i = 0; i < w.partCount; ++i) {
                        events.addRaw(
                            "{\"ph\":\"X\",\"cat\":\"part\",\"name\":" + jsonString(parts[i].name()) +
                            ",\"ts\":" + micros(parts[i].startNs - originNs) +
                            ",\"dur\":" + micros(parts[i].durationNs) + tail);
                    }
                }
                for (const TimelineMark& m : lane.marks) {
                    if (!m.declined()) {
                        continue;
                    }
                    const DispatchRow& r = s->dispatches[std::size_t(m.row)];
                    const QString reason = t.decisionName(m.decision);
                    events.add(
                        {{QStringLiteral("ph"), QStringLiteral("i")},
                         {QStringLiteral("s"), QStringLiteral("t")},
                         {QStringLiteral("cat"), QStringLiteral("declined")},
                         {QStringLiteral("name"), QStringLiteral("declined: %1").arg(reason)},
                         {QStringLiteral("ts"), double(m.tsNs - originNs) / 1000.0},
                         {QStringLiteral("pid"), pid},
                         {QStringLiteral("tid"), tid},
                         {QStringLiteral("args"), QJsonObject{{QStringLiteral("dispatch"), r.id},
                                                              {QStringLiteral("kernel"), t.kernelName(m.row)},
                                                              {QStringLiteral("reason"), reason},
                                                              {QStringLiteral("bytes"), r.snapshotBytes}}}});
                }
            }
        }
    }
    events.raw("\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":");
    QJsonObject other{{QStringLiteral("sessions"), sessions},
                      {QStringLiteral("generator"), QStringLiteral("replayscope --export-trace")}};
    QJsonObject origins;
    for (auto it = hostOrigins.cbegin(); it != hostOrigins.cend(); ++it) {
        origins.insert(it.key(), QString::number(it.value()));
    }
    other.insert(QStringLiteral("host_origins_ns"), origins);
    if (hostOrigins.size() == 1) {
        other.insert(QStringLiteral("origin_ns"), QString::number(hostOrigins.first()));
    }
    events.raw(QJsonDocument(other).toJson(QJsonDocument::Compact));
    events.raw("}\n");
    events.flush();
    return events.ok();
}

bool TraceExporter::exportFiles(const QStringList& sessions, const QString& output, QString& error) {
    if (sessions.isEmpty()) {
        error = QStringLiteral("--export-trace: no session file given");
        return false;
    }
    std::vector<Input> inputs;
    inputs.reserve(std::size_t(sessions.size()));
    for (const QString& path : sessions) {
        SessionError e;
        const SessionSnapshot s = SessionLoader::loadAll(path, e, SessionLoader::Parts::withoutRegions);
        if (e.isError() || s.isNull()) {
            error = QStringLiteral("%1: %2: %3").arg(path, e.title(), e.message);
            return false;
        }
        inputs.push_back({QFileInfo(path).fileName(), TimelineModel(s)});
    }
    QSaveFile file(output);
    // 0600 like the session it is read from: it holds the same command lines, paths and kernel names.
    if (!file.open(QIODevice::WriteOnly) ||
        !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        error = QStringLiteral("%1: cannot write the trace: %2").arg(output, file.errorString());
        return false;
    }
    const bool written =
        formatOf(output) == Format::json ? write(inputs, file) : PerfettoTraceWriter::write(inputs, file);
    if (!written || !file.commit()) {
        error = QStringLiteral("%1: cannot write the trace: %2").arg(output, file.errorString());
        return false;
    }
    return true;
}

} // namespace rs::app
