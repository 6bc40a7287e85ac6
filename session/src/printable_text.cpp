// SPDX-License-Identifier: MIT
// Stored strings made safe to show (printable_text.h).
#include "replayscope/session/printable_text.h"

#include <cstdint>

namespace rs::session {

namespace {

void append_escape(std::string& out, std::uint32_t value) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[(value >> 4) & 0xf];
    out += kHex[value & 0xf];
}

/// Length of the valid UTF-8 sequence at `text[at]` and its code point; 0 when the bytes there are not one.
std::size_t utf8_sequence(std::string_view text, std::size_t at, std::uint32_t& code) {
    const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
    const std::uint8_t lead = byte(at);
    std::size_t length = 0;
    std::uint32_t min = 0;
    if (lead < 0x80) {
        code = lead;
        return 1;
    }
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        code = lead & 0x1fU;
        min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        code = lead & 0x0fU;
        min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        code = lead & 0x07U;
        min = 0x10000;
    } else {
        return 0;
    }
    if (at + length > text.size()) {
        return 0;
    }
    for (std::size_t i = 1; i < length; ++i) {
        const std::uint8_t next = byte(at + i);
        if ((next & 0xc0U) != 0x80) {
            return 0;
        }
        code = code << 6 | (next & 0x3fU);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return 0;
    }
    return length;
}

bool is_control(std::uint32_t code, bool keep_newlines) {
    if (code == '\n') {
        return !keep_newlines;
    }
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

} // namespace

std::string printable_text(std::string_view text, bool keep_newlines) {
    // Fast path: plain printable ASCII (most names) is returned as it is.
    bool plain = true;
    for (const char c : text) {
        const auto b = static_cast<std::uint8_t>(c);
        if (b >= 0x80 || is_control(b, keep_newlines)) {
            plain = false;
            break;
        }
    }
    if (plain) {
        return std::string(text);
    }
    std::string out;
    out.reserve(text.size() + 16);
    for (std::size_t at = 0; at < text.size();) {
        std::uint32_t code = 0;
        const std::size_t length = utf8_sequence(text, at, code);
        if (length == 0) {
            append_escape(out, static_cast<std::uint8_t>(text[at]));
            ++at;
            continue;
        }
        if (is_control(code, keep_newlines)) {
            append_escape(out, code);
        } else {
            out.append(text.substr(at, length));
        }
        at += length;
    }
    return out;
}

std::string shown_text(std::string_view text, std::size_t max_bytes, bool keep_newlines) {
    if (text.size() <= max_bytes) {
        return printable_text(text, keep_newlines);
    }
    // Cut before a UTF-8 sequence the limit would split: back over continuation bytes to its lead byte.
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<std::uint8_t>(text[cut]) & 0xc0U) == 0x80 && max_bytes - cut < 3) {
        --cut;
    }
    std::string out = printable_text(text.substr(0, cut), keep_newlines);
    out += "\xe2\x80\xa6 (";
    out += std::to_string(text.size());
    out += " bytes)";
    return out;
}

} // namespace rs::session
