// SPDX-License-Identifier: MIT
#include "standin_builder.h"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace rs::standins {

namespace fs = std::filesystem;

namespace {

bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/** Index just past a comment or literal starting at i, or i when none starts there. */
std::size_t skip_non_code(const std::string& s, std::size_t i) {
    const std::size_t n = s.size();
    if (s.compare(i, 2, "//") == 0) {
        while (i < n && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < n) {
                ++i;
            }
            ++i;
        }
        return i;
    }
    if (s.compare(i, 2, "/*") == 0) {
        const std::size_t end = s.find("*/", i + 2);
        return end == std::string::npos ? n : end + 2;
    }
    if (s[i] == 'R' && i + 1 < n && s[i + 1] == '"' && (i == 0 || !is_ident(s[i - 1]))) {
        const std::size_t open = s.find('(', i + 2);
        if (open != std::string::npos) {
            const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
            const std::size_t end = s.find(close, open);
            return end == std::string::npos ? n : end + close.size();
        }
    }
    if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !is_ident(s[i - 1]) || !std::isxdigit(s[i - 1])))) {
        const char quote = s[i];
        ++i;
        while (i < n && s[i] != quote && s[i] != '\n') {
            if (s[i] == '\\') {
                ++i;
            }
            ++i;
        }
        return std::min(n, i + 1);
    }
    return i;
}

std::size_t line_of(const std::string& s, std::size_t pos) {
    return 1 + static_cast<std::size_t>(std::count(s.begin(), s.begin() + static_cast<long>(pos), '\n'));
}

/** Index of the bracket closing the one opened just before `i` (depth 1), skipping nested ones. */
std::size_t find_close(const std::string& s, std::size_t i, char close) {
    int depth = 1;
    while (i < s.size()) {
        const std::size_t next = skip_non_code(s, i);
        if (next != i) {
            i = next;
            continue;
        }
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) {
                return c == close ? i : std::string::npos;
            }
        }
        ++i;
    }
    return std::string::npos;
}

/** Reads a whole file; false when it cannot be read. */
bool slurp(const std::string& path, std::string& out) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) {
        return false;
    }
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
        out.append(buf, n);
    }
    return std::ferror(f.get()) == 0;
}

} // namespace

