// SPDX-License-Identifier: MIT
// The --help layout of ReplayScope's CLI11 programs (replayscope-run, replayscope-standins), which help2man
// turns into their man pages: an option's names as man pages and GNU programs write them ("-o, --output"),
// where CLI11 2.1 joins them with a bare comma that man(1) then shows as one word.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace rs::cli {

class help_formatter : public CLI::Formatter {
  public:
    /// CLI11's name list ("-o,--output") with a space after each comma.
    std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
        std::string name = CLI::Formatter::make_option_name(option, is_positional);
        for (std::size_t at = name.find(','); at != std::string::npos; at = name.find(',', at + 2)) {
            name.insert(at + 1, " ");
        }
        return name;
    }
    /// CLI11's value text ("TEXT", "UINT") and a space: a name exactly one short of the column would
    /// otherwise run into its description with a single space, which help2man keeps as one paragraph.
    std::string make_option_opts(const CLI::Option* option) const override {
        return CLI::Formatter::make_option_opts(option) + " ";
    }
};

/// Gives `app` the help_formatter, options and descriptions `column_width` characters apart.
inline void use_help_formatter(CLI::App& app, std::size_t column_width) {
    auto formatter = std::make_shared<help_formatter>();
    formatter->column_width(column_width);
    app.formatter(formatter);
}

} // namespace rs::cli
