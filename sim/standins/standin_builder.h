// SPDX-License-Identifier: MIT
// replayscope-standins: builds a host stand-in library (sim/include/hsa_sim/standin.h) from HIP sources.
#ifndef RS_STANDIN_BUILDER_HPP
#define RS_STANDIN_BUILDER_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rs::standins {

/** A build failure; the message is for the user (the compiler's own output is already on stderr). */
class BuildError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/**
 * Rewrites HIP host-only syntax of one source file into host C++, keeping the number of lines:
 *  - `K<<<CONFIG>>>(ARGS)` becomes `K(ARGS), ::hsa_sim::launch_sink(CONFIG)` (type-checked, never run);
 *  - `__builtin_amdgcn_NAME(` becomes `::hsa_sim::amdgcn::NAME(` for the few builtins the stand-in
 *    runtime implements (barrier, work-item and work-group ids, clocks, fence, sleep), else
 *    `::hsa_sim::unsupported_call{"__builtin_amdgcn_NAME"}(`, which fails the dispatch.
 * Comments, string and character literals are left alone. Throws build_error naming `path` and the line
 * of a `<<<` without its `>>>` or argument list.
 */
std::string rewrite_source(const std::string& text, const std::string& path);

/** A symbol of a relocatable object's symbol table. */
struct ObjectSymbol {
    std::string name;
    uint8_t type = 0;       // STT_*
    uint8_t binding = 0;    // STB_*
    uint8_t visibility = 0; // STV_*
    bool defined = false;
    uint64_t size = 0;
};

/** The symbols of an ELF64 relocatable object (`.symtab`). Throws build_error when it is not one. */
std::vector<ObjectSymbol> read_object_symbols(const std::string& path);

/** What a stand-in compilation's first pass defines (see hsa_sim_standin/device.h for the markers). */
struct Discovered {
    std::vector<std::string> kernels;        // protected FUNC symbols (mangled)
    std::vector<ObjectSymbol> variables;     // default-visibility global OBJECT symbols
    std::vector<std::string> dynamic_shared; // undefined TLS symbols: `extern __shared__` arrays
    std::vector<std::string> defined_tls;    // defined TLS symbols (not dynamic shared storage)
};

/** Sorts an object's symbols into kernels, variables and dynamic shared arrays. */
Discovered classify_symbols(const std::vector<ObjectSymbol>& symbols);

/** A kernel's C++ name and parameter list, from its demangled symbol. */
struct KernelSignature {
    std::string name;       // e.g. "vadd", "ns::tk<float>"
    std::string parameters; // e.g. "float*, float const*, int"
};

/**
 * Demangles a kernel symbol (abi::__cxa_demangle) and splits it into name and parameters. Throws
 * build_error when the symbol does not demangle to a function the generated code can name.
 */
KernelSignature demangle_kernel(const std::string& symbol);

/** Options of one build. */
struct BuildOptions {
    std::string output;                // the library to write
    std::vector<std::string> sources;  // HIP source files
    std::vector<std::string> flags;    // extra compiler flags (after `--`)
    std::vector<std::string> compiler; // the C++ compiler command (program and leading arguments)
    std::string support_dir;           // <prefix>/share/replayscope/standins
    std::string boost_context;         // Boost.Context archive or -l flag to link
    std::string keep_dir;              // keep the intermediate files here (empty: a removed temp dir)
    bool verbose = false;              // print each command (and the warnings of the user's code)
    bool warnings = false;             // show the compiler's warnings about the user's code
};

/** Summary of a built library. */
struct BuildResult {
    std::vector<std::string> kernels;
    std::vector<std::string> variables;
};

/** Builds the stand-in library; throws build_error on failure. */
BuildResult build_library(const BuildOptions& options);

} // namespace rs::standins

#endif
