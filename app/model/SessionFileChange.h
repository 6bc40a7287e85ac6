// SPDX-License-Identifier: MIT
// What became of an open session file's path since it was opened. A run with --force writes a new file
// (a new inode) where the old one was; the reader's connection keeps reading the old one, so the view
// must say that it shows a file no longer on disk.
#pragma once

#include <QMetaType>

namespace rs::app {

enum class SessionFileChange {
    none,     ///< the path names the file that was opened
    replaced, ///< the path names another file (another device or inode)
    deleted,  ///< nothing is at the path
};

} // namespace rs::app

Q_DECLARE_METATYPE(rs::app::SessionFileChange)