std::string rewrite_source(const std::string& s, const std::string& path) {
    std::string out;
    out.reserve(s.size() + 256);
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        const std::size_t next = skip_non_code(s, i);
        if (next != i) {
            out.append(s, i, next - i);
            i = next;
            continue;
        }
        if (s.compare(i, 3, "<<<") == 0) {
            // Configuration: up to the ">>>" outside brackets.
            std::size_t j = i + 3;
            int depth = 0;
            std::size_t config_end = std::string::npos;
            while (j < n) {
                const std::size_t skip = skip_non_code(s, j);
                if (skip != j) {
                    j = skip;
                    continue;
                }
                const char c = s[j];
                if (c == '(' || c == '[' || c == '{') {
                    ++depth;
                } else if (c == ')' || c == ']' || c == '}') {
                    --depth;
                } else if (depth == 0 && s.compare(j, 3, ">>>") == 0) {
                    config_end = j;
                    break;
                } else if (c == ';' && depth <= 0) {
                    break;
                }
                ++j;
            }
            std::size_t open = config_end == std::string::npos ? n : config_end + 3;
            while (open < n && std::isspace(static_cast<unsigned char>(s[open]))) {
                ++open;
            }
            if (config_end == std::string::npos || open >= n || s[open] != '(') {
                throw BuildError(path + ":" + std::to_string(line_of(s, i)) +
                                 ": a kernel launch `<<<...>>>(...)` could not be parsed");
            }
            const std::size_t close = find_close(s, open + 1, ')');
            if (close == std::string::npos) {
                throw BuildError(path + ":" + std::to_string(line_of(s, i)) +
                                 ": the argument list of a kernel launch is not closed");
            }
            // Every character but the chevrons is kept, newlines and line continuations included, so the
            // lines after the launch keep their numbers (and a launch inside a macro stays inside it).
            out.append(s, config_end + 3, open - config_end - 3);
            out.append(s, open, close + 1 - open); // "(ARGS)"
            out += ", ::hsa_sim::launch_sink(";
            out.append(s, i + 3, config_end - i - 3);
            out += ")";
            i = close + 1;
            continue;
        }
        static const std::string kBuiltin = "__builtin_amdgcn_";
        if (s.compare(i, kBuiltin.size(), kBuiltin) == 0 && (i == 0 || !is_ident(s[i - 1]))) {
            std::size_t j = i + kBuiltin.size();
            while (j < n && is_ident(s[j])) {
                ++j;
            }
            const std::string name = s.substr(i, j - i);
            std::size_t k = j;
            while (k < n && (s[k] == ' ' || s[k] == '\t')) {
                ++k;
            }
            if (k < n && s[k] == '(') {
                // The builtins hsa_sim_standin/device.h implements (namespace hsa_sim::amdgcn); the rest
                // fail.
                static const std::set<std::string> kSupported = {
                    "s_barrier",      "workitem_id_x",  "workitem_id_y",  "workitem_id_z",
                    "workgroup_id_x", "workgroup_id_y", "workgroup_id_z", "s_sleep",
                    "s_memtime",      "s_memrealtime",  "fence",          "s_getpc"};
                const std::string short_name = name.substr(kBuiltin.size());
                if (kSupported.count(short_name)) {
                    out += "::hsa_sim::amdgcn::" + short_name + "(";
                    i = k + 1;
                    continue;
                }
                out += "::hsa_sim::unsupported_call{\"" + name + "\"}(";
                i = k + 1;
                continue;
            }
            out += name;
            i = j;
            continue;
        }
        if (is_ident(s[i])) {
            std::size_t j = i;
            while (j < n && is_ident(s[j])) {
                ++j;
            }
            out.append(s, i, j - i);
            i = j;
            continue;
        }
        out += s[i++];
    }
    return out;
}

std::vector<ObjectSymbol> read_object_symbols(const std::string& path) {
    std::string data;
    if (!slurp(path, data)) {
        throw BuildError("cannot read " + path);
    }
    if (data.size() < sizeof(Elf64_Ehdr) || std::memcmp(data.data(), ELFMAG, SELFMAG) != 0 ||
        data[EI_CLASS] != ELFCLASS64) {
        throw BuildError(path + ": not an ELF64 object");
    }
    Elf64_Ehdr eh;
    std::memcpy(&eh, data.data(), sizeof eh);
    auto section = [&](std::size_t index) {
        Elf64_Shdr sh;
        const std::size_t at = eh.e_shoff + index * eh.e_shentsize;
        if (index >= eh.e_shnum || at + sizeof sh > data.size()) {
            throw BuildError(path + ": truncated section table");
        }
        std::memcpy(&sh, data.data() + at, sizeof sh);
        return sh;
    };
    std::vector<ObjectSymbol> out;
    for (std::size_t s = 0; s < eh.e_shnum; ++s) {
        const Elf64_Shdr sh = section(s);
        if (sh.sh_type != SHT_SYMTAB) {
            continue;
        }
        const Elf64_Shdr strtab = section(sh.sh_link);
        if (sh.sh_offset + sh.sh_size > data.size() || strtab.sh_offset + strtab.sh_size > data.size()) {
            throw BuildError(path + ": truncated symbol table");
        }
        const std::size_t count = sh.sh_size / sizeof(Elf64_Sym);
        for (std::size_t k = 1; k < count; ++k) {
            Elf64_Sym sym;
            std::memcpy(&sym, data.data() + sh.sh_offset + k * sizeof(Elf64_Sym), sizeof sym);
            if (sym.st_name >= strtab.sh_size) {
                continue;
            }
            ObjectSymbol o;
            const char* name = data.data() + strtab.sh_offset + sym.st_name;
            o.name.assign(name, strnlen(name, strtab.sh_size - sym.st_name));
            o.type = ELF64_ST_TYPE(sym.st_info);
            o.binding = ELF64_ST_BIND(sym.st_info);
            o.visibility = ELF64_ST_VISIBILITY(sym.st_other);
            o.defined = sym.st_shndx != SHN_UNDEF;
            o.size = sym.st_size;
            out.push_back(std::move(o));
        }
    }
    return out;
}

