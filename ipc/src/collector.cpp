#include "replayscope/ipc/collector.hpp"

#include "replayscope/ipc/session_store.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace rs::ipc {

namespace {
constexpr std::size_t kCommitRows = 10000;
constexpr auto kCommitInterval = std::chrono::milliseconds(200);
constexpr std::size_t kReadBytes = 1 << 20;
} // namespace

std::string makeSessionToken() {
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

std::unique_ptr<SessionSocket> SessionSocket::create(std::string& error) {
    std::string base = "/tmp";
    if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg != nullptr && xdg[0] == '/') {
        struct stat st {};
        if (::stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) && ::access(xdg, W_OK | X_OK) == 0) {
            base = xdg;
        }
    }
    std::string templ = base + "/replayscope-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
        error = "cannot create a private socket directory under " + base + ": " + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<SessionSocket> s(new SessionSocket());
    s->directory_ = templ;
    ::chmod(templ.c_str(), 0700);
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
        ::listen(s->fd_, 4) != 0) {
        error = "cannot listen on " + s->path_ + ": " + std::strerror(errno);
        return nullptr;
    }
    return s;
}

SessionSocket::~SessionSocket() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
    if (!path_.empty()) {
        ::unlink(path_.c_str());
    }
    if (!directory_.empty()) {
        ::rmdir(directory_.c_str());
    }
}

// ---- Collector ----------------------------------------------------------------------------------------

