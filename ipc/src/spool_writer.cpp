// SPDX-License-Identifier: MIT
#include "spool_writer.h"

#include "replayscope/ipc/frame_encoder.h"

#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rs::ipc {

SpoolWriter::~SpoolWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

namespace {

/// Creates a new spool beside `path` in its directory: `path` itself, else `path.1`, `path.2`, ... up to
/// kMaxSuffix, whichever name is free. The directory is opened without following a symbolic link in its
/// place and must belong to this user or root; the file is created with O_EXCL | O_NOFOLLOW, so neither an
/// existing file nor a symbolic link planted under the name is ever opened. Returns the descriptor, or -1.
int create_spool(const std::string& path) noexcept {
    constexpr int kMaxSuffix = 99;
    try {
        const auto slash = path.rfind('/');
        const std::string dir = slash == std::string::npos ? std::string(".")
                                : slash == 0               ? std::string("/")
                                                           : path.substr(0, slash);
        const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
        const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir_fd < 0) {
            return -1;
        }
        struct stat dir_st{};
        // A directory of another user (one that replaced ours, say) is not written into; root's (such as
        // /tmp, for spools set by hand) is: only root could have put it there.
        if (::fstat(dir_fd, &dir_st) != 0 || (dir_st.st_uid != ::geteuid() && dir_st.st_uid != 0)) {
            ::close(dir_fd);
            return -1;
        }
        int fd = -1;
        for (int suffix = 0; fd < 0 && suffix <= kMaxSuffix; ++suffix) {
            const std::string candidate = suffix == 0 ? name : name + "." + std::to_string(suffix);
            // O_RDWR: the shared lock of open_locked needs a descriptor open for reading.
            fd = ::openat(dir_fd, candidate.c_str(),
                          O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
            if (fd < 0 && errno != EEXIST && errno != ELOOP && errno != EINTR) {
                break; // no room, no permission: no spool
            }
        }
        ::close(dir_fd);
        return fd;
    } catch (...) {
        return -1; // no memory for the name
    }
}

} // namespace

bool SpoolWriter::open_locked() noexcept {
    if (fd_ >= 0) {
        return true;
    }
    if (path_.empty() || failed_) {
        return false;
    }
    fd_ = create_spool(path_);
    failed_ = fd_ < 0;
    if (fd_ >= 0) {
        // For as long as this writer lives: a shared open-file-description lock on byte 0 says "still
        // being written" (SpoolImporter::writer_alive). Independent of the flock the writes take.
        struct flock alive{};
        alive.l_type = F_RDLCK;
        alive.l_whence = SEEK_SET;
        alive.l_start = 0;
        alive.l_len = 1;
        ::fcntl(fd_, F_OFD_SETLK, &alive);
    }
    return fd_ >= 0;
}

void SpoolWriter::set_hello(const Record& hello) noexcept {
    std::lock_guard lock(mutex_);
    try {
        hello_frame_.clear();
        append_frame(hello, builder_, hello_frame_);
    } catch (...) {
        hello_frame_.clear();
    }
}

bool SpoolWriter::write_locked(const std::uint8_t* data, std::size_t size) noexcept {
    if (!open_locked()) {
        return false;
    }
    // Another writer of the same file (another process given the same path) may append between our
    // writes: under an exclusive flock, the file's size tells whether it did, and then our hello goes
    // first again, so that the importer attributes the frames that follow to us. The lock also makes
    // the size before this write the end of the last complete frame, to go back to after a short write.
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
    struct stat st{};
    const off_t before = ::fstat(fd_, &st) == 0 ? st.st_size : -1;
    const bool other_writer =
        !hello_frame_.empty() && (end_after_last_write_ < 0 || before != end_after_last_write_);
    bool ok = !other_writer || write_all_locked(hello_frame_.data(), hello_frame_.size());
    ok = ok && write_all_locked(data, size);
    if (!ok && before >= 0) {
        // A short write (ENOSPC, EFBIG, EIO) left a torn frame: cut the file back to the last complete
        // frame, so that what is appended once the error clears still reads. The records of this write
        // are lost (the caller counts them); the hello goes first again when it was part of this write.
        while (::ftruncate(fd_, before) != 0 && errno == EINTR) {
        }
        end_after_last_write_ = other_writer ? -1 : before;
    } else {
        end_after_last_write_ = ::fstat(fd_, &st) == 0 ? st.st_size : -1;
    }
    ::flock(fd_, LOCK_UN);
    return ok;
}

bool SpoolWriter::write_all_locked(const std::uint8_t* data, std::size_t size) noexcept {
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

bool SpoolWriter::append_frames(const std::uint8_t* data, std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    return write_locked(data, size);
}

bool SpoolWriter::append_record(const Record& record) noexcept {
    std::lock_guard lock(mutex_);
    try {
        frame_.clear();
        append_frame(record, builder_, frame_);
    } catch (...) {
        return false;
    }
    return write_locked(frame_.data(), frame_.size());
}

void SpoolWriter::close_in_child() noexcept {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    failed_ = true;
}

} // namespace rs::ipc
