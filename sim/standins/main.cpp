// SPDX-License-Identifier: MIT
// replayscope-standins: makes the host stand-in library of a HIP program's kernels, from the same sources
// hipcc compiled, for the simulated HSA runtime (HSA_SIM_STANDINS; sim/include/hsa_sim/standin.h).
//
//   replayscope-standins -o libNAME-standins.so FILE.hip [FILE...] [-- COMPILER FLAGS...]
//
// Exit status: 0 when the library was written, 1 when a source does not compile or the build fails
// (the compiler's output is shown), 2 for a bad command line.
#include "standin_builder.h"

#include <CLI/CLI.hpp>
#include <replayscope/cli_help_formatter.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef RS_VERSION
#define RS_VERSION "unknown"
#endif
#ifndef RS_STANDINS_CXX
#define RS_STANDINS_CXX "c++"
#endif
#ifndef RS_STANDINS_BOOST_CONTEXT
#define RS_STANDINS_BOOST_CONTEXT "-lboost_context"
#endif

namespace {

/** Directory holding this program (/proc/self/exe), or "." when it cannot be read. */
std::filesystem::path exe_dir() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        return ".";
    }
    buf[n] = '\0';
    return std::filesystem::path(buf).parent_path();
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    std::string w;
    while (in >> w) {
        out.push_back(w);
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    // Split at the first "--": options and sources before, compiler flags after.
    std::vector<std::string> flags;
    int own_argc = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--") {
            own_argc = i;
            for (int j = i + 1; j < argc; ++j) {
                flags.emplace_back(argv[j]);
            }
            break;
        }
    }

    CLI::App app{"Compiles HIP sources again as host C++ into a stand-in library that the simulated HSA "
                 "runtime runs their kernels with (HSA_SIM_STANDINS).\n"
                 "  replayscope-standins -o libNAME-standins.so FILE.hip [FILE...] [-- COMPILER FLAGS...]",
                 "replayscope-standins"};
    rs::cli::use_help_formatter(app, 32); // option and description two spaces apart (help2man)
    app.set_version_flag("--version", std::string("replayscope-standins ") + RS_VERSION);
    rs::standins::BuildOptions options;
    app.add_option("-o,--output", options.output, "Stand-in library to write (libNAME-standins.so)")
        ->required();
    app.add_option("sources", options.sources, "HIP source files defining the kernels (as given to hipcc)")
        ->required()
        ->check(CLI::ExistingFile);
    std::string compiler;
    app.add_option("--cxx", compiler,
                   "C++ compiler (default: $CXX, else " RS_STANDINS_CXX "); flags after -- are passed to it");
    app.add_option("--keep-temps", options.keep_dir,
                   "Keep the generated sources and objects in this directory");
    app.add_flag("-v,--verbose", options.verbose,
                 "Print every compiler command, the kernels found and the warnings of --warnings");
    app.add_flag(
        "--warnings", options.warnings,
        "Show the compiler's warnings about the sources (off by default: their host code is compiled "
        "but never run in a stand-in; errors always show)");
    std::string support;
    app.add_option("--support-dir", support, "Support files (default: <bin>/../share/replayscope/standins)");
    try {
        app.parse(own_argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }

    options.flags = flags;
    if (compiler.empty()) {
        const char* env = std::getenv("CXX");
        compiler = (env && *env) ? env : RS_STANDINS_CXX;
    }
    options.compiler = split_words(compiler);
    options.support_dir =
        support.empty()
            ? (exe_dir() / ".." / "share" / "replayscope" / "standins").lexically_normal().string()
            : support;
    options.boost_context = RS_STANDINS_BOOST_CONTEXT;
    try {
        const auto result = rs::standins::build_library(options);
        if (options.verbose) {
            for (const auto& k : result.kernels) {
                std::printf("kernel   %s\n", k.c_str());
            }
            for (const auto& v : result.variables) {
                std::printf("variable %s\n", v.c_str());
            }
        }
        std::printf("replayscope-standins: wrote %s (%zu kernels, %zu variables)\n", options.output.c_str(),
                    result.kernels.size(), result.variables.size());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "replayscope-standins: %s\n", e.what());
        return 1;
    }
}
