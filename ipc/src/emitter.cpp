// SPDX-License-Identifier: MIT
#include "replayscope/ipc/emitter.h"

#include "record_queue.h"
#include "replayscope/ipc/environment.h"
#include "replayscope/ipc/frame_encoder.h"
#include "spool_writer.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace rs::ipc {

namespace {

constexpr std::size_t kSendBatchBytes = 256 * 1024;
constexpr std::size_t kMaxInternedTexts = 65536;
constexpr std::size_t kInventoryAgents = 64;
constexpr std::uint64_t kNoGeneration = ~std::uint64_t{0};

enum class State : int { idle, running, stopping, stopped, forked_child };

void sleep_ns(long ns) {
    timespec ts{0, ns};
    nanosleep(&ts, nullptr);
}

/// A random, non-zero instance id (getrandom; falls back to clock and pid mixing when it fails).
std::uint64_t draw_instance() noexcept {
    std::uint64_t value = 0;
    for (int attempt = 0; attempt < 4 && value == 0; ++attempt) {
        if (::getrandom(&value, sizeof value, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof value)) {
            value = 0;
            break;
        }
    }
    if (value == 0) { // splitmix64 of the clocks and the pid
        std::uint64_t z =
            monotonic_ns() ^ (wall_clock_ns() << 1) ^ (static_cast<std::uint64_t>(::getpid()) << 40);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        value = (z ^ (z >> 31)) | 1;
    }
    return value;
}

/// The token of the spool's Hello: not the session's secret, but the run's identity (REPLAYSCOPE_RUN_ID,
/// 16 hex characters) followed by '0's; all '0' without a valid run id (as spools of older builds).
std::string spool_token() {
    std::string token(HelloRecord::kTokenBytes, '0');
    if (const char* run_id = std::getenv(env::kRunId)) {
        const std::string_view id(run_id);
        if (id.size() == 16 && id.find_first_not_of("0123456789abcdef") == std::string_view::npos) {
            token.replace(0, id.size(), id);
        }
    }
    return token;
}

/// `path` with every "%p" replaced by `pid`.
std::string expand_pid(std::string path, pid_t pid) {
    const std::string text = std::to_string(pid);
    for (std::size_t at = path.find("%p"); at != std::string::npos; at = path.find("%p", at + text.size())) {
        path.replace(at, 2, text);
    }
    return path;
}

} // namespace

EmitterConfig EmitterConfig::from_environment() {
    EmitterConfig config;
    if (const char* v = std::getenv(env::kSocket)) {
        config.socket_path = v;
    }
    if (const char* v = std::getenv(env::kToken)) {
        config.token = v;
    }
    if (const char* v = std::getenv(env::kSpool)) {
        config.spool_path = v;
    }
    if (const char* v = std::getenv(env::kQueueCapacity)) {
        const unsigned long long n = std::strtoull(v, nullptr, 10);
        if (n > 0 && n <= (1ull << 24)) {
            config.queue_capacity = static_cast<std::size_t>(n);
        }
    }
    return config;
}

/// State shared by the producing threads and the sender thread of one Emitter.
class EmitterCore {
  public:
    EmitterCore(const EmitterConfig& config)
        : config_(config), queue_(config.queue_capacity), spool_(expand_pid(config.spool_path, ::getpid())),
          instance_(draw_instance()) {
        for (auto& slot : inventory_) {
            slot.agent.store(0, std::memory_order_relaxed);
            slot.generation.store(kNoGeneration, std::memory_order_relaxed);
        }
        spool_.set_hello(hello_record(spool_token()));
    }

