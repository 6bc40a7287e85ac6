// SPDX-License-Identifier: MIT
/* librs_enospc_shim.so: an LD_PRELOAD library that makes writes to one file fail as a full disk would.
 * It interposes write, pwrite, pwrite64, writev, pwritev, fallocate and posix_fallocate (and their 64-bit
 * names). A call on a descriptor whose path (readlink of /proc/self/fd/N) ends with RS_ENOSPC_PATH, or
 * with RS_ENOSPC_PATH followed by "-wal" or "-journal" (SQLite's companion files of a database), counts
 * its bytes against RS_ENOSPC_AFTER_BYTES (default 0): the call that crosses the budget writes what still
 * fits (a short write, as a filling disk does) and every later one fails with errno ENOSPC and writes
 * nothing. Without RS_ENOSPC_PATH every call passes through. The first injected failure prints one line
 * "enospc shim: ..." on stderr. Other files and descriptors are untouched, so the program under test
 * (a child of the process that records the session) runs normally.
 *
 * SQLite's unix VFS writes database, WAL and rollback-journal pages with pwrite/pwrite64 and extends
 * files with fallocate/posix_fallocate (sqlite3.c, os_unix.c: seekAndWrite, fcntlSizeHint).
 *
 * RS_ENOSPC_MODE=usage models the disk itself instead of a write budget: RS_ENOSPC_AFTER_BYTES is the
 * space the three files may occupy together (the sum of their sizes). A write or an allocation is cut
 * where it would grow them past it; rewriting bytes a file already has is free, and space a file gives
 * back (truncated, removed) can be used again, as on a real disk (tmpfs) that is full. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_llong g_written; /* bytes of matching files written so far */
static atomic_int g_reported;  /* the one stderr line was printed */
static atomic_llong g_peak;    /* usage mode: the most the files occupied together */

/* Whether descriptor `fd` refers to the file under test. */
static int matches(int fd) {
    const char* target = getenv("RS_ENOSPC_PATH");
    if (target == NULL || *target == '\0' || fd < 0) {
        return 0;
    }
    char link[64];
    char path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) {
        return 0;
    }
    path[n] = '\0';
    const size_t len = (size_t)n, tlen = strlen(target);
    static const char* const suffixes[] = {"", "-wal", "-journal"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; ++i) {
        const size_t slen = strlen(suffixes[i]);
        if (len >= tlen + slen && memcmp(path + len - slen, suffixes[i], slen) == 0 &&
            memcmp(path + len - slen - tlen, target, tlen) == 0) {
            return 1;
        }
    }
    return 0;
}

static long long budget(void) {
    const char* v = getenv("RS_ENOSPC_AFTER_BYTES");
    return v ? strtoll(v, NULL, 10) : 0;
}

static int usage_mode(void) {
    const char* v = getenv("RS_ENOSPC_MODE");
    return v != NULL && strcmp(v, "usage") == 0;
}

/* Usage mode: the bytes the file under test and its -wal and -journal occupy (their sizes). */
static long long usage(void) {
    const char* target = getenv("RS_ENOSPC_PATH");
    static const char* const suffixes[] = {"", "-wal", "-journal"};
    long long total = 0;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; ++i) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", target, suffixes[i]);
        if (stat(path, &st) == 0) {
            total += (long long)st.st_size;
        }
    }
    return total;
}

static void report_once(const char* call, int fd, long long limit) {
    if (!atomic_exchange(&g_reported, 1)) {
        fprintf(stderr, "enospc shim: %s on fd %d: no space left after %lld bytes\n", call, fd, limit);
    }
}

/* Usage mode: how many of `bytes` written at `offset` of `fd` fit on the disk (-1 with errno ENOSPC when
 * none does). Only what grows the file counts. */
static ssize_t usage_allowance(int fd, off_t offset, size_t bytes, const char* call) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return (ssize_t)bytes;
    }
    const long long end = (long long)offset + (long long)bytes;
    const long long growth = end > (long long)st.st_size ? end - (long long)st.st_size : 0;
    const long long limit = budget();
    const long long room = limit - usage();
    if (growth <= room) {
        atomic_fetch_add(&g_written, (long long)bytes);
        const long long now = limit - room + growth;
        long long peak = atomic_load(&g_peak);
        while (now > peak && !atomic_compare_exchange_weak(&g_peak, &peak, now)) {
        }
        return (ssize_t)bytes;
    }
    report_once(call, fd, limit);
    /* What fits: the bytes up to the file's end plus the room left. */
    const long long fits = (long long)st.st_size + (room > 0 ? room : 0) - (long long)offset;
    if (fits <= 0) {
        errno = ENOSPC;
        return -1;
    }
    atomic_fetch_add(&g_written, fits);
    return (ssize_t)fits;
}

/* How many of `bytes` may be written to `fd` (all for other files); -1 with errno ENOSPC when none. */
static ssize_t allowance_at(int fd, off_t offset, size_t bytes, const char* call) {
    if (!matches(fd)) {
        return (ssize_t)bytes;
    }
    if (usage_mode()) {
        if (offset < 0) { /* write/writev: at the file offset (at the end with O_APPEND) */
            const int flags = fcntl(fd, F_GETFL);
            offset = flags >= 0 && (flags & O_APPEND) ? lseek(fd, 0, SEEK_END) : lseek(fd, 0, SEEK_CUR);
        }
        return usage_allowance(fd, offset, bytes, call);
    }
    const long long limit = budget();
    const long long before = atomic_fetch_add(&g_written, (long long)bytes);
    long long room = limit - before;
    if (room >= (long long)bytes) {
        return (ssize_t)bytes;
    }
    if (room < 0) {
        room = 0;
    }
    atomic_fetch_sub(&g_written, (long long)bytes - room);
    report_once(call, fd, limit);
    if (room == 0) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t)room;
}

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, name))