Discovered classify_symbols(const std::vector<ObjectSymbol>& symbols) {
    Discovered d;
    for (const auto& s : symbols) {
        const bool external = s.binding == STB_GLOBAL || s.binding == STB_WEAK;
        if (s.type == STT_FUNC && s.defined && external && s.visibility == STV_PROTECTED) {
            d.kernels.push_back(s.name);
        } else if (s.type == STT_OBJECT && s.defined && s.binding == STB_GLOBAL &&
                   s.visibility == STV_DEFAULT) {
            d.variables.push_back(s);
        } else if (s.type == STT_TLS && !s.defined && s.binding == STB_GLOBAL &&
                   s.name.compare(0, 2, "__") != 0 && s.name.compare(0, 4, "_ZSt") != 0 &&
                   s.name.compare(0, 5, "_ZNSt") != 0) {
            d.dynamic_shared.push_back(s.name);
        } else if (s.type == STT_TLS && s.defined) {
            d.defined_tls.push_back(s.name);
        }
    }
    return d;
}

KernelSignature demangle_kernel(const std::string& symbol) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !text) {
        throw BuildError("kernel symbol " + symbol + " does not demangle");
    }
    const std::string d = text.get();
    if (d.empty() || d.back() != ')') {
        throw BuildError("kernel symbol " + symbol + " (" + d + ") is not a plain function");
    }
    std::size_t i = d.size() - 1;
    int depth = 0;
    for (;; --i) {
        if (d[i] == ')') {
            ++depth;
        } else if (d[i] == '(' && --depth == 0) {
            break;
        }
        if (i == 0) {
            throw BuildError("kernel symbol " + symbol + " (" + d + ") has no parameter list");
        }
    }
    KernelSignature k;
    k.name = d.substr(0, i);
    k.parameters = d.substr(i + 1, d.size() - i - 2);
    // A function template's demangled name starts with its return type (void for kernels).
    if (!k.name.empty() && k.name.back() == '>' && k.name.compare(0, 5, "void ") == 0) {
        k.name.erase(0, 5);
    }
    if (k.name.find("(anonymous namespace)") != std::string::npos || k.name.find('{') != std::string::npos) {
        throw BuildError("kernel " + d + " has no name the stand-in entry can refer to");
    }
    return k;
}