    bool start_thread() noexcept;
    bool push(EventType type, const void* payload, std::size_t bytes) noexcept;
    bool stop(std::chrono::milliseconds timeout, std::uint64_t internal_errors,
              std::int32_t exit_status) noexcept;
    std::uint64_t instance() const noexcept { return instance_; }
    StringId intern(std::string_view text) noexcept;
    bool inventory_changed(std::uint64_t agent, std::uint64_t generation) noexcept;
    Emitter::Stats stats() const noexcept {
        // Every accepted record took exactly one sequence number (session_end included).
        return {next_sequence_.load(std::memory_order_relaxed) - 1, sent_.load(std::memory_order_relaxed),
                spooled_.load(std::memory_order_relaxed), lost_.load(std::memory_order_relaxed),
                connected_.load(std::memory_order_relaxed)};
    }
    State state() const noexcept { return state_.load(std::memory_order_acquire); }
    /// Emitter::drain.
    bool drain(std::chrono::milliseconds timeout) const noexcept {
        const State st = state();
        if (st == State::forked_child) {
            return false;
        }
        if (st != State::running && st != State::stopping) {
            return true;
        }
        // Every accepted record takes one sequence number and ends sent, spooled or lost (stats()).
        const std::uint64_t accepted = next_sequence_.load(std::memory_order_acquire) - 1;
        const auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(timeout.count(), 0));
        const std::uint64_t deadline = monotonic_ns() + ms * 1000000ull;
        for (;;) {
            const std::uint64_t out = sent_.load(std::memory_order_acquire) +
                                      spooled_.load(std::memory_order_acquire) +
                                      lost_.load(std::memory_order_acquire);
            if (out >= accepted || sender_done_.load(std::memory_order_acquire)) {
                return out >= accepted;
            }
            if (monotonic_ns() > deadline) {
                return false;
            }
            sleep_ns(200 * 1000);
        }
    }

    // Fork handling (see emitter.h).
    void prepare_fork() noexcept {
        intern_mutex_.lock();
        spool_.lock_for_fork();
    }
    void parent_after_fork() noexcept {
        spool_.unlock_after_fork();
        intern_mutex_.unlock();
    }
    void child_after_fork() noexcept {
        spool_.unlock_after_fork();
        intern_mutex_.unlock();
        state_.store(State::forked_child, std::memory_order_release);
        const int fd = socket_.exchange(-1);
        if (fd >= 0) {
            ::close(fd);
        }
        spool_.close_in_child();
        thread_started_ = false; // the sender thread does not exist in the child: never join it
    }

  private:
    static void* sender_main(void* self) noexcept;
    Record hello_record(std::string_view token) const noexcept;
    void abandon_socket() noexcept;
    void sender_loop() noexcept;
    void connect() noexcept;
    /// Sends the batch (`records` frames, highest sequence `batch_last_sequence`) to the socket, or
    /// what the socket did not take to the spool.
    void deliver(std::vector<std::uint8_t>& frames, std::vector<std::size_t>& frame_ends, std::size_t records,
                 std::uint64_t batch_last_sequence) noexcept;
    /// True when `sequence` may go to the socket: within kSequenceWindow of the last one sent there.
    /// deliver() of a batch whose frame at byte `jump_bytes` (record `jump_records`) is beyond the
    /// window: the frames before it go to the socket, it and the rest to the spool, the socket is closed.
    void deliver_around_jump(std::vector<std::uint8_t>& frames, std::vector<std::size_t>& frame_ends,
                             std::size_t records, std::size_t jump_bytes, std::size_t jump_records,
                             std::uint64_t before_highest, std::uint64_t highest) noexcept;
    bool within_window(std::uint64_t sequence) const noexcept {
        return sequence <= socket_sequence_ + window_;
    }
    bool send_all(const std::uint8_t* data, std::size_t size, std::size_t& sent_bytes) noexcept;
    bool past_deadline() const noexcept {
        const std::uint64_t d = deadline_ns_.load(std::memory_order_acquire);
        return d != 0 && monotonic_ns() > d;
    }

    EmitterConfig config_;
    RecordQueue queue_;
    SpoolWriter spool_;
    const std::uint64_t instance_;
    const std::uint64_t window_ =
        std::min(std::max<std::uint64_t>(config_.sequence_window, 1), kSequenceWindow);
    const std::uint32_t pid_ = static_cast<std::uint32_t>(::getpid());
    const std::uint32_t ppid_ = static_cast<std::uint32_t>(::getppid());
    /// Highest sequence written to the socket (sender thread only): the window rule's base.
    std::uint64_t socket_sequence_ = 0;
    // Written by producers on every emit: a cache line of their own, apart from the sender's counters
    // (false sharing with sent_ cost a cross-core line transfer per emit).
    alignas(64) std::atomic<State> state_{State::idle};
    std::atomic<int> in_flight_{0};
    std::atomic<std::uint64_t> next_sequence_{1};
    alignas(64) std::atomic<std::uint64_t> sent_{0}, spooled_{0}, lost_{0};
    std::atomic<std::uint64_t> internal_errors_{0}; ///< the engine's count, given to stop()
    std::atomic<std::int32_t> exit_status_{-1};     ///< given to stop()
    std::atomic<bool> connected_{false};
    std::atomic<int> socket_{-1};
    std::atomic<std::uint64_t> deadline_ns_{0};
    std::atomic<bool> sender_done_{false};
    pthread_t thread_{};
    bool thread_started_ = false;
    // Per-type counts: the sender counts what it consumed, the overflow path what it spooled (under
    // spool_'s lock via overflow_counts_ atomics).
    std::uint64_t sender_counts_[kEventTypeSlots] = {};
    std::atomic<std::uint64_t> overflow_counts_[kEventTypeSlots] = {};
    std::mutex intern_mutex_;
    std::unordered_map<std::string, StringId> interned_;
    std::atomic<StringId> next_string_id_{1};
    struct InventorySlot {
        std::atomic<std::uint64_t> agent;
        std::atomic<std::uint64_t> generation;
    };
    InventorySlot inventory_[kInventoryAgents];
};

