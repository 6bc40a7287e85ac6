// SPDX-License-Identifier: MIT
// Stored strings made safe to show: every text a session file holds (kernel names, command lines, agent
// names, warning texts) comes from the program that was recorded or from whoever wrote the file, so a
// terminal, a table cell or an export must never receive its control characters raw or its full length.
// Used by the inspector's reader (app/model/reading/RowCursor) and replayscope-run's end-of-run lines.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rs::session {

/// The most bytes of one stored string a reader keeps (names shown, exports): 4 KiB.
inline constexpr std::size_t kShownTextBytes = 4096;

/// `text` with every C0 control character (U+0000 to U+001F), DEL (U+007F), C1 control character (U+0080
/// to U+009F) and byte that is not part of valid UTF-8 replaced by a visible escape: `\xNN` (the code point,
/// or the byte). `keep_newlines`: '\n' stays (multi-line texts such as an engine configuration). Valid
/// UTF-8 without control characters is returned unchanged.
std::string printable_text(std::string_view text, bool keep_newlines = false);

/// printable_text() of at most the first `max_bytes` bytes of `text` (cut before a UTF-8 sequence that
/// would not fit); a longer text ends with an ellipsis and its length: "...… (1048576 bytes)".
std::string shown_text(std::string_view text, std::size_t max_bytes = kShownTextBytes,
                       bool keep_newlines = false);

} // namespace rs::session