__attribute__((visibility("default"))) ssize_t write(int fd, const void* buf, size_t count) {
    static ssize_t (*real)(int, const void*, size_t);
    if (!real) {
        real = NEXT(ssize_t(*)(int, const void*, size_t), "write");
    }
    const ssize_t n = allowance_at(fd, -1, count, "write");
    return n < 0 ? -1 : real(fd, buf, (size_t)n);
}

static ssize_t do_pwrite(const char* name, int fd, const void* buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void*, size_t, off_t);
    if (!real) {
        real = NEXT(ssize_t(*)(int, const void*, size_t, off_t), "pwrite");
    }
    const ssize_t n = allowance_at(fd, offset, count, name);
    return n < 0 ? -1 : real(fd, buf, (size_t)n, offset);
}

__attribute__((visibility("default"))) ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
    return do_pwrite("pwrite", fd, buf, count, offset);
}

__attribute__((visibility("default"))) ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
    return do_pwrite("pwrite64", fd, buf, count, offset);
}

static size_t iov_bytes(const struct iovec* iov, int n) {
    size_t total = 0;
    for (int i = 0; i < n; ++i) {
        total += iov[i].iov_len;
    }
    return total;
}

__attribute__((visibility("default"))) ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
    static ssize_t (*real)(int, const struct iovec*, int);
    if (!real) {
        real = NEXT(ssize_t(*)(int, const struct iovec*, int), "writev");
    }
    const size_t total = iov_bytes(iov, iovcnt);
    const ssize_t n = allowance_at(fd, -1, total, "writev");
    if (n < 0) {
        return -1;
    }
    if ((size_t)n < total) { /* short: write the first n bytes of the vector */
        return n == 0 ? 0
                      : write(fd, iov[0].iov_base, (size_t)n < iov[0].iov_len ? (size_t)n : iov[0].iov_len);
    }
    return real(fd, iov, iovcnt);
}

__attribute__((visibility("default"))) ssize_t pwritev(int fd, const struct iovec* iov, int iovcnt,
                                                       off_t offset) {
    static ssize_t (*real)(int, const struct iovec*, int, off_t);
    if (!real) {
        real = NEXT(ssize_t(*)(int, const struct iovec*, int, off_t), "pwritev");
    }
    const size_t total = iov_bytes(iov, iovcnt);
    if (allowance_at(fd, offset, total, "pwritev") != (ssize_t)total) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd, iov, iovcnt, offset);
}

/* Growing a file reserves disk space: refused once the budget is spent (counted as the bytes asked). */
static int reserve(int fd, off_t offset, off_t len, const char* call) {
    if (!matches(fd)) {
        return 0;
    }
    if (usage_mode()) {
        const ssize_t n = allowance_at(fd, offset, (size_t)len, call);
        if (n >= 0 && n != (ssize_t)len) { /* all or nothing: what fitted is not allocated */
            atomic_fetch_sub(&g_written, (long long)n);
        }
        return n == (ssize_t)len ? 0 : -1;
    }
    /* Byte budget: an allocation that does not fit takes nothing from it. */
    const long long before = atomic_load(&g_written);
    const ssize_t n = allowance_at(fd, offset, (size_t)len, call);
    if (n != (ssize_t)len) {
        atomic_store(&g_written, before);
    }
    return n == (ssize_t)len ? 0 : -1;
}

__attribute__((visibility("default"))) int fallocate(int fd, int mode, off_t offset, off_t len) {
    static int (*real)(int, int, off_t, off_t);
    if (!real) {
        real = NEXT(int (*)(int, int, off_t, off_t), "fallocate");
    }
    if (reserve(fd, offset, len, "fallocate") != 0) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd, mode, offset, len);
}

__attribute__((visibility("default"))) int fallocate64(int fd, int mode, off_t offset, off_t len) {
    return fallocate(fd, mode, offset, len);
}

__attribute__((visibility("default"))) int posix_fallocate(int fd, off_t offset, off_t len) {
    static int (*real)(int, off_t, off_t);
    if (!real) {
        real = NEXT(int (*)(int, off_t, off_t), "posix_fallocate");
    }
    if (reserve(fd, offset, len, "posix_fallocate") != 0) {
        return ENOSPC; /* posix_fallocate returns the error number */
    }
    return real(fd, offset, len);
}

__attribute__((visibility("default"))) int posix_fallocate64(int fd, off_t offset, off_t len) {
    return posix_fallocate(fd, offset, len);
}

/* With RS_ENOSPC_REPORT set, the process prints "enospc shim total: N bytes" on stderr when it exits
 * (N: the bytes of matching files it wrote; in usage mode the most they occupied together), so that a
 * test can measure a run before choosing budgets. */
__attribute__((destructor)) static void report_total(void) {
    const char* report = getenv("RS_ENOSPC_REPORT");
    if (report != NULL && *report != '\0' && atomic_load(&g_written) > 0) {
        fprintf(stderr, "enospc shim total: %lld bytes\n",
                (long long)atomic_load(usage_mode() ? &g_peak : &g_written));
    }
}

/* Bytes of matching files written so far (what the budget is counted against); lets a test find the
 * shim (dlsym) and measure a run before choosing a budget. */
__attribute__((visibility("default"))) long long rs_enospc_shim_written(void) {
    return atomic_load(&g_written);
}

/* Starts counting again from 0 (a test that measures, then replays the same writes with a budget). */
__attribute__((visibility("default"))) void rs_enospc_shim_reset(void) {
    atomic_store(&g_written, 0);
    atomic_store(&g_reported, 0);
    atomic_store(&g_peak, 0);
}