// ---- fork registry ---------------------------------------------------------------------------------

namespace {
constexpr int kMaxCores = 8;
std::atomic<EmitterCore*> g_cores[kMaxCores];
std::once_flag g_atfork_once;

void for_each_core(void (EmitterCore::*fn)()) {
    for (auto& slot : g_cores) {
        if (EmitterCore* core = slot.load(std::memory_order_acquire)) {
            (core->*fn)();
        }
    }
}
void atfork_prepare() {
    for_each_core(&EmitterCore::prepare_fork);
}
void atfork_parent() {
    for_each_core(&EmitterCore::parent_after_fork);
}
void atfork_child() {
    for_each_core(&EmitterCore::child_after_fork);
}

bool register_core(EmitterCore* core) {
    std::call_once(g_atfork_once, [] { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); });
    for (auto& slot : g_cores) {
        EmitterCore* expected = nullptr;
        if (slot.compare_exchange_strong(expected, core)) {
            return true;
        }
    }
    return false;
}
void unregister_core(EmitterCore* core) {
    for (auto& slot : g_cores) {
        EmitterCore* expected = core;
        slot.compare_exchange_strong(expected, nullptr);
    }
}
} // namespace

// ---- producing side ----------------------------------------------------------------------------------

bool EmitterCore::push(EventType type, const void* payload, std::size_t bytes) noexcept {
    in_flight_.fetch_add(1, std::memory_order_acq_rel);
    if (state_.load(std::memory_order_acquire) != State::running) {
        in_flight_.fetch_sub(1, std::memory_order_release);
        return false;
    }
    const std::uint64_t sequence = next_sequence_.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t now = monotonic_ns();
    auto fill = [&](Record& r) {
        r.type = type;
        r.sequence = sequence;
        r.timestamp_ns = now;
        std::memcpy(static_cast<void*>(&r.hello), payload, bytes);
    };
    bool ok = true;
    if (!queue_.try_push(fill)) {
        Record overflow;
        fill(overflow);
        if (spool_.append_record(overflow)) {
            spooled_.fetch_add(1, std::memory_order_relaxed);
            overflow_counts_[static_cast<std::size_t>(type)].fetch_add(1, std::memory_order_relaxed);
        } else {
            lost_.fetch_add(1, std::memory_order_relaxed);
            ok = false;
        }
    }
    in_flight_.fetch_sub(1, std::memory_order_release);
    return ok;
}

StringId EmitterCore::intern(std::string_view text) noexcept {
    if (state_.load(std::memory_order_acquire) != State::running) {
        return 0;
    }
    StringId id = 0;
    try {
        std::lock_guard lock(intern_mutex_);
        if (auto it = interned_.find(std::string(text)); it != interned_.end()) {
            return it->second;
        }
        id = next_string_id_.fetch_add(1, std::memory_order_relaxed);
        if (interned_.size() < kMaxInternedTexts) {
            interned_.emplace(std::string(text), id);
        }
    } catch (...) {
        id = next_string_id_.fetch_add(1, std::memory_order_relaxed); // table full of memory: no dedup
    }
    StringRecord s;
    s.id = id;
    s.original_length = static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), UINT32_MAX));
    s.length = static_cast<std::uint16_t>(std::min(text.size(), kMaxStringBytes));
    std::memcpy(s.text, text.data(), s.length);
    push(EventType::string, &s, offsetof(StringRecord, text) + s.length);
    return id;
}