std::unique_ptr<Collector> Collector::create(CollectorOptions options, std::string& error) {
    std::unique_ptr<Collector> c(new Collector());
    c->options_ = std::move(options);
    c->socket_ = SessionSocket::create(error);
    if (!c->socket_) {
        return nullptr;
    }
    try {
        c->token_ = makeSessionToken();
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

const std::string& Collector::socketPath() const noexcept {
    return socket_->path();
}

void Collector::log(const std::string& line) const {
    if (options_.log) {
        options_.log(line);
    } else {
        std::fprintf(stderr, "replayscope: %s\n", line.c_str());
    }
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

void Collector::acceptConnection() {
    const int fd = ::accept4(socket_->fd(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
        return;
    }
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        log("refused a connection: SO_PEERCRED failed: " + std::string(std::strerror(errno)));
        ::close(fd);
        return;
    }
    if (cred.uid != ::geteuid()) {
        log("refused connection from pid " + std::to_string(cred.pid) + ": uid " + std::to_string(cred.uid) +
            " is not the session's uid " + std::to_string(::geteuid()));
        ::close(fd);
        return;
    }
    if (had_connection_) {
        log("refused second connection from pid " + std::to_string(cred.pid) +
            ": this session already has its target connection (one connection per session)");
        ::close(fd);
        return;
    }
    had_connection_ = true;
    accepted_.store(true, std::memory_order_release);
    connection_ = fd;
    authenticated_ = false;
    buffered_ = 0;
}

void Collector::closeConnection(const std::string& reason) {
    if (connection_ >= 0) {
        ::close(connection_);
        connection_ = -1;
    }
    if (end_reason_.empty()) {
        end_reason_ = reason;
    }
    connection_done_.store(true, std::memory_order_release);
}

bool Collector::consumeFrames() {
    std::size_t offset = 0;
    Record record;
    FrameHeader header{};
    while (offset < buffered_) {
        std::size_t frame_bytes = 0;
        const FrameError err = decodeFrame(buffer_.data() + offset, buffered_ - offset, options_.max_payload,
                                           record, header, frame_bytes);
        if (err == FrameError::incomplete) {
            break;
        }
        if (err != FrameError::none) {
            log("closing connection: " + describe(err, header) + " at stream offset +" +
                std::to_string(offset) + "; " + std::to_string(store_->eventsStored()) +
                " events before it are kept");
            closeConnection("invalid frame: " + describe(err, header));
            return false;
        }
        if (!authenticated_) {
            if (record.type != EventType::hello) {
                log("closing connection: the first frame must be hello, got " +
                    std::string(eventTypeName(record.type)));
                closeConnection("first frame was not hello");
                return false;
            }
            if (token_.size() != HelloRecord::kTokenBytes ||
                std::memcmp(record.hello.token, token_.data(), HelloRecord::kTokenBytes) != 0) {
                log("refused connection from pid " + std::to_string(record.hello.pid) +
                    ": wrong session token");
                closeConnection("wrong session token");
                return false;
            }
            authenticated_ = true;
            summary_.connected = true;
            log("target pid " + std::to_string(record.hello.pid) + " connected");
        } else if (record.type == EventType::hello) {
            log("closing connection: unexpected second hello frame");
            closeConnection("unexpected hello");
            return false;
        } else {
            if (!store_->insert(record)) {
                log("session file write failed: " + store_->lastError());
                summary_.error = store_->lastError();
                closeConnection("session file write failed");
                return false;
            }
            ++rows_since_commit_;
            if (record.type == EventType::dispatch) {
                progress_dispatches_.fetch_add(1, std::memory_order_relaxed);
            }
        }
        offset += frame_bytes;
    }
    // Keep the partial frame at the start of the (8-aligned) buffer.
    if (offset > 0) {
        std::memmove(buffer_.data(), buffer_.data() + offset, buffered_ - offset);
        buffered_ -= offset;
    }
    progress_events_.store(store_->eventsStored(), std::memory_order_relaxed);
    return true;
}

bool Collector::readConnection() {
    for (int rounds = 0; rounds < 64; ++rounds) {
        const std::size_t room = buffer_.size() - buffered_;
        const ssize_t n = ::recv(connection_, buffer_.data() + buffered_, std::min(room, kReadBytes), 0);
        if (n > 0) {
            buffered_ += static_cast<std::size_t>(n);
            if (!consumeFrames()) {
                return false;
            }
            if (rows_since_commit_ >= kCommitRows) {
                return true; // let run() commit
            }
            continue;
        }
        if (n == 0) {
            if (buffered_ > 0) {
                FrameHeader header{};
                std::memcpy(&header, buffer_.data(), std::min(buffered_, kFrameHeaderBytes));
                log("connection ended inside a frame: truncated frame (" + std::to_string(buffered_) +
                    " of " +
                    (buffered_ >= kFrameHeaderBytes ? std::to_string(kFrameHeaderBytes + header.length)
                                                    : "?") +
                    " bytes); " + std::to_string(store_->eventsStored()) + " events before it are kept");
                closeConnection("truncated frame at end of stream");
            } else {
                closeConnection(store_->sawSessionEnd() ? "session end received"
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
        closeConnection(std::string("connection error: ") + std::strerror(errno));
        return false;
    }
    return true;
}

void Collector::run() {
    while (!stop_.load(std::memory_order_acquire)) {
        pollfd fds[2] = {{socket_->fd(), POLLIN, 0}, {connection_, POLLIN, 0}};
        const int nfds = connection_ >= 0 ? 2 : 1;
        const int rc = ::poll(fds, static_cast<nfds_t>(nfds), 50);
        if (rc > 0 && (fds[0].revents & POLLIN)) {
            acceptConnection();
        }
        if (rc > 0 && nfds == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            readConnection();
        }
        const auto now = std::chrono::steady_clock::now();
        if (rows_since_commit_ >= kCommitRows ||
            (rows_since_commit_ > 0 && now - last_commit_ >= kCommitInterval)) {
            if (!store_->commit()) {
                log("session file commit failed: " + store_->lastError());
                summary_.error = store_->lastError();
            }
            rows_since_commit_ = 0;
            last_commit_ = now;
        }
    }
}

CollectorSummary Collector::finish(std::chrono::milliseconds drain) {
    if (finished_ || !store_) {
        return summary_;
    }
    finished_ = true;
    if (thread_) {
        const auto deadline = std::chrono::steady_clock::now() + drain;
        const auto grace = std::chrono::steady_clock::now() + std::min(drain, std::chrono::milliseconds(200));
        // Wait for the connection to end; a target that never connected gets a short grace period.
        while (!connection_done_.load(std::memory_order_acquire) &&
               std::chrono::steady_clock::now() <
                   (accepted_.load(std::memory_order_acquire) ? deadline : grace)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        stop_.store(true, std::memory_order_release);
        thread_->join();
        thread_.reset();
    }
    if (connection_ >= 0) {
        closeConnection("collector stopped before the connection ended");
    }
    if (end_reason_.empty()) {
        end_reason_ = summary_.connected ? "connection closed without session end" : "no target connected";
    }
    if (!store_->finish(end_reason_)) {
        summary_.error = store_->lastError();
        log("session file could not be finalized: " + store_->lastError());
    }
    summary_.events_stored = store_->eventsStored();
    summary_.dispatches = progress_dispatches_.load(std::memory_order_relaxed);
    summary_.last_sequence = store_->lastSequence();
    summary_.gaps = store_->gaps().size();
    summary_.complete = store_->sawSessionEnd() && summary_.gaps == 0;
    summary_.end_reason = end_reason_;
    progress_events_.store(summary_.events_stored, std::memory_order_relaxed);
    store_.reset();
    return summary_;
}

// ---- SpoolImporter ------------------------------------------------------------------------------------

SpoolImporter::Result SpoolImporter::import(const std::string& spool_path, const std::string& session_path) {
    Result result;
    const int fd = ::open(spool_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        result.message = spool_path + ": cannot open: " + std::strerror(errno);
        return result;
    }
    std::vector<std::uint8_t> data;
    {
        std::uint8_t chunk[1 << 16];
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                break;
            }
            data.insert(data.end(), chunk, chunk + n);
        }
        ::close(fd);
    }
    std::string error;
    auto store = SessionStore::open(session_path, SessionStore::Mode::append, error);
    if (!store) {
        result.message = error;
        return result;
    }
    std::size_t offset = 0;
    Record record;
    FrameHeader header{};
    while (offset < data.size()) {
        std::size_t frame_bytes = 0;
        const FrameError err = decodeFrame(data.data() + offset, data.size() - offset, kMaxPayloadBytes,
                                           record, header, frame_bytes);
        if (err != FrameError::none) {
            result.message = spool_path + ": " + describe(err, header) + " at offset " +
                             std::to_string(offset) + "; import stopped there, " +
                             std::to_string(result.frames_read) + " frames before it imported";
            break;
        }
        if (!store->insert(record)) {
            result.message = session_path + ": " + store->lastError();
            return result;
        }
        ++result.frames_read;
        offset += frame_bytes;
    }
    result.events_stored = store->eventsStored();
    if (!store->finish(store->sawSessionEnd() ? "session end received"
                                              : "connection closed without session end")) {
        result.message = session_path + ": " + store->lastError();
        return result;
    }
    result.complete = store->sawSessionEnd() && store->gaps().empty();
    result.ok = true;
    return result;
}

} // namespace rs::ipc
