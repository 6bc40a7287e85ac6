#include "spool_writer.hpp"

#include "replayscope/ipc/frame.hpp"

#include <cerrno>
#include <fcntl.h>
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

bool SpoolWriter::writeLocked(const std::uint8_t* data, std::size_t size) noexcept {
    if (!openLocked()) {
        return false;
    }
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