bool EmitterCore::inventory_changed(std::uint64_t agent, std::uint64_t generation) noexcept {
    for (auto& slot : inventory_) {
        std::uint64_t owner = slot.agent.load(std::memory_order_acquire);
        if (owner == 0) {
            std::uint64_t expected = 0;
            if (slot.agent.compare_exchange_strong(expected, agent)) {
                owner = agent;
            } else {
                owner = expected;
            }
        }
        if (owner == agent) {
            return slot.generation.exchange(generation, std::memory_order_acq_rel) != generation;
        }
    }
    return true; // more agents than slots: always emit
}

// ---- sender thread -----------------------------------------------------------------------------------

bool EmitterCore::start_thread() noexcept {
    if (!register_core(this)) {
        return false;
    }
    state_.store(State::running, std::memory_order_release);
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous); // the sender inherits a fully blocked mask
    const int rc = pthread_create(&thread_, nullptr, &EmitterCore::sender_main, this);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (rc != 0) {
        state_.store(State::stopped, std::memory_order_release);
        unregister_core(this);
        return false;
    }
    thread_started_ = true;
    return true;
}

void* EmitterCore::sender_main(void* self) noexcept {
    static_cast<EmitterCore*>(self)->sender_loop();
    return nullptr;
}

void EmitterCore::connect() noexcept {
    if (config_.socket_path.empty() || config_.socket_path.size() >= sizeof(sockaddr_un::sun_path)) {
        return;
    }
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return;
    }
    timeval connect_timeout{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &connect_timeout, sizeof connect_timeout);
    int sndbuf = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, config_.socket_path.c_str(), config_.socket_path.size() + 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return;
    }
    timeval send_timeout{0, 50 * 1000}; // blocking sends wake every 50 ms to look at the deadline
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
    socket_.store(fd);
    const Record hello = hello_record(config_.token);
    try {
        flatbuffers::FlatBufferBuilder builder(256);
        std::vector<std::uint8_t> frame;
        append_frame(hello, builder, frame);
        std::size_t sent = 0;
        if (send_all(frame.data(), frame.size(), sent)) {
            connected_.store(true, std::memory_order_relaxed);
            return;
        }
    } catch (...) {
    }
    if (const int old = socket_.exchange(-1); old >= 0) {
        ::close(old);
    }
}

Record EmitterCore::hello_record(std::string_view token) const noexcept {
    Record hello{};
    hello.type = EventType::hello;
    std::memset(hello.hello.token, 0, sizeof hello.hello.token);
    std::memcpy(hello.hello.token, token.data(), std::min(token.size(), HelloRecord::kTokenBytes));
    hello.hello.pid = pid_;
    hello.hello.ppid = ppid_;
    hello.hello.instance = instance_;
    hello.hello.protocol_version = kProtocolVersion;
    return hello;
}

void EmitterCore::abandon_socket() noexcept {
    connected_.store(false, std::memory_order_relaxed);
    if (const int fd = socket_.exchange(-1); fd >= 0) {
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
    }
}

bool EmitterCore::send_all(const std::uint8_t* data, std::size_t size, std::size_t& sent_bytes) noexcept {
    sent_bytes = 0;
    const int fd = socket_.load();
    if (fd < 0) {
        return false;
    }
    while (sent_bytes < size) {
        const ssize_t n = ::send(fd, data + sent_bytes, size - sent_bytes, MSG_NOSIGNAL);
        if (n > 0) {
            sent_bytes += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !past_deadline()) {
            continue; // collector busy: keep trying until the stop deadline
        }
        return false;
    }
    return true;
}

