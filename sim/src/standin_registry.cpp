// SPDX-License-Identifier: MIT
#include "standin_registry.h"

#include "dispatch_geometry.h"
#include "executable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {

namespace {

/// What a probe instance of one library showed (or why it is unusable).
struct Probe {
    bool usable = false;
    std::set<std::string, std::less<>> symbols; ///< kernels and variables it defines
};

std::mutex g_probe_mutex;
std::map<std::string, Probe> g_probes; // by path

const hsa_sim_standin_library_t* describe(void* handle, const std::string& path, std::string& why) {
    auto entry = reinterpret_cast<hsa_sim_standin_library_fn_t>(dlsym(handle, HSA_SIM_STANDIN_ENTRY));
    if (!entry) {
        why = "no " HSA_SIM_STANDIN_ENTRY " in " + path;
        return nullptr;
    }
    const hsa_sim_standin_library_t* lib = entry();
    if (!lib || lib->abi_version != HSA_SIM_STANDIN_ABI_VERSION) {
        why = path + " reports stand-in ABI version " + (lib ? std::to_string(lib->abi_version) : "(none)") +
              ", not " + std::to_string(HSA_SIM_STANDIN_ABI_VERSION);
        return nullptr;
    }
    if ((lib->kernel_count && !lib->kernels) || (lib->variable_count && !lib->variables)) {
        why = path + " describes kernels or variables without their arrays";
        return nullptr;
    }
    return lib;
}

const Probe& probe(const std::string& path) {
    // Caller holds g_probe_mutex.
    auto it = g_probes.find(path);
    if (it != g_probes.end()) {
        return it->second;
    }
    Probe p;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string why;
    if (!handle) {
        const char* e = dlerror();
        why = e ? e : path;
    } else if (const hsa_sim_standin_library_t* lib = describe(handle, path, why)) {
        p.usable = true;
        for (uint32_t i = 0; i < lib->kernel_count; ++i) {
            if (lib->kernels[i].symbol) {
                p.symbols.insert(lib->kernels[i].symbol);
            }
        }
        for (uint32_t i = 0; i < lib->variable_count; ++i) {
            if (lib->variables[i].symbol) {
                p.symbols.insert(lib->variables[i].symbol);
            }
        }
    }
    if (!p.usable) {
        std::fprintf(stderr, "hsa_sim: stand-in library skipped: %s\n", why.c_str());
    }
    // The probe instance stays open: its globals are never used, and closing it would let the dynamic
    // linker reuse its addresses for an instance while a stale pointer to it could still exist.
    return g_probes.emplace(path, std::move(p)).first->second;
}

std::shared_ptr<StandinInstance> open_private(const std::string& path) {
    int in = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        return nullptr;
    }
    int fd = memfd_create("hsa_sim_standin", MFD_CLOEXEC);
    if (fd < 0) {
        close(in);
        return nullptr;
    }
    char buffer[65536];
    bool ok = true;
    for (;;) {
        ssize_t n = read(in, buffer, sizeof(buffer));
        if (n == 0) {
            break;
        }
        if (n < 0) {
            ok = false;
            break;
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(fd, buffer + done, static_cast<size_t>(n - done));
            if (w <= 0) {
                ok = false;
                break;
            }
            done += w;
        }
        if (!ok) {
            break;
        }
    }
    close(in);
    void* handle = nullptr;
    if (ok) {
        char proc_path[64];
        std::snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
        handle = dlopen(proc_path, RTLD_NOW | RTLD_LOCAL);
    }
    // The memfd stays open while the instance is loaded: the dynamic linker matches a new dlopen by its
    // path first, and a reused descriptor number would hand back the previous instance.
    if (!handle) {
        close(fd);
    }
    if (!handle) {
        const char* e = dlerror();
        std::fprintf(stderr, "hsa_sim: cannot open a private instance of %s: %s\n", path.c_str(),
                     e ? e : "copy failed");
        return nullptr;
    }
    auto inst = std::make_shared<StandinInstance>();
    inst->path = path;
    inst->handle = std::shared_ptr<void>(handle, [fd](void* h) {
        dlclose(h);
        close(fd);
    });
    std::string why;
    inst->library = describe(handle, path, why);
    if (!inst->library) {
        std::fprintf(stderr, "hsa_sim: stand-in library skipped: %s\n", why.c_str());
        return nullptr;
    }
    return inst;
}

} // namespace

