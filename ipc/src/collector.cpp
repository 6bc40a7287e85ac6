// SPDX-License-Identifier: MIT
#include "replayscope/ipc/collector.h"

#include "ingest_limits.h"

#include "replayscope/ipc/frame_decoder.h"
#include "replayscope/ipc/session_store.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdexcept>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace rs::ipc {

namespace {
constexpr auto kCommitInterval = std::chrono::milliseconds(200);
} // namespace

std::string make_session_token() {
    unsigned char bytes[32];
    std::size_t have = 0;
    while (have < sizeof bytes) {
        const ssize_t n = getrandom(bytes + have, sizeof bytes - have, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        have += static_cast<std::size_t>(n);
    }
    if (have < sizeof bytes) {
        const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        have = 0;
        while (fd >= 0 && have < sizeof bytes) {
            const ssize_t n = ::read(fd, bytes + have, sizeof bytes - have);
            if (n <= 0) {
                break;
            }
            have += static_cast<std::size_t>(n);
        }
        if (fd >= 0) {
            ::close(fd);
        }
        if (have < sizeof bytes) {
            throw std::runtime_error(
                "no randomness for the session token (getrandom and /dev/urandom failed)");
        }
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token(64, '0');
    for (std::size_t i = 0; i < sizeof bytes; ++i) {
        token[2 * i] = kHex[bytes[i] >> 4];
        token[2 * i + 1] = kHex[bytes[i] & 15];
    }
    return token;
}

// ---- SessionSocket ------------------------------------------------------------------------------------

namespace {

constexpr const char* kPidFile = "collector.pid";
constexpr const char* kDirectoryPrefix = "replayscope-";

/// Removes the non-directory entries of `directory` (a private socket directory), then the directory.
bool remove_socket_directory(const std::string& directory) {
    if (DIR* d = ::opendir(directory.c_str())) {
        const int dfd = ::dirfd(d);
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..") {
                ::unlinkat(dfd, name.c_str(), 0); // fails harmlessly for a subdirectory
            }
        }
        ::closedir(d);
    }
    return ::rmdir(directory.c_str()) == 0;
}

/// The pid in `directory`/collector.pid, 0 when there is none or it is not a number.
pid_t read_collector_pid(const std::string& directory) {
    const int fd =
        ::open((directory + "/" + kPidFile).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        return 0;
    }
    char text[32] = {};
    const ssize_t n = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (n <= 0) {
        return 0;
    }
    char* end = nullptr;
    const long pid = std::strtol(text, &end, 10);
    return pid > 0 && pid <= INT_MAX && (*end == '\n' || *end == '\0') ? static_cast<pid_t>(pid) : 0;
}

/// True when some process holds a flock on `directory`/collector.pid (a live collector); false when
/// the lock could be taken (then released) or the file cannot be opened.
bool pid_file_locked(const std::string& directory) {
    const int fd =
        ::open((directory + "/" + kPidFile).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        return false;
    }
    const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return locked;
}

} // namespace

std::string SessionSocket::base_directory() {
    if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg != nullptr && xdg[0] == '/') {
        struct stat st{};
        if (::stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) && ::access(xdg, W_OK | X_OK) == 0) {
            return xdg;
        }
    }
    return "/tmp";
}

std::size_t SessionSocket::remove_stale_socket_directories(const std::string& base) {
    std::size_t removed = 0;
    DIR* d = ::opendir(base.c_str());
    if (d == nullptr) {
        return 0;
    }
    std::vector<std::string> stale;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind(kDirectoryPrefix, 0) != 0) {
            continue;
        }
        const std::string directory = base + "/" + name;
        struct stat st{};
        if (::lstat(directory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
            continue; // not ours, or not a plain directory (a symlink is never followed)
        }
        const pid_t pid = read_collector_pid(directory);
        // A live collector holds an exclusive flock on its pid file for its whole life; the lock is
        // seen from any pid namespace, where kill(pid, 0) may name another process or none.
        if (pid > 0 && !pid_file_locked(directory) && ::kill(pid, 0) != 0 && errno == ESRCH) {
            stale.push_back(directory);
        }
    }
    ::closedir(d);
    for (const auto& directory : stale) {
        removed += remove_socket_directory(directory) ? 1 : 0;
    }
    return removed;
}

