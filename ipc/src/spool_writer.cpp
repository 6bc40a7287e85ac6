#include "spool_writer.hpp"

#include "replayscope/ipc/frame.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::ipc {

SpoolWriter::~SpoolWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool SpoolWriter::openLocked() noexcept {
    if (fd_ >= 0) {
        return true;
    }
    if (path_.empty() || failed_) {
        return false;
    }
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    failed_ = fd_ < 0;
    return fd_ >= 0;
}

void SpoolWriter::setHello(const Record& hello) noexcept {
    std::lock_guard lock(mutex_);
    try {
        hello_frame_.clear();
        appendFrame(hello, builder_, hello_frame_);
    } catch (...) {
        hello_frame_.clear();
    }
}

bool SpoolWriter::writeLocked(const std::uint8_t* data, std::size_t size) noexcept {
    if (!openLocked()) {
        return false;
    }
    if (hello_frame_.empty()) {
        return writeAllLocked(data, size);
    }
    // Another writer of the same file (another process given the same path) may append between our
    // writes: under an exclusive flock, the file's size tells whether it did, and then our hello goes
    // first again, so that the importer attributes the frames that follow to us.
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
    struct stat st {};
    const bool other_writer =
        end_after_last_write_ < 0 || (::fstat(fd_, &st) == 0 && st.st_size != end_after_last_write_);
    bool ok = !other_writer || writeAllLocked(hello_frame_.data(), hello_frame_.size());
    ok = ok && writeAllLocked(data, size);
    end_after_last_write_ = ::fstat(fd_, &st) == 0 ? st.st_size : -1;
    ::flock(fd_, LOCK_UN);
    return ok;
}

bool SpoolWriter::writeAllLocked(const std::uint8_t* data, std::size_t size) noexcept {
    while (size > 0) {
        const ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool SpoolWriter::appendFrames(const std::uint8_t* data, std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    return writeLocked(data, size);
}

bool SpoolWriter::appendRecord(const Record& record) noexcept {
    std::lock_guard lock(mutex_);
    try {
        frame_.clear();
        appendFrame(record, builder_, frame_);
    } catch (...) {
        return false;
    }
    return writeLocked(frame_.data(), frame_.size());
}

void SpoolWriter::closeInChild() noexcept {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    failed_ = true;
}

} // namespace rs::ipc
