// SPDX-License-Identifier: MIT
#include "replayscope/session/kernel_name.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

namespace rs::session {

namespace {

bool opens(char c) {
    return c == '(' || c == '<' || c == '[';
}
bool closes(char c) {
    return c == ')' || c == '>' || c == ']';
}

/// Position of the '(' that opens the argument list ending `name` (the last top-level parenthesis
/// group; "(anonymous namespace)" is a scope), or npos.
std::size_t argument_list_start(const std::string& name) {
    int depth = 0;
    std::size_t open = std::string::npos;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (opens(name[i])) {
            if (depth == 0 && name[i] == '(' && name.compare(i, 21, "(anonymous namespace)") != 0) {
                open = i;
            }
            ++depth;
        } else if (closes(name[i])) {
            depth = depth > 0 ? depth - 1 : 0;
        }
    }
    return open;
}

/// `name` without a template argument list at its end ("f<int, g<2>>" -> "f").
std::string without_trailing_template(const std::string& name) {
    const auto ends_with = [&](const char* tail) {
        const std::size_t n = std::strlen(tail);
        return name.size() >= n && name.compare(name.size() - n, n, tail) == 0;
    };
    if (name.empty() || name.back() != '>' || ends_with("operator>") || ends_with("operator>>")) {
        return name;
    }
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
        if (name[i] == '>') {
            ++depth;
        } else if (name[i] == '<' && --depth == 0) {
            return name.substr(0, i);
        }
    }
    return name;
}

/// The last top-level "::" component, after any top-level space (a return type before the name).
std::string last_component(const std::string& name) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (opens(c)) {
            ++depth;
        } else if (closes(c)) {
            depth = depth > 0 ? depth - 1 : 0;
        } else if (depth == 0 && c == ' ' && name.compare(start, 8, "operator") != 0) {
            start = i + 1;
        } else if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
            start = i + 2;
            ++i;
        }
    }
    return name.substr(start);
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(' ');
    const auto last = text.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

} // namespace

std::string truncated_kernel_name(const std::string& demangled) {
    std::string name = demangled;
    if (const std::size_t open = argument_list_start(name); open != std::string::npos && open > 0) {
        name = name.substr(0, open);
    }
    name = last_component(without_trailing_template(trimmed(name)));
    return name.empty() ? demangled : name;
}

std::string kernel_display_name(const std::string& symbol, KernelNameStyle style) {
    const bool kd = symbol.size() >= 3 && symbol.compare(symbol.size() - 3, 3, ".kd") == 0;
    const std::string name = kd ? symbol.substr(0, symbol.size() - 3) : symbol;
    if (style == KernelNameStyle::mangled || name.rfind("_Z", 0) != 0) {
        return name;
    }
    int status = -1;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    const std::string demangled = status == 0 && text != nullptr ? std::string(text) : name;
    std::free(text);
    return style == KernelNameStyle::truncated && status == 0 ? truncated_kernel_name(demangled) : demangled;
}

} // namespace rs::session
