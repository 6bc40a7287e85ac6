// SPDX-License-Identifier: MIT
#include "output_pattern.h"

#include <array>
#include <cctype>
#include <charconv>
#include <climits>
#include <string_view>
#include <unistd.h>

namespace rs::runner {

namespace {

/// The first of `names` set and not empty, else `fallback`.
std::string first_set(const EnvironmentLookup& lookup, const auto& names, std::string fallback) {
    for (const char* name : names) {
        const char* value = lookup(name);
        if (value != nullptr && *value != '\0') {
            return value;
        }
    }
    return fallback;
}

/// An environment variable's value as a path piece, as rocprofv3 makes it: leading spaces, tabs and '/'
/// dropped, the others replaced by '_'.
std::string path_piece(const char* value) {
    std::string out = value == nullptr ? "" : value;
    const auto first = out.find_first_not_of(" \t/");
    out.erase(0, first == std::string::npos ? out.size() : first);
    for (char& c : out) {
        if (c == ' ' || c == '\t' || c == '/') {
            c = '_';
        }
    }
    return out;
}

/// At `pattern[i]` == '%': the length of an environment key (%env{VAR}% or %q{VAR}) and its variable's
/// name; 0 when there is none.
std::size_t environment_key(std::string_view pattern, std::size_t i, std::string& variable) {
    for (const auto& [open, close] : {std::pair<std::string_view, std::string_view>{"%env{", "}%"},
                                      std::pair<std::string_view, std::string_view>{"%q{", "}"}}) {
        if (pattern.substr(i, open.size()) != open) {
            continue;
        }
        std::size_t end = i + open.size();
        while (end < pattern.size() &&
               (std::isalnum(static_cast<unsigned char>(pattern[end])) != 0 || pattern[end] == '_')) {
            ++end;
        }
        if (end == i + open.size() || pattern.substr(end, close.size()) != close) {
            return 0;
        }
        variable = std::string(pattern.substr(i + open.size(), end - i - open.size()));
        return end + close.size() - i;
    }
    return 0;
}

/// rocprofv3's other keys, which replayscope-run does not expand: kept whole, so that "%ppid%" does not
/// read as "%p" followed by "pid%".
constexpr std::string_view kUnexpandedKeys[] = {
    "%ppid%", "%pgid%", "%psid%", "%psize%", "%size%",        "%nid%",        "%cwd%",
    "%argv%", "%argt%", "%args%", "%tag%",   "%launch_date%", "%launch_time%"};

} // namespace

std::optional<int> job_rank(const EnvironmentLookup& lookup) {
    for (const char* name : kRankVariables) {
        const char* value = lookup(name);
        if (value == nullptr || *value == '\0') {
            continue;
        }
        const std::string_view text(value);
        int rank = -1;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rank);
        if (ec != std::errc() || end != text.data() + text.size() || rank < 0) {
            return std::nullopt;
        }
        return rank;
    }
    return std::nullopt;
}

std::string host_name() {
    std::array<char, HOST_NAME_MAX + 1> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') {
        return "UNKNOWN_HOSTNAME";
    }
    return name.data();
}

std::string expand_output_pattern(const std::string& pattern, pid_t pid, const EnvironmentLookup& lookup,
                                  const std::string& hostname) {
    const std::string pid_text = std::to_string(pid);
    const std::string rank = first_set(lookup, kRankVariables, pid_text);
    const std::string job = first_set(lookup, kJobVariables, "0");
    // Long keys before their one-letter forms ("%hostname%" is not "%h" + "ostname%").
    const std::pair<std::string_view, const std::string*> keys[] = {
        {"%hostname%", &hostname}, {"%rank%", &rank}, {"%pid%", &pid_text}, {"%job%", &job},
        {"%h", &hostname},         {"%r", &rank},     {"%p", &pid_text},    {"%j", &job}};
    const std::string_view text(pattern);
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] != '%') {
            out += text[i++];
            continue;
        }
        if (text.substr(i, 2) == "%%") {
            out += '%';
            i += 2;
            continue;
        }
        std::string variable;
        if (const std::size_t length = environment_key(text, i, variable); length > 0) {
            out += path_piece(lookup(variable.c_str()));
            i += length;
            continue;
        }
        bool replaced = false;
        for (const std::string_view key : kUnexpandedKeys) {
            if (text.substr(i, key.size()) == key) {
                out += key;
                i += key.size();
                replaced = true;
                break;
            }
        }
        for (const auto& [key, value] : keys) {
            if (replaced) {
                break;
            }
            if (text.substr(i, key.size()) == key) {
                out += *value;
                i += key.size();
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            out += text[i++];
        }
    }
    return out;
}

std::optional<std::string> output_path(const std::string& directory, const std::string& name, pid_t pid,
                                       std::string& error, const EnvironmentLookup& lookup,
                                       const std::string& hostname) {
    const std::string file =
        expand_output_pattern(name.empty() ? kDefaultOutputName : name, pid, lookup, hostname);
    std::string dir = expand_output_pattern(directory, pid, lookup, hostname);
    if (file.empty() || file.back() == '/') {
        error = "-o/--output-file: '" + name + "' names a directory, not a session file";
        return std::nullopt;
    }
    std::string path = file;
    if (!dir.empty() && file.front() != '/') {
        while (dir.size() > 1 && dir.back() == '/') {
            dir.pop_back();
        }
        path = dir == "/" ? "/" + file : dir + "/" + file;
    }
    const auto slash = path.rfind('/');
    const std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
    if (last == "." || last == "..") {
        error = "-o/--output-file: '" + name + "' names a directory, not a session file";
        return std::nullopt;
    }
    if (last.find('.', 1) == std::string::npos) {
        path += ".rsdb";
    }
    return path;
}

} // namespace rs::runner