std::unique_ptr<SessionSocket> SessionSocket::create(std::string& error) {
    const std::string base = base_directory();
    remove_stale_socket_directories(base);
    std::string templ = base + "/" + kDirectoryPrefix + "XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
        error = "cannot create a private socket directory under " + base + ": " + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<SessionSocket> s(new SessionSocket());
    s->directory_ = templ;
    ::chmod(templ.c_str(), 0700);
    {
        const std::string pid_path = templ + "/" + kPidFile;
        const int fd = ::open(pid_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        const std::string text = std::to_string(::getpid()) + "\n";
        if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
            error = "cannot write " + pid_path + ": " + std::strerror(errno);
            if (fd >= 0) {
                ::close(fd);
            }
            return nullptr;
        }
        // Held until the destructor: tells a later collector's stale-directory cleanup that this one lives.
        ::flock(fd, LOCK_EX | LOCK_NB);
        s->pid_fd_ = fd;
    }
    s->path_ = templ + "/session.sock";
    if (s->path_.size() >= sizeof(sockaddr_un::sun_path)) {
        error = "socket path too long: " + s->path_;
        return nullptr;
    }
    s->fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s->fd_ < 0) {
        error = std::string("socket(): ") + std::strerror(errno);
        return nullptr;
    }
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, s->path_.c_str(), s->path_.size() + 1);
    if (::bind(s->fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(s->fd_, 128) != 0) {
        error = "cannot listen on " + s->path_ + ": " + std::strerror(errno);
        return nullptr;
    }
    return s;
}

SessionSocket::~SessionSocket() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
    if (pid_fd_ >= 0) {
        ::close(pid_fd_);
    }
    if (!directory_.empty()) {
        remove_socket_directory(directory_);
    }
}

// ---- Collector ----------------------------------------------------------------------------------------

/// One accepted connection: pending until its first frame is a valid Hello with the session token.
struct Collector::Connection {
    int fd = -1;
    pid_t peer_pid = 0; ///< SO_PEERCRED at accept
    bool authenticated = false;
    std::int64_t process = 0; ///< store process index once authenticated
    std::uint32_t pid = 0;    ///< from Hello
    std::chrono::steady_clock::time_point accepted_at;
    std::vector<std::uint8_t> partial; ///< bytes of an incomplete frame carried to the next read
    bool saw_end = false;              ///< its session_end frame arrived
};

std::unique_ptr<Collector> Collector::create(CollectorOptions options, std::string& error) {
    std::unique_ptr<Collector> c(new Collector());
    c->options_ = std::move(options);
    if (c->options_.max_payload == 0 || c->options_.max_payload > kMaxPayloadBytes) {
        c->options_.max_payload = kMaxPayloadBytes;
    }
    c->socket_ = SessionSocket::create(error);
    if (!c->socket_) {
        return nullptr;
    }
    try {
        c->token_ = make_session_token();
    } catch (const std::exception& e) {
        error = e.what();
        return nullptr;
    }
    c->store_ = SessionStore::open(
        c->options_.session_path,
        c->options_.overwrite ? SessionStore::Mode::overwrite : SessionStore::Mode::create, error);
    if (!c->store_) {
        return nullptr;
    }
    c->buffer_.resize(kReadBytes + kFrameHeaderBytes + kMaxPayloadBytes);
    return c;
}

Collector::~Collector() {
    finish(std::chrono::milliseconds(0));
}

const std::string& Collector::socket_path() const noexcept {
    return socket_->path();
}

void Collector::log(const std::string& line) const {
    if (options_.log) {
        options_.log(line);
    } else {
        std::fprintf(stderr, "replayscope: %s\n", line.c_str());
    }
}

bool Collector::log_limited(const std::string& reason, const std::string& line) {
    std::uint64_t count = 0;
    try {
        count = ++log_counts_[reason];
    } catch (...) {
        return false;
    }
    if (count <= kLoggedPerReason) {
        log(line);
        return true;
    }
    if (count == kLoggedPerReason + 1) {
        log("further \"" + reason + "\" lines are counted, not logged (totals at the end of the session)");
    }
    return false;
}

void Collector::refuse(const std::string& reason, const std::string& line) {
    ++refused_;
    log_limited(reason, line);
}