void EmitterCore::deliver(std::vector<std::uint8_t>& frames, std::vector<std::size_t>& frame_ends,
                          std::size_t records, std::uint64_t batch_last_sequence) noexcept {
    std::size_t sent_bytes = 0;
    if (socket_.load() >= 0 && !past_deadline()) {
        if (send_all(frames.data(), frames.size(), sent_bytes)) {
            sent_.fetch_add(records, std::memory_order_relaxed);
            socket_sequence_ = std::max(socket_sequence_, batch_last_sequence);
            frames.clear();
            frame_ends.clear();
            return;
        }
        // Collector gone or too slow at stop: from here on everything goes to the spool.
        abandon_socket();
    }
    // Frames fully sent stay sent; the frame cut in the middle and the rest go to the spool whole.
    std::size_t first_unsent = 0, frame_start = 0, sent_records = 0;
    for (const std::size_t end : frame_ends) {
        if (end <= sent_bytes) {
            ++sent_records;
            frame_start = end;
        } else {
            break;
        }
    }
    first_unsent = frame_start;
    sent_.fetch_add(sent_records, std::memory_order_relaxed);
    const std::size_t unsent_records = records - sent_records;
    if (spool_.append_frames(frames.data() + first_unsent, frames.size() - first_unsent)) {
        spooled_.fetch_add(unsent_records, std::memory_order_relaxed);
    } else {
        lost_.fetch_add(unsent_records, std::memory_order_relaxed);
    }
    frames.clear();
    frame_ends.clear();
}

void EmitterCore::sender_loop() noexcept {
    connect();
    std::vector<std::uint8_t> frames;
    std::vector<std::size_t> frame_ends;
    std::unique_ptr<flatbuffers::FlatBufferBuilder> builder;
    try {
        frames.reserve(kSendBatchBytes + 4096);
        frame_ends.reserve(kSendBatchBytes / 32);
        builder = std::make_unique<flatbuffers::FlatBufferBuilder>(1024);
    } catch (...) {
        sender_done_.store(true, std::memory_order_release);
        return;
    }
    int idle_rounds = 0;
    constexpr std::size_t kNoJump = ~std::size_t{0};
    for (;;) {
        std::size_t records = 0;
        // Window rule (protocol 4): a record more than kSequenceWindow past the highest sequence the
        // collector has received (records spooled by the overflow path in between) would be rejected
        // there, so it and everything after it go to the spool instead.
        std::uint64_t highest = socket_sequence_;
        std::size_t jump_bytes = kNoJump, jump_records = 0;
        std::uint64_t jump_highest = 0;
        const bool on_socket = socket_.load(std::memory_order_relaxed) >= 0;
        try {
            while (frames.size() < kSendBatchBytes && jump_bytes == kNoJump &&
                   queue_.try_consume([&](const Record& r) {
                       if (on_socket && r.sequence > highest + window_) {
                           jump_bytes = frames.size();
                           jump_records = records;
                           jump_highest = highest;
                       }
                       append_frame(r, *builder, frames);
                       frame_ends.push_back(frames.size());
                       ++sender_counts_[static_cast<std::size_t>(r.type)];
                       highest = std::max(highest, r.sequence);
                   })) {
                ++records;
            }
        } catch (...) {
            // Out of memory while encoding: the batch so far is delivered; the record that failed is lost.
            lost_.fetch_add(1, std::memory_order_relaxed);
        }
        if (jump_bytes != kNoJump) {
            deliver_around_jump(frames, frame_ends, records, jump_bytes, jump_records, jump_highest, highest);
            idle_rounds = 0;
            continue;
        }
        if (records > 0) {
            deliver(frames, frame_ends, records, highest);
            idle_rounds = 0;
            continue;
        }
        const State state = state_.load(std::memory_order_acquire);
        if (state == State::stopping && in_flight_.load(std::memory_order_acquire) == 0 && queue_.empty()) {
            break;
        }
        sleep_ns(++idle_rounds < 20 ? 50 * 1000 : 250 * 1000);
    }
    // Session end: everything accepted, by type, and where it went.
    Record end{};
    end.type = EventType::session_end;
    end.sequence = next_sequence_.fetch_add(1, std::memory_order_relaxed);
    end.timestamp_ns = monotonic_ns();
    for (std::size_t i = 0; i < kEventTypeSlots; ++i) {
        end.session_end.counts[i] = sender_counts_[i] + overflow_counts_[i].load(std::memory_order_relaxed);
    }
    end.session_end.counts[static_cast<std::size_t>(EventType::session_end)] = 1;
    end.session_end.spooled = spooled_.load(std::memory_order_relaxed);
    end.session_end.last_sequence = end.sequence;
    end.session_end.internal_errors = internal_errors_.load(std::memory_order_acquire);
    end.session_end.exit_status = exit_status_.load(std::memory_order_acquire);
    try {
        if (!within_window(end.sequence)) {
            abandon_socket(); // the session end follows the spooled records into the spool
        }
        append_frame(end, *builder, frames);
        frame_ends.push_back(frames.size());
        deliver(frames, frame_ends, 1, end.sequence);
    } catch (...) {
        lost_.fetch_add(1, std::memory_order_relaxed);
    }
    abandon_socket();
    sender_done_.store(true, std::memory_order_release);
}

