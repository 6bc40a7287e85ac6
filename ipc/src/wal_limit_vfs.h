// SPDX-License-Identifier: MIT
// The SQLite VFS of session files: the default VFS, except that writes to a -wal file stop at a limit the
// store sets (SessionStore::keep_wal_reserve). A transaction whose frames would reach past it fails as on a
// full disk (SQLITE_FULL) unless the file can first be extended to keep SessionStore::kWalEndBytes
// allocated after them, so that the end of the -wal file stays for the session's end rows
// (docs/reliability.md, "A full disk"). Every other call goes to the default VFS unchanged.
#pragma once

#include <sqlite3.h>

namespace rs::ipc {

/// Registers the VFS once (not as the default) and returns its name for sqlite3_open_v2; nullptr when
/// SQLite's default VFS is older than version 2 (then files are opened with the default VFS, unlimited).
const char* guarded_vfs();

/// Sets the write limit of the -wal file of `db`, a byte offset (-1: none); nothing when its WAL is not
/// open or was not opened through guarded_vfs(). Called by the connection's own thread.
void set_wal_limit(sqlite3* db, long long limit);

/// Whether posix_fallocate's result `rc` means that the disk (or the user's quota) is full: ENOSPC,
/// EDQUOT or EFBIG.
bool disk_full(int rc);

} // namespace rs::ipc