bool Collector::start() {
    if (thread_) {
        return false;
    }
    last_commit_ = std::chrono::steady_clock::now();
    try {
        thread_ = std::make_unique<std::thread>([this] { run(); });
    } catch (...) {
        return false;
    }
    return true;
}

bool Collector::can_accept() const noexcept {
    return pending_open_ < kMaxPendingConnections &&
           authenticated_open_ + pending_open_ < kMaxAuthenticatedConnections;
}

Collector::Connection* Collector::accept_connection(bool& more) {
    more = false;
    const int fd = ::accept4(socket_->fd(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) {
            more = true;
        } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            // Out of descriptors: the connection stays in the kernel's backlog (never is an accepted one
            // closed unread to make room); listen again shortly, once connections have ended.
            log_limited("accept failed", std::string("accept failed (") + std::strerror(errno) +
                                             "): new connections wait in the backlog");
            accept_backoff_until_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
        }
        return nullptr;
    }
    more = true;
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        refuse("SO_PEERCRED failed",
               "refused a connection: SO_PEERCRED failed: " + std::string(std::strerror(errno)));
        ::close(fd);
        return nullptr;
    }
    if (cred.uid != ::geteuid()) {
        refuse("other uid", "refused connection from pid " + std::to_string(cred.pid) + ": uid " +
                                std::to_string(cred.uid) + " is not the session's uid " +
                                std::to_string(::geteuid()));
        ::close(fd);
        return nullptr;
    }
    try {
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        c->peer_pid = cred.pid;
        c->accepted_at = std::chrono::steady_clock::now();
        connections_.push_back(std::move(c));
    } catch (...) {
        ::close(fd);
        more = false;
        return nullptr;
    }
    ++pending_open_;
    return connections_.back().get();
}

void Collector::close_connection(Connection& c, const std::string& reason) {
    if (c.fd < 0) {
        return;
    }
    ::close(c.fd);
    c.fd = -1;
    c.partial.clear();
    c.partial.shrink_to_fit();
    if (!c.authenticated) {
        --pending_open_;
    } else {
        --authenticated_open_;
        const bool normal = reason == "session end received";
        if (!normal && end_reason_.empty()) {
            end_reason_ = reason; // the first abnormal end; the processes table tells whose
        }
    }
}

namespace {

/// The pid that `peer` (a pid in the collector's pid namespace, from SO_PEERCRED) has in its own,
/// innermost pid namespace: the last number of the "NSpid:" line of /proc/PID/status (Linux 4.1 on; one
/// number when the peer shares the collector's namespace). 0 when that cannot be read: the process has
/// ended, or the kernel has no NSpid line.
std::uint32_t own_namespace_pid(pid_t peer) {
    char path[40];
    std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(peer));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return 0;
    }
    char text[8192];
    std::size_t total = 0;
    while (total + 1 < sizeof text) {
        const ssize_t n = ::read(fd, text + total, sizeof text - 1 - total);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        total += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text[total] = '\0';
    const char* line = std::strstr(text, "\nNSpid:");
    if (line == nullptr) {
        return 0;
    }
    unsigned long last = 0;
    for (const char* at = line + 7; *at != '\0' && *at != '\n';) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(at, &end, 10);
        if (end == at) {
            break;
        }
        last = value;
        at = end;
    }
    return last <= UINT32_MAX ? static_cast<std::uint32_t>(last) : 0;
}

/// How the pid a Hello claims compares with its peer's credentials.
enum class HelloPid {
    matches,    ///< the peer's pid, in the collector's namespace or in the peer's own
    unverified, ///< the peer has no pid in the collector's namespace, or its own pid cannot be read
    mismatch,   ///< neither: a pid of another process
};

/// Compares `claimed` (Hello.pid: getpid() of the emitter, in its own pid namespace) with `peer`
/// (SO_PEERCRED: the peer's pid translated into the collector's namespace, 0 when it has none there).
HelloPid check_hello_pid(std::uint32_t claimed, pid_t peer) {
    if (peer > 0 && claimed == static_cast<std::uint32_t>(peer)) {
        return HelloPid::matches;
    }
    if (peer <= 0) {
        return HelloPid::unverified;
    }
    // A peer in a nested pid namespace (a container) knows itself by another number than the one
    // SO_PEERCRED gives here.
    const std::uint32_t own = own_namespace_pid(peer);
    if (own == 0) {
        return HelloPid::unverified;
    }
    return own == claimed ? HelloPid::matches : HelloPid::mismatch;
}

} // namespace

