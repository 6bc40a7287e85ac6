// SPDX-License-Identifier: MIT
#include "wal_limit_vfs.h"

#include "replayscope/ipc/session_store.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace rs::ipc {

bool disk_full(int rc) {
    return rc == ENOSPC || rc == EDQUOT || rc == EFBIG;
}

namespace {

/// A -wal file (or any other file) opened through the VFS: the default VFS's file after it, the limit.
struct GuardedFile {
    sqlite3_file base;
    /// Writes end before this offset (-1: no limit) unless the file can first be extended to keep
    /// SessionStore::kWalEndBytes allocated after them. Set through SQLITE_FCNTL_JOURNAL_POINTER by the
    /// one thread that uses the connection.
    long long limit;
    const char* name;   ///< the file's path (valid until xClose)
    int fd;             ///< a descriptor of it for posix_fallocate (-1: not opened yet)
    sqlite3_file* real; ///< the default VFS's file, allocated right after this struct
};

/// Makes room for a write that ends at `end` past `g`'s limit: allocates kWalReserveBytes (else
/// kWalEndBytes) after it, so that the end rows' part stays allocated; false when the disk has not that
/// much room.
bool grow_guarded(GuardedFile* g, long long offset, long long end) {
    if (g->fd < 0 && g->name != nullptr) {
        g->fd = ::open(g->name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    }
    if (g->fd < 0) {
        return false;
    }
    for (const long long extra : {SessionStore::kWalReserveBytes, SessionStore::kWalEndBytes}) {
        const int rc = ::posix_fallocate(g->fd, offset, end - offset + extra);
        if (rc == 0) {
            g->limit = end + extra - SessionStore::kWalEndBytes;
            return true;
        }
        if (!disk_full(rc)) { // space cannot be allocated ahead here: no limit from now on
            g->limit = -1;
            return true;
        }
    }
    return false;
}

sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) {
    return static_cast<sqlite3_vfs*>(vfs->pAppData);
}

sqlite3_file* real_file(sqlite3_file* f) {
    return reinterpret_cast<GuardedFile*>(f)->real;
}

int guarded_close(sqlite3_file* f) {
    auto* g = reinterpret_cast<GuardedFile*>(f);
    if (g->fd >= 0) {
        ::close(g->fd);
        g->fd = -1;
    }
    sqlite3_file* real = real_file(f);
    return real->pMethods != nullptr ? real->pMethods->xClose(real) : SQLITE_OK;
}
int guarded_read(sqlite3_file* f, void* buf, int amount, sqlite3_int64 offset) {
    return real_file(f)->pMethods->xRead(real_file(f), buf, amount, offset);
}
int guarded_write(sqlite3_file* f, const void* buf, int amount, sqlite3_int64 offset) {
    auto* g = reinterpret_cast<GuardedFile*>(f);
    if (g->limit >= 0 && offset + amount > g->limit && !grow_guarded(g, offset, offset + amount)) {
        return SQLITE_FULL;
    }
    return real_file(f)->pMethods->xWrite(real_file(f), buf, amount, offset);
}
int guarded_truncate(sqlite3_file* f, sqlite3_int64 size) {
    return real_file(f)->pMethods->xTruncate(real_file(f), size);
}
int guarded_sync(sqlite3_file* f, int flags) {
    return real_file(f)->pMethods->xSync(real_file(f), flags);
}
int guarded_file_size(sqlite3_file* f, sqlite3_int64* size) {
    return real_file(f)->pMethods->xFileSize(real_file(f), size);
}
int guarded_lock(sqlite3_file* f, int level) {
    return real_file(f)->pMethods->xLock(real_file(f), level);
}
int guarded_unlock(sqlite3_file* f, int level) {
    return real_file(f)->pMethods->xUnlock(real_file(f), level);
}
int guarded_check_reserved_lock(sqlite3_file* f, int* out) {
    return real_file(f)->pMethods->xCheckReservedLock(real_file(f), out);
}
int guarded_file_control(sqlite3_file* f, int op, void* arg) {
    return real_file(f)->pMethods->xFileControl(real_file(f), op, arg);
}
int guarded_sector_size(sqlite3_file* f) {
    return real_file(f)->pMethods->xSectorSize(real_file(f));
}
int guarded_device_characteristics(sqlite3_file* f) {
    return real_file(f)->pMethods->xDeviceCharacteristics(real_file(f));
}
// The shared-memory (version 2) and memory-map (version 3) methods, for a default VFS that has them (the
// unix VFS has all).
int guarded_shm_map(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
    const sqlite3_io_methods* m = real_file(f)->pMethods;
    return m->iVersion >= 2 ? m->xShmMap(real_file(f), page, size, extend, out) : SQLITE_IOERR_SHMMAP;
}
int guarded_shm_lock(sqlite3_file* f, int offset, int n, int flags) {
    const sqlite3_io_methods* m = real_file(f)->pMethods;
    return m->iVersion >= 2 ? m->xShmLock(real_file(f), offset, n, flags) : SQLITE_IOERR_SHMLOCK;
}
void guarded_shm_barrier(sqlite3_file* f) {
    if (real_file(f)->pMethods->iVersion >= 2) {
        real_file(f)->pMethods->xShmBarrier(real_file(f));
    }
}
int guarded_shm_unmap(sqlite3_file* f, int remove) {
    const sqlite3_io_methods* m = real_file(f)->pMethods;
    return m->iVersion >= 2 ? m->xShmUnmap(real_file(f), remove) : SQLITE_OK;
}
int guarded_fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
    const sqlite3_io_methods* m = real_file(f)->pMethods;
    if (m->iVersion >= 3) {
        return m->xFetch(real_file(f), offset, amount, out);
    }
    *out = nullptr;
    return SQLITE_OK;
}
int guarded_unfetch(sqlite3_file* f, sqlite3_int64 offset, void* p) {
    const sqlite3_io_methods* m = real_file(f)->pMethods;
    return m->iVersion >= 3 ? m->xUnfetch(real_file(f), offset, p) : SQLITE_OK;
}