namespace {

std::string quote(const std::string& arg) {
    if (!arg.empty() && arg.find_first_of(" \t\"'\\$`") == std::string::npos) {
        return arg;
    }
    std::string q = "'";
    for (char c : arg) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

/** Starts `argv` with the parent's stdio (stderr into `stderr_path` unless empty); returns its pid. */
pid_t spawn(const std::vector<std::string>& argv, bool verbose, const std::string& stderr_path) {
    if (verbose) {
        std::string line;
        for (const auto& a : argv) {
            line += (line.empty() ? "" : " ") + quote(a);
        }
        std::fprintf(stderr, "+ %s\n", line.c_str());
    }
    std::vector<char*> args;
    for (const auto& a : argv) {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        throw BuildError(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        if (!stderr_path.empty()) {
            const int fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (fd >= 0) {
                ::dup2(fd, 2); // dup2's copy is not close-on-exec
            }
        }
        ::execvp(args[0], args.data());
        std::fprintf(stderr, "replayscope-standins: cannot run %s: %s\n", args[0], std::strerror(errno));
        ::_exit(127);
    }
    return pid;
}

bool wait_ok(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return false;
        }
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/**
 * Runs the commands, at most two at a time; throws build_error(`what[i]`) for the first that fails.
 * `stderr_paths[i]` (when given and not empty) receives the standard error of command i.
 */
void run_all(const std::vector<std::vector<std::string>>& commands, const std::vector<std::string>& what,
             bool verbose, const std::vector<std::string>& stderr_paths = {}) {
    std::size_t next = 0;
    std::vector<std::pair<pid_t, std::size_t>> running;
    std::string failure;
    while (next < commands.size() || !running.empty()) {
        while (failure.empty() && next < commands.size() && running.size() < 2) {
            running.emplace_back(spawn(commands[next], verbose,
                                       next < stderr_paths.size() ? stderr_paths[next] : std::string()),
                                 next);
            ++next;
        }
        const auto [pid, index] = running.front();
        running.erase(running.begin());
        if (!wait_ok(pid) && failure.empty()) {
            failure = what[index];
        }
        if (!failure.empty()) {
            next = commands.size();
        }
    }
    if (!failure.empty()) {
        throw BuildError(failure);
    }
}

std::string read_file(const std::string& path) {
    std::string text;
    if (!slurp(path, text)) {
        throw BuildError("cannot read " + path);
    }
    return text;
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
        throw BuildError("cannot write " + path.string());
    }
}

std::string c_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

/** Removes the temporary directory unless it is to be kept. */
class WorkDir {
  public:
    explicit WorkDir(const std::string& keep) {
        if (!keep.empty()) {
            path_ = fs::absolute(keep);
            fs::create_directories(path_);
            keep_ = true;
            return;
        }
        std::string tmpl = (fs::temp_directory_path() / "replayscope-standins-XXXXXX").string();
        if (::mkdtemp(tmpl.data()) == nullptr) {
            throw BuildError(std::string("cannot create a temporary directory: ") + std::strerror(errno));
        }
        path_ = tmpl;
    }
    ~WorkDir() {
        if (!keep_) {
            std::error_code ec;
            fs::remove_all(path_, ec);
        }
    }
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
    bool keep_ = false;
};

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

/** A user source as written and as compiled (after rewrite_source), line by line. */
struct SourceLines {
    std::vector<std::string> original;
    std::vector<std::string> rewritten;
};

/** Whether `line` is a caret line of a diagnostic (`   ^~~~ ~~`). */
bool is_caret_line(const std::string& line) {
    return line.find('^') != std::string::npos && line.find_first_not_of(" \t^~") == std::string::npos;
}

/**
 * The compilers' diagnostics `output` as the user should read them: on a line that rewrite_source changed
 * (a kernel launch), the compiler's copy of the rewritten line becomes the user's own line, its caret line
 * and column are dropped; everything else is kept.
 */
std::string present_diagnostics(const std::string& output,
                                const std::vector<std::pair<std::string, SourceLines>>& sources) {
    const std::vector<std::string> lines = split_lines(output);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        bool last = i + 1 == lines.size();
        if (last && line.empty()) {
            break;
        }
        std::string shown = line;
        const SourceLines* changed = nullptr;
        std::size_t number = 0;
        for (const auto& [path, text] : sources) {
            if (line.compare(0, path.size(), path) != 0 || line.size() <= path.size() ||
                line[path.size()] != ':') {
                continue;
            }
            std::size_t p = path.size() + 1;
            std::size_t q = p;
            while (q < line.size() && std::isdigit(static_cast<unsigned char>(line[q]))) {
                ++q;
            }
            if (q == p || q >= line.size() || line[q] != ':') {
                continue;
            }
            number = std::stoul(line.substr(p, q - p));
            if (number == 0 || number > text.original.size() || number > text.rewritten.size() ||
                text.original[number - 1] == text.rewritten[number - 1]) {
                continue;
            }
            changed = &text;
            // The column counts in the rewritten line: drop it.
            std::size_t r = q + 1;
            while (r < line.size() && std::isdigit(static_cast<unsigned char>(line[r]))) {
                ++r;
            }
            if (r > q + 1 && r < line.size() && line[r] == ':') {
                shown = line.substr(0, q) + line.substr(r);
            }
            break;
        }
        out += shown + "\n";
        if (changed == nullptr) {
            continue;
        }
        // The compiler's copy of the rewritten line, then its caret line: the user's own line instead.
        if (i + 1 < lines.size() && lines[i + 1] == changed->rewritten[number - 1]) {
            out += changed->original[number - 1] + "\n";
            ++i;
            if (i + 1 < lines.size() && is_caret_line(lines[i + 1])) {
                ++i;
            }
        }
    }
    return out;
}

} // namespace