const hsa_sim_standin_kernel_t* StandinInstance::find_kernel(std::string_view symbol) const {
    for (uint32_t i = 0; i < library->kernel_count; ++i) {
        const hsa_sim_standin_kernel_t& k = library->kernels[i];
        if (k.symbol && k.entry && symbol == k.symbol) {
            return &k;
        }
    }
    return nullptr;
}

const hsa_sim_standin_variable_t* StandinInstance::find_variable(std::string_view symbol) const {
    for (uint32_t i = 0; i < library->variable_count; ++i) {
        const hsa_sim_standin_variable_t& v = library->variables[i];
        if (v.symbol && v.address && symbol == v.symbol) {
            return &v;
        }
    }
    return nullptr;
}

std::vector<std::string> standin_paths() {
    std::vector<std::string> out;
    const char* env = std::getenv(HSA_SIM_STANDINS_ENV);
    if (!env) {
        return out;
    }
    std::string all(env);
    size_t start = 0;
    while (start <= all.size()) {
        size_t end = all.find(':', start);
        if (end == std::string::npos) {
            end = all.size();
        }
        if (end > start) {
            out.push_back(all.substr(start, end - start));
        }
        start = end + 1;
    }
    return out;
}

std::vector<std::shared_ptr<StandinInstance>>
open_standin_instances(const std::vector<std::string>& kernels, const std::vector<std::string>& variables) {
    std::vector<std::shared_ptr<StandinInstance>> out;
    for (const std::string& path : standin_paths()) {
        bool wanted = false;
        {
            std::lock_guard lock(g_probe_mutex);
            const Probe& p = probe(path);
            if (!p.usable) {
                continue;
            }
            for (const auto* names : {&kernels, &variables}) {
                for (const std::string& n : *names) {
                    wanted = wanted || p.symbols.count(n) != 0;
                }
            }
        }
        if (!wanted) {
            continue;
        }
        if (auto inst = open_private(path)) {
            out.push_back(std::move(inst));
        }
    }
    return out;
}

hsa_status_t run_code_object_kernel(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet,
                                    uint32_t agent_index, uint64_t agent_handle, std::string& error) {
    hsa_sim_standin_launch_t launch{};
    copy_dispatch_geometry(packet, launch);
    launch.kernarg_segment_size = kernel.metadata->kernarg_segment_size;
    const uint32_t fixed = kernel.metadata->group_segment_fixed_size;
    launch.dynamic_group_segment_size =
        packet.group_segment_size > fixed ? packet.group_segment_size - fixed : 0;
    launch.agent_index = agent_index;
    launch.agent_handle = agent_handle;
    launch.kernel_name = kernel.symbol_name.c_str();
    char reason[512] = {0};
    if (kernel.standin) {
        if (kernel.standin(&launch, reason, sizeof(reason)) == 0) {
            return HSA_STATUS_SUCCESS;
        }
        reason[sizeof(reason) - 1] = '\0';
        error = "kernel " + kernel.symbol_name + " failed in its stand-in (" + kernel.standin_instance->path +
                "): " + (reason[0] ? reason : "no reason given");
        return HSA_STATUS_ERROR_EXCEPTION;
    }
    error = "kernel " + kernel.symbol_name +
            " has no stand-in: no library of " HSA_SIM_STANDINS_ENV
            " defines it (a code object none of them covers runs on the interpreter)";
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

} // namespace sim