void EmitterCore::deliver_around_jump(std::vector<std::uint8_t>& frames, std::vector<std::size_t>& frame_ends,
                                      std::size_t records, std::size_t jump_bytes, std::size_t jump_records,
                                      std::uint64_t before_highest, std::uint64_t highest) noexcept {
    std::vector<std::uint8_t> tail;
    std::vector<std::size_t> tail_ends;
    try {
        tail.assign(frames.begin() + static_cast<std::ptrdiff_t>(jump_bytes), frames.end());
        for (std::size_t i = jump_records; i < frame_ends.size(); ++i) {
            tail_ends.push_back(frame_ends[i] - jump_bytes);
        }
    } catch (...) {
        // No memory for the split: the whole batch goes to the spool (nothing beyond the window is sent).
        abandon_socket();
        deliver(frames, frame_ends, records, highest);
        return;
    }
    frames.resize(jump_bytes);
    frame_ends.resize(jump_records);
    if (jump_records > 0) {
        deliver(frames, frame_ends, jump_records, before_highest);
    }
    abandon_socket();
    deliver(tail, tail_ends, records - jump_records, highest);
}

bool EmitterCore::stop(std::chrono::milliseconds timeout, std::uint64_t internal_errors,
                       std::int32_t exit_status) noexcept {
    // Written before the state change that the sender observes, read by it for the session-end record.
    internal_errors_.store(internal_errors, std::memory_order_release);
    exit_status_.store(exit_status, std::memory_order_release);
    State expected = State::running;
    if (!state_.compare_exchange_strong(expected, State::stopping)) {
        if (expected == State::forked_child) {
            return false; // the child owns no sender thread and no connection
        }
        return expected == State::stopped;
    }
    const auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(timeout.count(), 0));
    deadline_ns_.store(monotonic_ns() + ms * 1000000ull, std::memory_order_release);
    if (thread_started_) {
        pthread_join(thread_, nullptr);
        thread_started_ = false;
    }
    state_.store(State::stopped, std::memory_order_release);
    unregister_core(this);
    return lost_.load() == 0;
}

// ---- Emitter ---------------------------------------------------------------------------------------------

Emitter::Emitter() noexcept = default;

Emitter::~Emitter() {
    if (core_ && core_->state() == State::running) {
        core_->stop(std::chrono::milliseconds(500), 0, -1);
    } else if (core_ && core_->state() == State::forked_child) {
        unregister_core(core_.get());
        (void)core_.release(); // inherited from the parent: its queue may hold half-written slots; leak it
    }
}

bool Emitter::start(const EmitterConfig& config) noexcept {
    if (core_ || !config.enabled()) {
        return false;
    }
    try {
        core_ = std::make_unique<EmitterCore>(config);
    } catch (...) {
        return false;
    }
    if (!core_->start_thread()) {
        core_.reset();
        return false;
    }
    return true;
}

bool Emitter::stop(std::chrono::milliseconds timeout, std::uint64_t internal_errors,
                   std::int32_t exit_status) noexcept {
    return core_ ? core_->stop(timeout, internal_errors, exit_status) : true;
}

std::uint64_t Emitter::instance() const noexcept {
    return core_ ? core_->instance() : 0;
}

bool Emitter::drain(std::chrono::milliseconds timeout) const noexcept {
    return core_ ? core_->drain(timeout) : true;
}

bool Emitter::running() const noexcept {
    return core_ && core_->state() == State::running;
}

StringId Emitter::intern_string(std::string_view text) noexcept {
    return core_ ? core_->intern(text) : 0;
}

bool Emitter::push(EventType type, const void* payload, std::size_t bytes) noexcept {
    return core_ && core_->push(type, payload, bytes);
}