BuildResult build_library(const BuildOptions& o) {
    if (o.sources.empty()) {
        throw BuildError("no source files");
    }
    if (o.compiler.empty()) {
        throw BuildError("no C++ compiler");
    }
    const fs::path support = o.support_dir;
    if (!fs::exists(support / "include" / "hsa_sim_standin" / "device.h") ||
        !fs::exists(support / "src" / "runtime.cpp")) {
        throw BuildError("support files not found in " + support.string());
    }
    WorkDir work(o.keep_dir);
    const fs::path& w = work.path();

    const std::vector<std::string> common = {"-std=c++17", "-fPIC", "-fvisibility=hidden",
                                             "-I" + (support / "include").string()};
    auto compile = [&](const fs::path& source, const fs::path& object, const std::string& opt,
                       const std::vector<std::string>& extra) {
        std::vector<std::string> cmd = o.compiler;
        cmd.insert(cmd.end(), common.begin(), common.end());
        cmd.push_back(opt);
        cmd.insert(cmd.end(), extra.begin(), extra.end());
        cmd.insert(cmd.end(), o.flags.begin(), o.flags.end());
        cmd.insert(cmd.end(), {"-c", source.string(), "-o", object.string()});
        return cmd;
    };

    // Pass 1: every source as host C++, to find what it defines.
    std::vector<std::vector<std::string>> commands;
    std::vector<std::string> what;
    std::vector<std::vector<std::string>> source_flags;
    std::vector<std::pair<std::string, SourceLines>> lines_of_sources;
    std::vector<std::string> diagnostics; // the compilers' standard error, shown with the user's own lines
    // The user's host code is never run: its warnings (unused results of hipMalloc, ...) are noise here,
    // unless asked for. Errors always show.
    const bool quiet = !o.verbose && !o.warnings;
    for (std::size_t i = 0; i < o.sources.size(); ++i) {
        const fs::path src = fs::absolute(o.sources[i]);
        const std::string text = read_file(src.string());
        const std::string rewritten = rewrite_source(text, src.string());
        write_file(w / ("source" + std::to_string(i) + ".cpp"),
                   "#line 1 " + c_string(src.string()) + "\n" + rewritten);
        lines_of_sources.push_back({src.string(), {split_lines(text), split_lines(rewritten)}});
        source_flags.push_back({"-iquote", src.parent_path().string()});
        std::vector<std::string> extra = source_flags.back();
        if (quiet) {
            extra.push_back("-w");
        }
        commands.push_back(compile(w / ("source" + std::to_string(i) + ".cpp"),
                                   w / ("pass1_" + std::to_string(i) + ".o"), "-O0", extra));
        what.push_back(o.sources[i] + " does not compile as host C++ (compiler output above)");
        diagnostics.push_back((w / ("pass1_" + std::to_string(i) + ".stderr")).string());
    }
    auto show_diagnostics = [&](std::size_t count) {
        for (std::size_t i = 0; i < count && i < diagnostics.size(); ++i) {
            std::string text;
            if (diagnostics[i].empty() || !slurp(diagnostics[i], text) || text.empty()) {
                continue;
            }
            const std::string shown = present_diagnostics(text, lines_of_sources);
            std::fwrite(shown.data(), 1, shown.size(), stderr);
        }
        std::fflush(stderr);
    };
    auto run_compiles = [&](const std::vector<std::vector<std::string>>& cmds,
                            const std::vector<std::string>& whats) {
        try {
            run_all(cmds, whats, o.verbose, diagnostics);
        } catch (const BuildError&) {
            show_diagnostics(cmds.size());
            throw;
        }
        show_diagnostics(cmds.size());
    };
    // The stand-in runtime compiles meanwhile.
    commands.push_back(
        compile(support / "src" / "runtime.cpp", w / "runtime.o", "-O2", {"-ffunction-sections"}));
    what.push_back("the stand-in runtime does not compile with " + o.compiler.front() +
                   " (compiler output above)");
    diagnostics.push_back((w / "runtime.stderr").string());
    run_compiles(commands, what);

    BuildResult result;
    std::set<std::string> kernels_seen;
    std::set<std::string> tls_defined;
    std::set<std::string> dynamic_shared;
    std::vector<ObjectSymbol> variables;
    std::vector<std::vector<std::pair<std::string, KernelSignature>>> kernels_per_file(o.sources.size());
    for (std::size_t i = 0; i < o.sources.size(); ++i) {
        const Discovered d =
            classify_symbols(read_object_symbols((w / ("pass1_" + std::to_string(i) + ".o")).string()));
        for (const auto& k : d.kernels) {
            if (kernels_seen.insert(k).second) {
                kernels_per_file[i].emplace_back(k, demangle_kernel(k));
            }
        }
        for (const auto& v : d.variables) {
            variables.push_back(v);
        }
        tls_defined.insert(d.defined_tls.begin(), d.defined_tls.end());
        dynamic_shared.insert(d.dynamic_shared.begin(), d.dynamic_shared.end());
    }

    // Pass 2: each source again with its kernel entries, and the library's table.
    commands.clear();
    what.clear();
    diagnostics.clear();
    std::string table =
        "// Generated by replayscope-standins.\n#include <hsa_sim/standin.h>\n#include <stddef.h>\n\n";
    std::string kernel_rows;
    std::size_t entry = 0;
    for (std::size_t i = 0; i < o.sources.size(); ++i) {
        std::string unit = "// Generated by replayscope-standins from " + o.sources[i] +
                           ".\n#include \"source" + std::to_string(i) +
                           ".cpp\"\n#include <hsa_sim_standin/entry.h>\n\n";
        for (const auto& [symbol, sig] : kernels_per_file[i]) {
            const std::string fn = "hsa_sim_standin_kernel_" + std::to_string(entry++);
            unit += "// " + symbol + "\nextern \"C\" int " + fn +
                    "(const hsa_sim_standin_launch_t* launch, char* error, size_t error_size) {\n"
                    "    return ::hsa_sim::run_kernel(static_cast<void (*)(" +
                    sig.parameters + ")>(&" + sig.name + "), launch, error, error_size);\n}\n";
            table += "extern \"C\" int " + fn + "(const hsa_sim_standin_launch_t*, char*, size_t);\n";
            kernel_rows += "    {" + c_string(symbol) + ", &" + fn + "},\n";
            result.kernels.push_back(symbol);
        }
        write_file(w / ("entries" + std::to_string(i) + ".cpp"), unit);
        commands.push_back(
            compile(w / ("entries" + std::to_string(i) + ".cpp"), w / ("entries" + std::to_string(i) + ".o"),
                    "-O2", {"-w", "-ffunction-sections", "-fdata-sections", "-iquote", source_flags[i][1]}));
        what.push_back(o.sources[i] +
                       ": the generated kernel entries do not compile (compiler output above)");
        diagnostics.push_back((w / ("entries" + std::to_string(i) + ".stderr")).string());
    }
    std::string variable_rows;
    for (std::size_t v = 0; v < variables.size(); ++v) {
        const std::string name = "hsa_sim_standin_variable_" + std::to_string(v);
        table += "extern char " + name + "[] __asm__(" + c_string(variables[v].name) + ");\n";
        variable_rows += "    {" + c_string(variables[v].name) + ", " + name + ", " +
                         std::to_string(variables[v].size) + "u},\n";
        result.variables.push_back(variables[v].name);
    }
    std::size_t lds = 0;
    for (const auto& name : dynamic_shared) {
        if (tls_defined.count(name)) {
            continue;
        }
        table += "// extern __shared__ " + name +
                 "\nalignas(16) thread_local unsigned char hsa_sim_standin_lds_" + std::to_string(lds++) +
                 "[65536] __asm__(" + c_string(name) + ");\n";
    }
    table += "\nnamespace {\n";
    if (!kernel_rows.empty()) {
        table += "const hsa_sim_standin_kernel_t kernels[] = {\n" + kernel_rows + "};\n";
    }
    if (!variable_rows.empty()) {
        table += "const hsa_sim_standin_variable_t variables[] = {\n" + variable_rows + "};\n";
    }
    table += "const hsa_sim_standin_library_t library = {HSA_SIM_STANDIN_ABI_VERSION, " +
             std::to_string(result.kernels.size()) + "u, " + (kernel_rows.empty() ? "nullptr" : "kernels") +
             ", " + std::to_string(result.variables.size()) + "u, " +
             (variable_rows.empty() ? "nullptr" : "variables") +
             "};\n} // namespace\n\n"
             "extern \"C\" __attribute__((visibility(\"default\"))) const hsa_sim_standin_library_t* "
             "hsa_sim_standin_library(void) {\n    return &library;\n}\n";
    write_file(w / "table.cpp", table);
    commands.push_back(compile(w / "table.cpp", w / "table.o", "-O2", {}));
    what.push_back("the generated library table does not compile (compiler output above)");
    diagnostics.push_back((w / "table.stderr").string());
    run_compiles(commands, what);

    // Link: only the entry point is exported; host code nothing refers to is dropped, so the library
    // needs neither libamdhip64 nor the HIP runtime's symbols (--no-undefined proves it).
    write_file(w / "exports.map", "{\n  global: hsa_sim_standin_library;\n  local: *;\n};\n");
    std::vector<std::string> link = o.compiler;
    // Linked beside the output, then renamed over it: a failed build leaves an existing library alone, and
    // a runtime opening the library never sees half a file.
    const fs::path output = fs::absolute(o.output);
    const fs::path partial = output.string() + ".partial-" + std::to_string(::getpid());
    link.insert(link.end(), {"-shared", "-o", partial.string()});
    for (std::size_t i = 0; i < o.sources.size(); ++i) {
        link.push_back((w / ("entries" + std::to_string(i) + ".o")).string());
    }
    link.insert(link.end(), {(w / "table.o").string(), (w / "runtime.o").string(), "-Wl,--gc-sections",
                             "-Wl,--version-script=" + (w / "exports.map").string(), "-Wl,--no-undefined",
                             "-Wl,--exclude-libs,ALL"});
    for (const auto& f : o.flags) {
        if (f.compare(0, 2, "-L") == 0 || f.compare(0, 2, "-l") == 0 || f.compare(0, 4, "-Wl,") == 0 ||
            f.compare(0, 10, "-fsanitize") == 0) {
            link.push_back(f);
        }
    }
    link.push_back(o.boost_context);
    try {
        run_all({link},
                {"linking " + o.output +
                 " failed (linker output above): code that the kernels reach "
                 "refers to functions no stand-in defines"},
                o.verbose);
    } catch (const BuildError&) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw;
    }
    std::error_code ec;
    fs::rename(partial, output, ec);
    if (ec) {
        const std::string reason = ec.message();
        fs::remove(partial, ec);
        throw BuildError("cannot write " + output.string() + ": " + reason);
    }
    return result;
}

} // namespace rs::standins
