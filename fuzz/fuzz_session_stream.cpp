// SPDX-License-Identifier: MIT
// libFuzzer target: a frame stream into a session file (docs/reliability.md).
//
// The input is read as a spool or socket stream with nothing masked: sequence numbers, instances and
// every payload field come from the fuzzer. Frames are decoded (decode_frame) and fed to a SessionStore
// the way the collector and the spool importer feed theirs: a Hello names the process the frames after
// it belong to (frames before any Hello go to instance 0), each frame's sequence is checked
// (check_sequence) before it is inserted, a frame with an out-of-window sequence is counted
// (note_rejected_frame) and skipped. A bad frame is counted once and skipped: by its length only when its
// checksum matched (frame_bounds_trusted), otherwise by scanning to the next frame with magic and checksum
// (find_frame), as a spool reader resynchronises; the stream ends where no frame follows. Commits every 32
// frames, then finish(). The file lives in a temporary directory of this process.
//
// Findings, besides sanitizer reports: a store call failing on input the decoder accepted; stored or
// missing counts that exceed what the stream can justify (missing numbers are bounded by what was
// received, never by a number a frame claims); a finished file that check_session_file refuses. The store
// may itself refuse (count as rejected) a frame the decoder accepted.
#include "frame_stream.h"

#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/session_store.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <unistd.h>

namespace {

using namespace rs::ipc;

[[noreturn]] void finding(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz_session_stream: %s %s\n", what, detail.c_str());
    std::abort();
}

/// Removes the session file `path` and its -wal, -shm and -journal files.
void remove_session(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((path + suffix).c_str());
    }
}

/// The per-process directory holding the session file (created on first use, never freed: the atexit
/// handler that removes it runs after static destructors).
const std::string& session_directory() {
    static const std::string* const directory = [] {
        const char* tmp = std::getenv("TMPDIR");
        auto* pattern =
            new std::string(std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/rs-fuzz-XXXXXX");
        if (::mkdtemp(pattern->data()) == nullptr) {
            finding("mkdtemp failed for", *pattern);
        }
        std::atexit([] {
            const std::string& d = session_directory();
            remove_session(d + "/session.rsdb");
            ::rmdir(d.c_str());
        });
        return pattern;
    }();
    return *directory;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = session_directory() + "/session.rsdb";
    remove_session(path);
    std::string error;
    auto store = SessionStore::open(path, SessionStore::Mode::create, error);
    if (!store) {
        finding("open:", error);
    }

    std::int64_t process = 0;
    std::uint64_t frames = 0, inserted = 0, rejected = 0, hellos = 0;
    std::size_t at = 0;
    while (at < size) {
        const rs::fuzz::DecodedFrame frame = rs::fuzz::decode_frame_at(data, size, at);
        if (frame.error != FrameError::none) {
            // One rejected frame per bad region; its own length is used only when its checksum matched.
            store->note_rejected_frame(process);
            ++rejected;
            if (frame_bounds_trusted(frame.error, frame.header)) {
                at += kFrameHeaderBytes + frame.header.length;
                continue;
            }
            const FrameScan scan = find_frame(data + at, size - at, 1, true, kMaxPayloadBytes);
            if (scan.need_more || scan.offset == 0 || scan.offset > size - at) {
                finding("find_frame out of bounds:", std::to_string(scan.offset));
            }
            if (!scan.found) {
                break; // no frame follows: the rest of the stream is damage
            }
            at += scan.offset;
            continue;
        }
        const Record& record = frame.record;
        at += frame.bytes;
        ++frames;
        if (record.type == EventType::hello) {
            ++hellos;
            process = store->process({record.hello.instance, record.hello.pid, record.hello.ppid});
            if (process <= 0) {
                finding("process() failed:", store->last_error());
            }
            continue;
        }
        if (process == 0) {
            process = store->process({0, 0, 0});
            if (process <= 0) {
                finding("process() failed for instance 0:", store->last_error());
            }
        }
        switch (store->check_sequence(process, record.sequence)) {
        case SequenceVerdict::fresh:
            if (!store->insert(process, record)) {
                finding("insert failed:", store->last_error());
            }
            ++inserted;
            break;
        case SequenceVerdict::duplicate:
            break;
        case SequenceVerdict::out_of_window:
            store->note_rejected_frame(process);
            ++rejected;
            break;
        }
        if (frames % 32 == 0 && !store->commit()) {
            finding("commit failed:", store->last_error());
        }
    }
    if (!store->finish("fuzz")) {
        finding("finish failed:", store->last_error());
    }
    // The store may refuse a frame the decoder accepted for what it holds (a forged dispatch id beyond
    // what its keys hold, say): such a frame is counted as rejected, not stored.
    if (store->rejected_frames() < rejected) {
        finding("rejected count",
                std::to_string(store->rejected_frames()) + " < " + std::to_string(rejected));
    }
    const std::uint64_t refused_by_store = store->rejected_frames() - rejected;
    if (store->committed_events() != store->events_stored() ||
        store->committed_events() + refused_by_store > inserted) {
        finding("stored count", std::to_string(store->committed_events()) + " + " +
                                    std::to_string(refused_by_store) + " refused of " +
                                    std::to_string(inserted));
    }
    std::uint64_t stored = 0;
    const auto processes = store->processes();
    if (processes.size() > hellos + 1) {
        finding("process count", std::to_string(processes.size()));
    }
    for (const auto& p : processes) {
        stored += p.events_stored;
        // Missing numbers lie between numbers received (or up to a session_end's last_sequence within the
        // window of the highest received): at most a window per received frame, plus one.
        if (p.missing > (p.events_stored + p.rejected_frames + 1) * kSequenceWindow ||
            p.last_sequence >= kMaxSequence) {
            finding("implausible gap account",
                    "missing " + std::to_string(p.missing) + " last " + std::to_string(p.last_sequence));
        }
        if (p.complete && p.missing != 0) {
            finding("complete process with missing events");
        }
    }
    if (stored != store->committed_events()) {
        finding("per-process stored sum", std::to_string(stored));
    }
    std::uint64_t gap_count = 0;
    for (const auto& g : store->gaps()) {
        if (g.first == 0 || g.first > g.second) {
            finding("bad gap");
        }
        ++gap_count;
    }
    if (gap_count > inserted + processes.size()) {
        finding("more gaps than frames");
    }
    store.reset();
    const rs::session::FileCheck check = rs::session::check_session_file(path);
    if (!check.ok) {
        finding("finished file refused:", check.message);
    }
    return 0;
}