constexpr sqlite3_io_methods kGuardedMethods = {
    3,
    guarded_close,
    guarded_read,
    guarded_write,
    guarded_truncate,
    guarded_sync,
    guarded_file_size,
    guarded_lock,
    guarded_unlock,
    guarded_check_reserved_lock,
    guarded_file_control,
    guarded_sector_size,
    guarded_device_characteristics,
    guarded_shm_map,
    guarded_shm_lock,
    guarded_shm_barrier,
    guarded_shm_unmap,
    guarded_fetch,
    guarded_unfetch,
};

int guarded_open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out_flags) {
    auto* g = reinterpret_cast<GuardedFile*>(f);
    g->base.pMethods = nullptr;
    g->limit = -1;
    g->name = name;
    g->fd = -1;
    g->real = reinterpret_cast<sqlite3_file*>(g + 1);
    const int rc = real_vfs(vfs)->xOpen(real_vfs(vfs), name, g->real, flags, out_flags);
    // A file the default VFS opened is closed through these methods; one it could not open has none.
    if (g->real->pMethods != nullptr) {
        g->base.pMethods = &kGuardedMethods;
    }
    return rc;
}
int guarded_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
    return real_vfs(vfs)->xDelete(real_vfs(vfs), name, sync_dir);
}
int guarded_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
    return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, out);
}
int guarded_full_pathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
    return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, size, out);
}
void* guarded_dl_open(sqlite3_vfs* vfs, const char* name) {
    return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}
void guarded_dl_error(sqlite3_vfs* vfs, int size, char* out) {
    real_vfs(vfs)->xDlError(real_vfs(vfs), size, out);
}
void (*guarded_dl_sym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
    return real_vfs(vfs)->xDlSym(real_vfs(vfs), handle, symbol);
}
void guarded_dl_close(sqlite3_vfs* vfs, void* handle) {
    real_vfs(vfs)->xDlClose(real_vfs(vfs), handle);
}
int guarded_randomness(sqlite3_vfs* vfs, int size, char* out) {
    return real_vfs(vfs)->xRandomness(real_vfs(vfs), size, out);
}
int guarded_sleep(sqlite3_vfs* vfs, int microseconds) {
    return real_vfs(vfs)->xSleep(real_vfs(vfs), microseconds);
}
int guarded_current_time(sqlite3_vfs* vfs, double* out) {
    return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}
int guarded_get_last_error(sqlite3_vfs* vfs, int size, char* out) {
    return real_vfs(vfs)->xGetLastError != nullptr ? real_vfs(vfs)->xGetLastError(real_vfs(vfs), size, out)
                                                   : 0;
}
int guarded_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
    return real_vfs(vfs)->xCurrentTimeInt64(real_vfs(vfs), out);
}

constexpr const char* kGuardedVfsName = "replayscope-wal-limit";

} // namespace

const char* guarded_vfs() {
    static const char* const kRegisteredName = [] {
        sqlite3_vfs* real = sqlite3_vfs_find(nullptr);
        if (real == nullptr || real->iVersion < 2) {
            return static_cast<const char*>(nullptr);
        }
        static sqlite3_vfs vfs{};
        vfs.iVersion = 2;
        vfs.szOsFile = static_cast<int>(sizeof(GuardedFile)) + real->szOsFile;
        vfs.mxPathname = real->mxPathname;
        vfs.zName = kGuardedVfsName;
        vfs.pAppData = real;
        vfs.xOpen = guarded_open;
        vfs.xDelete = guarded_delete;
        vfs.xAccess = guarded_access;
        vfs.xFullPathname = guarded_full_pathname;
        vfs.xDlOpen = guarded_dl_open;
        vfs.xDlError = guarded_dl_error;
        vfs.xDlSym = guarded_dl_sym;
        vfs.xDlClose = guarded_dl_close;
        vfs.xRandomness = guarded_randomness;
        vfs.xSleep = guarded_sleep;
        vfs.xCurrentTime = guarded_current_time;
        vfs.xGetLastError = guarded_get_last_error;
        vfs.xCurrentTimeInt64 = guarded_current_time_int64;
        return sqlite3_vfs_register(&vfs, 0) == SQLITE_OK ? kGuardedVfsName : nullptr;
    }();
    return kRegisteredName;
}

void set_wal_limit(sqlite3* db, long long limit) {
    sqlite3_file* wal = nullptr;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &wal) == SQLITE_OK && wal != nullptr &&
        wal->pMethods == &kGuardedMethods) {
        reinterpret_cast<GuardedFile*>(wal)->limit = limit;
    }
}

} // namespace rs::ipc