bool Collector::authenticate(Connection& c, const Record& hello) {
    // Constant-time comparison: the time taken does not tell how many leading characters matched.
    unsigned char diff = token_.size() == HelloRecord::kTokenBytes ? 0 : 1;
    for (std::size_t i = 0; i < HelloRecord::kTokenBytes && i < token_.size(); ++i) {
        diff |= static_cast<unsigned char>(hello.hello.token[i] ^ token_[i]);
    }
    if (diff != 0) {
        refuse("wrong token",
               "refused connection from pid " + std::to_string(c.peer_pid) + ": wrong session token");
        close_connection(c, "wrong session token");
        return false;
    }
    if (authenticated_open_ >= kMaxAuthenticatedConnections) {
        refuse("too many connections", "refused connection from pid " + std::to_string(c.peer_pid) + ": " +
                                           std::to_string(kMaxAuthenticatedConnections) +
                                           " target connections are open already");
        close_connection(c, "too many connections");
        return false;
    }
    // The instance is the process's key: a Hello without one (protocol 1-3 senders, or forged) or with
    // one that another peer already uses would merge two processes' sequence spaces, and the second's
    // events would be dropped as duplicates.
    constexpr std::uint16_t kFirstInstanceProtocol = 4; // Hello.instance exists from protocol 4 on
    if (hello.hello.protocol_version < kFirstInstanceProtocol || hello.hello.instance == 0) {
        refuse("hello without instance",
               "refused connection from pid " + std::to_string(c.peer_pid) + ": " +
                   (hello.hello.instance == 0
                        ? std::string("hello without a process instance")
                        : "protocol version " + std::to_string(hello.hello.protocol_version) +
                              " is older than " + std::to_string(kFirstInstanceProtocol)));
        close_connection(c, "hello without instance");
        return false;
    }
    if (const auto known = instance_peers_.find(hello.hello.instance);
        known != instance_peers_.end() && known->second != c.peer_pid) {
        refuse("instance of another pid", "refused connection from pid " + std::to_string(c.peer_pid) +
                                              ": process instance " + std::to_string(hello.hello.instance) +
                                              " belongs to pid " + std::to_string(known->second));
        close_connection(c, "instance of another process");
        return false;
    }
    // The pid the Hello claims must be the peer's own (SO_PEERCRED, or its pid in its own namespace): a
    // client with the token cannot pass its process off as another. Refused like a wrong token.
    const HelloPid pid_check = check_hello_pid(hello.hello.pid, c.peer_pid);
    if (pid_check == HelloPid::mismatch) {
        refuse("hello pid mismatch", "refused connection from pid " + std::to_string(c.peer_pid) +
                                         ": its hello claims pid " + std::to_string(hello.hello.pid));
        close_connection(c, "hello pid mismatch");
        return false;
    }
    if (pid_check == HelloPid::unverified) {
        log_limited("hello pid unverified", "connection from pid " + std::to_string(c.peer_pid) +
                                                ": hello pid " + std::to_string(hello.hello.pid) +
                                                " not checked (the peer is outside this pid namespace or "
                                                "has ended); accepted");
    }
    const ProcessIdentity identity{hello.hello.instance, hello.hello.pid, hello.hello.ppid};
    const std::int64_t process = store_->process(identity);
    if (process <= 0) {
        log("session file write failed: " + store_->last_error());
        summary_.error = store_->last_error();
        close_connection(c, "session file write failed");
        return false;
    }
    try {
        instance_peers_.emplace(hello.hello.instance, c.peer_pid);
    } catch (...) {
        close_connection(c, "out of memory");
        return false;
    }
    c.authenticated = true;
    c.process = process;
    c.pid = hello.hello.pid;
    --pending_open_;
    ++authenticated_open_;
    ever_authenticated_.store(true, std::memory_order_release);
    log("target pid " + std::to_string(hello.hello.pid) + " connected (process " + std::to_string(process) +
        ", parent pid " + std::to_string(hello.hello.ppid) + ")");
    return true;
}

