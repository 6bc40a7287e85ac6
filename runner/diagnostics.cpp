// SPDX-License-Identifier: MIT
#include "diagnostics.h"

#include <cctype>

#include <atomic>
#include <cstdio>

namespace rs::runner {

namespace {

std::atomic<LogLevel> g_level{LogLevel::info};

void print(const char* prefix, const std::string& message) {
    std::fprintf(stderr, "replayscope-run: %s%s\n", prefix, message.c_str());
}

} // namespace

std::optional<LogLevel> parse_log_level(const std::string& given) {
    // Any case, as rocprofv3 lowers the value it is given (argparse type=str.lower).
    std::string text = given;
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (text == "fatal") {
        return LogLevel::fatal;
    }
    if (text == "error") {
        return LogLevel::error;
    }
    if (text == "warning") {
        return LogLevel::warning;
    }
    if (text == "info") {
        return LogLevel::info;
    }
    if (text == "trace" || text == "env" || text == "config") {
        return LogLevel::trace;
    }
    return std::nullopt;
}

void set_log_level(LogLevel level) {
    g_level.store(level, std::memory_order_relaxed);
}

LogLevel log_level() {
    return g_level.load(std::memory_order_relaxed);
}

bool logs(LogLevel level) {
    return static_cast<int>(level) <= static_cast<int>(log_level());
}

void note(const std::string& message) {
    if (logs(LogLevel::info)) {
        print("", message);
    }
}

void warn(const std::string& message) {
    if (logs(LogLevel::warning)) {
        print("warning: ", message);
    }
}

void error_line(const std::string& message) {
    if (logs(LogLevel::error)) {
        print("error: ", message);
    }
}

void trace(const std::string& message) {
    if (logs(LogLevel::trace)) {
        print("", message);
    }
}

void fatal(const std::string& message) {
    print("", message);
}

int fail(const std::string& message) {
    fatal(message);
    return kToolFailure;
}

} // namespace rs::runner
