// SPDX-License-Identifier: MIT
#include "replayscope/counters/input_file.h"

#include <fstream>
#include <sstream>

namespace rs::counters {

namespace {

bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == ',';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && blank(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && blank(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

} // namespace

bool parse_input_text(std::string_view text, CounterRequest& request, std::string& error) {
    CounterRequest out;
    size_t number = 0;
    while (!text.empty()) {
        ++number;
        const size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
        if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
            line = line.substr(0, hash);
        }
        line = trim(line);
        if (line.empty()) {
            continue;
        }
        constexpr std::string_view kPmc = "pmc:";
        if (line.substr(0, kPmc.size()) != kPmc) {
            error = "line " + std::to_string(number) + ": '" + std::string(line) +
                    "' is not a 'pmc: NAME ...' line (the only kind of line a text input file has)";
            return false;
        }
        std::vector<std::string> names;
        std::string_view rest = line.substr(kPmc.size());
        while (!rest.empty()) {
            rest = trim(rest);
            size_t n = 0;
            while (n < rest.size() && !blank(rest[n])) {
                ++n;
            }
            if (n > 0) {
                names.emplace_back(rest.substr(0, n));
            }
            rest = rest.substr(n);
        }
        if (names.empty()) {
            error = "line " + std::to_string(number) + ": 'pmc:' names no counter";
            return false;
        }
        out.push_back(std::move(names));
    }
    if (out.empty()) {
        error = "no 'pmc:' line";
        return false;
    }
    request = std::move(out);
    return true;
}

bool read_input_file(const std::string& path, CounterRequest& request, std::string& error) {
    const size_t dot = path.rfind('.');
    const std::string extension = dot == std::string::npos ? "" : path.substr(dot);
    if (extension == ".json" || extension == ".yaml" || extension == ".yml") {
        error = path + ": " + extension +
                " input is not supported; use the text form (FILE.txt, 'pmc: NAME ...' lines)";
        return false;
    }
    std::ifstream in(path);
    if (!in) {
        error = path + ": cannot be read";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (!parse_input_text(text.str(), request, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

} // namespace rs::counters