std::size_t Collector::consume_frames(Connection& c, const std::uint8_t* data, std::size_t size, bool& open) {
    std::size_t offset = 0;
    Record record;
    FrameHeader header{};
    open = true;
    while (offset < size) {
        std::size_t frame_bytes = 0;
        const FrameError err =
            decode_frame(data + offset, size - offset, options_.max_payload, record, header, frame_bytes);
        if (err == FrameError::incomplete) {
            break;
        }
        if (err != FrameError::none) {
            store_->note_rejected_frame(c.authenticated ? c.process : 0);
            if (c.authenticated) {
                log("closing connection of pid " + std::to_string(c.pid) + ": " + describe(err, header) +
                    " at stream offset +" + std::to_string(offset) + "; the events before it are kept");
            } else {
                refuse("bad first frame", "refused connection from pid " + std::to_string(c.peer_pid) + ": " +
                                              describe(err, header));
            }
            close_connection(c, "invalid frame: " + describe(err, header));
            open = false;
            return offset;
        }
        if (!c.authenticated) {
            if (record.type != EventType::hello) {
                refuse("first frame not hello", "refused connection from pid " + std::to_string(c.peer_pid) +
                                                    ": the first frame must be hello, got " +
                                                    std::string(event_type_name(record.type)));
                close_connection(c, "first frame was not hello");
                open = false;
                return offset;
            }
            if (!authenticate(c, record)) {
                open = false;
                return offset;
            }
        } else if (record.type == EventType::hello) {
            store_->note_rejected_frame(c.process);
            log("closing connection of pid " + std::to_string(c.pid) + ": unexpected second hello frame");
            close_connection(c, "unexpected hello");
            open = false;
            return offset;
        } else {
            const SequenceVerdict verdict = store_->check_sequence(c.process, record.sequence);
            if (verdict == SequenceVerdict::out_of_window) {
                store_->note_rejected_frame(c.process);
                log("closing connection of pid " + std::to_string(c.pid) + ": " +
                    std::string(event_type_name(record.type)) + " frame with sequence " +
                    std::to_string(record.sequence) +
                    " is outside the process's sequence window (more than " +
                    std::to_string(kSequenceWindow) + " past the highest received)");
                close_connection(c, "sequence outside the window");
                open = false;
                return offset;
            }
            c.saw_end = c.saw_end || record.type == EventType::session_end;
            if (verdict == SequenceVerdict::fresh) {
                if (!store_->insert(c.process, record)) {
                    // The open transaction was rolled back: its events count as missing, a session_end
                    // is kept and stored again. The connection stays open, so that the process's
                    // session_end (its sent counts) is still read and the next commits can succeed
                    // once space returns.
                    log_limited("session file write failed",
                                "session file write failed: " + store_->last_error() +
                                    " (the events of the transaction count as missing)");
                    summary_.error = store_->last_error();
                    rows_since_commit_ = 0;
                    offset += frame_bytes;
                    continue;
                }
                ++rows_since_commit_;
                if (record.type == EventType::dispatch) {
                    progress_dispatches_.fetch_add(1, std::memory_order_relaxed);
                }
            }
        }
        offset += frame_bytes;
    }
    return offset;
}