bool Emitter::emit_session_start(std::string_view executable, std::string_view argv,
                                 std::string_view hostname, std::string_view engine_version,
                                 std::string_view configuration) noexcept {
    SessionStartRecord s{};
    s.pid = static_cast<std::uint32_t>(::getpid());
    s.protocol_version = kProtocolVersion;
    s.wall_clock_ns = wall_clock_ns();
    s.executable = intern_string(executable);
    s.argv = intern_string(argv);
    s.hostname = intern_string(hostname);
    s.engine_version = intern_string(engine_version);
    s.configuration = intern_string(configuration);
    return push(EventType::session_start, &s, sizeof s);
}

bool Emitter::emit_event(const AgentRecord& r) noexcept {
    return push(EventType::agent, &r, sizeof r);
}
bool Emitter::emit_event(const AllocationRecord& r) noexcept {
    return push(EventType::allocation, &r, sizeof r);
}
bool Emitter::emit_event(const FreeRecord& r) noexcept {
    return push(EventType::free, &r, sizeof r);
}
bool Emitter::emit_event(const ExecutableRecord& r) noexcept {
    return push(EventType::executable_loaded, &r, sizeof r);
}
bool Emitter::emit_event(const ModuleVariableRecord& r) noexcept {
    return push(EventType::module_variable, &r, sizeof r);
}
bool Emitter::emit_event(const DispatchRecord& r) noexcept {
    return push(EventType::dispatch, &r, sizeof r);
}
bool Emitter::emit_event(const SnapshotRecord& r) noexcept {
    return push(EventType::snapshot, &r, sizeof r);
}
bool Emitter::emit_event(const SnapshotFailureRecord& r) noexcept {
    return push(EventType::snapshot_failure, &r, sizeof r);
}
bool Emitter::emit_event(const PassRecord& r) noexcept {
    return push(EventType::pass, &r, sizeof r);
}
bool Emitter::emit_event(const RestoreSkipRecord& r) noexcept {
    return push(EventType::restore_skip, &r, sizeof r);
}
bool Emitter::emit_event(const WarningRecord& r) noexcept {
    return push(EventType::warning, &r, sizeof r);
}
bool Emitter::emit_event(const FidelityMismatchRecord& r) noexcept {
    return push(EventType::fidelity_mismatch, &r, sizeof r);
}
bool Emitter::emit_event(const AsyncCopyRecord& r) noexcept {
    return push(EventType::async_copy, &r, sizeof r);
}
bool Emitter::emit_event(const RestoreFailureRecord& r) noexcept {
    return push(EventType::restore_failure, &r, sizeof r);
}
bool Emitter::emit_event(const SnapshotPlacementRecord& r) noexcept {
    return push(EventType::snapshot_placement, &r, sizeof r);
}
bool Emitter::emit_event(const RestoreRecord& r) noexcept {
    return push(EventType::restore, &r, sizeof r);
}
bool Emitter::emit_event(const RestoreMissRecord& r) noexcept {
    return push(EventType::restore_miss, &r, sizeof r);
}

bool Emitter::emit_event(const CounterValueRecord& r) noexcept {
    return push(EventType::counter_value, &r, sizeof r);
}

bool Emitter::emit_warning(WarningCode code, std::uint64_t dispatch_id, std::string_view text) noexcept {
    WarningRecord w{dispatch_id, intern_string(text), code};
    return emit_event(w);
}

bool Emitter::emit_inventory(std::uint64_t agent, std::uint64_t generation,
                             std::span<const InventoryRegion> regions) noexcept {
    if (!running() || !core_->inventory_changed(agent, generation)) {
        return false;
    }
    InventoryRecord inv{agent, generation, 0, static_cast<std::uint32_t>(regions.size())};
    for (const auto& region : regions) {
        inv.bytes += region.size;
    }
    push(EventType::inventory, &inv, sizeof inv);
    std::uint32_t index = 0;
    for (const auto& region : regions) {
        InventoryRegionRecord r{agent,   generation, region.address, region.size, region.allocation_id,
                                index++, region.kind};
        push(EventType::inventory_region, &r, sizeof r);
    }
    return true;
}

Emitter::Stats Emitter::stats() const noexcept {
    return core_ ? core_->stats() : Stats{0, 0, 0, 0, false};
}

} // namespace rs::ipc
