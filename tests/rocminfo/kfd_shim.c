// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim for the rocminfo test: rocminfo 5.2.3 opens /dev/kfd read-write before hsa_init and
 * stops when it cannot. This shim answers that one open with a descriptor of /dev/null, so the check
 * passes on a machine without an AMD GPU and nothing on the machine changes. Every other path goes to
 * the C library's open unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>

typedef int (*open_fn)(const char*, int, ...);

static const char* redirect(const char* path) {
    return (path && strcmp(path, "/dev/kfd") == 0) ? "/dev/null" : path;
}

static int forward(const char* symbol, const char* path, int flags, mode_t mode) {
    open_fn real = (open_fn)dlsym(RTLD_NEXT, symbol);
    return real ? real(redirect(path), flags, mode) : -1;
}

int open(const char* path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return forward("open", path, flags, mode);
}

int open64(const char* path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return forward("open64", path, flags, mode);
}