bool Collector::read_connection(Connection& c) {
    for (int rounds = 0; rounds < 16 && c.fd >= 0; ++rounds) {
        // The carried partial frame (< header + max payload) first, 8-aligned at the buffer's start.
        const std::size_t carried = c.partial.size();
        if (carried > 0) {
            std::memcpy(buffer_.data(), c.partial.data(), carried);
        }
        const std::size_t room = std::min(buffer_.size() - carried, kReadBytes);
        const ssize_t n = ::recv(c.fd, buffer_.data() + carried, room, 0);
        if (n > 0) {
            const std::size_t size = carried + static_cast<std::size_t>(n);
            bool open = true;
            const std::size_t used = consume_frames(c, buffer_.data(), size, open);
            progress_events_.store(store_->events_stored(), std::memory_order_relaxed);
            if (!open) {
                return false;
            }
            try {
                c.partial.assign(buffer_.data() + used, buffer_.data() + size);
            } catch (...) {
                close_connection(c, "out of memory");
                return false;
            }
            if (rows_since_commit_ >= kCommitRows) {
                return true; // let run() commit
            }
            continue;
        }
        if (n == 0) {
            if (!c.authenticated) {
                refuse("closed before hello", "refused connection from pid " + std::to_string(c.peer_pid) +
                                                  (c.partial.empty() ? ": closed before its hello"
                                                                     : ": closed inside its first frame"));
                close_connection(c, "closed before hello");
            } else if (!c.partial.empty()) {
                FrameHeader header{};
                std::memcpy(&header, c.partial.data(), std::min(c.partial.size(), kFrameHeaderBytes));
                log("connection of pid " + std::to_string(c.authenticated ? c.pid : c.peer_pid) +
                    " ended inside a frame: truncated frame (" + std::to_string(c.partial.size()) + " of " +
                    (c.partial.size() >= kFrameHeaderBytes ? std::to_string(kFrameHeaderBytes + header.length)
                                                           : "?") +
                    " bytes); the events before it are kept");
                close_connection(c, "truncated frame at end of stream");
            } else {
                close_connection(c, c.saw_end ? "session end received"
                                              : "connection closed without session end");
            }
            return false;
        }
        if (errno == EINTR) {
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return true;
        }
        log("connection error: " + std::string(std::strerror(errno)));
        close_connection(c, std::string("connection error: ") + std::strerror(errno));
        return false;
    }
    return true;
}

void Collector::close_expired_pending() {
    const auto now = std::chrono::steady_clock::now();
    for (auto& c : connections_) {
        if (c->fd >= 0 && !c->authenticated && now - c->accepted_at >= kHelloTimeout) {
            refuse("hello timeout", "refused connection from pid " + std::to_string(c->peer_pid) +
                                        ": no valid hello within " + std::to_string(kHelloTimeout.count()) +
                                        " ms");
            close_connection(*c, "no hello");
        }
    }
}

void Collector::commit_if_due(bool force) {
    const auto now = std::chrono::steady_clock::now();
    if (rows_since_commit_ >= kCommitRows ||
        (rows_since_commit_ > 0 && (force || now - last_commit_ >= kCommitInterval))) {
        if (!store_->commit()) {
            // Rolled back: the transaction's events count as missing (the store keeps them read).
            log_limited("session file commit failed",
                        "session file commit failed: " + store_->last_error() +
                            " (the events of the transaction count as missing)");
            summary_.error = store_->last_error();
        }
        rows_since_commit_ = 0;
        last_commit_ = now;
    }
}

void Collector::run() {
    std::vector<pollfd> fds;
    std::vector<Connection*> polled;
    while (!stop_.load(std::memory_order_acquire)) {
        fds.clear();
        polled.clear();
        const bool draining = draining_.load(std::memory_order_acquire);
        if (draining && !drain_started_) {
            // finish(): a target that connected and sent its frames before the end may not have been
            // read yet (on a loaded machine this thread can lag behind a short-lived emitter): what the
            // backlog and every pending connection hold is read once first, so that no connection is
            // closed unread. Then the ones still without a hello are refused: none of them is a target
            // on its way (the emitter sends its hello right after connect), and none may delay the end.
            drain_started_ = true;
            bool more = true;
            for (int i = 0; i < 64 && more && can_accept(); ++i) {
                if (Connection* c = accept_connection(more)) {
                    read_connection(*c);
                }
            }
            for (auto& c : connections_) {
                if (c->fd >= 0 && !c->authenticated) {
                    read_connection(*c);
                }
            }
            commit_if_due(false);
            for (auto& c : connections_) {
                if (c->fd >= 0 && !c->authenticated) {
                    refuse("no hello before the end", "refused connection from pid " +
                                                          std::to_string(c->peer_pid) +
                                                          ": no hello before the session ended");
                    close_connection(*c, "no hello");
                }
            }
        }
        const auto now = std::chrono::steady_clock::now();
        // A full pending set stops accepting: the connections wait in the backlog, none is dropped unread.
        const bool listening = now >= accept_backoff_until_ && can_accept();
        fds.push_back({listening ? socket_->fd() : -1, POLLIN, 0});
        for (auto& c : connections_) {
            if (c->fd >= 0) {
                fds.push_back({c->fd, POLLIN, 0});
                polled.push_back(c.get());
            }
        }
        const int rc = ::poll(fds.data(), static_cast<nfds_t>(fds.size()), draining ? 5 : 50);
        // Only authenticated connections count as activity: a pending client that drips bytes or a
        // stream of connects never delays finish().
        bool activity = false;
        // The connections already accepted are read before any new one is accepted.
        for (std::size_t i = 0; rc > 0 && i < polled.size(); ++i) {
            if (polled[i]->fd >= 0 && (fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) {
                read_connection(*polled[i]);
                activity = activity || polled[i]->authenticated;
                commit_if_due(false);
            }
        }
        if (rc > 0 && (fds[0].revents & POLLIN)) {
            // Everything queued on the listening socket, up to a bound per round; each new connection is
            // read at once (its hello is normally there already).
            bool more = true;
            for (int i = 0; i < 64 && more && can_accept(); ++i) {
                if (Connection* c = accept_connection(more)) {
                    read_connection(*c);
                    activity = activity || c->authenticated;
                    commit_if_due(false);
                }
            }
        }
        close_expired_pending();
        // Closed connections leave the list (their process rows stay in the store).
        connections_.erase(std::remove_if(connections_.begin(), connections_.end(),
                                          [](const std::unique_ptr<Connection>& c) { return c->fd < 0; }),
                           connections_.end());
        commit_if_due(false);
        if (draining) {
            idle_.store(!activity && authenticated_open_ == 0, std::memory_order_release);
        }
    }
    commit_if_due(true);
}

CollectorSummary Collector::finish(std::chrono::milliseconds drain) {
    if (finished_ || !store_) {
        return summary_;
    }
    finished_ = true;
    if (thread_) {
        const auto begun = std::chrono::steady_clock::now();
        const auto deadline = begun + drain;
        // A run whose target never authenticated still gets a short grace period for its connection.
        const auto grace = begun + std::min(drain, std::chrono::milliseconds(200));
        while (!ever_authenticated_.load(std::memory_order_acquire) &&
               std::chrono::steady_clock::now() < grace) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        draining_.store(true, std::memory_order_release);
        idle_.store(false, std::memory_order_release);
        while (!idle_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        stop_.store(true, std::memory_order_release);
        thread_->join();
        thread_.reset();
    }
    for (auto& c : connections_) {
        if (!c->authenticated) {
            ++refused_;
        }
        close_connection(*c, "collector stopped before the connection ended");
    }
    connections_.clear();
    if (end_reason_.empty()) {
        end_reason_ = ever_authenticated_.load() ? "session end received" : "no target connected";
    }
    if (!store_->finish(end_reason_)) {
        summary_.error = store_->last_error();
        log("session file could not be finalized: " + store_->last_error());
    }
    summary_.processes = store_->processes();
    summary_.events_stored = store_->committed_events();
    summary_.dispatches = 0;
    summary_.complete = !summary_.processes.empty();
    for (const auto& p : summary_.processes) {
        summary_.dispatches += p.dispatches;
        summary_.complete = summary_.complete && p.complete;
    }
    summary_.last_sequence = store_->last_sequence();
    summary_.gaps = store_->gaps().size();
    summary_.rejected_frames = store_->rejected_frames();
    summary_.refused_connections = refused_;
    summary_.log_counts.assign(log_counts_.begin(), log_counts_.end());
    std::string totals;
    for (const auto& [reason, count] : summary_.log_counts) {
        if (count > kLoggedPerReason) {
            totals += (totals.empty() ? "" : ", ") + reason + " " + std::to_string(count);
        }
    }
    if (!totals.empty()) {
        log("lines not logged in full, totals: " + totals);
    }
    summary_.connected = ever_authenticated_.load();
    if (end_reason_ == "session end received" && !summary_.complete && summary_.connected) {
        end_reason_ = "session end received, events missing";
    }
    summary_.end_reason = end_reason_;
    progress_events_.store(summary_.events_stored, std::memory_order_relaxed);
    progress_dispatches_.store(summary_.dispatches, std::memory_order_relaxed);
    store_.reset();
    return summary_;
}

} // namespace rs::ipc
