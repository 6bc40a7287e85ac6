// SPDX-License-Identifier: MIT
// Kernel stand-ins (sim/include/hsa_sim/standin.h): the libraries named in HSA_SIM_STANDINS, private
// instances of them per loaded code object, and running a real code object's kernel for one dispatch.
#pragma once

#include "hsa_sim/standin.h"

#include <hsa.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sim {

struct KernelObject;

/// A private instance of one stand-in library: its own copy of the library's globals. The library is
/// closed when the last reference (loaded code object, kernel object of a running dispatch) goes.
struct StandinInstance {
    std::string path;             ///< as named in HSA_SIM_STANDINS
    std::shared_ptr<void> handle; ///< dlopen handle of the memfd copy
    const hsa_sim_standin_library_t* library = nullptr;

    /// The instance's kernel / variable of that ELF symbol name, or nullptr.
    const hsa_sim_standin_kernel_t* find_kernel(std::string_view symbol) const;
    const hsa_sim_standin_variable_t* find_variable(std::string_view symbol) const;
};

/// The paths of HSA_SIM_STANDINS (colon-separated; empty entries skipped), read at each call.
std::vector<std::string> standin_paths();

/// Opens a private instance (a memfd copy of the file, dlopened through /proc/self/fd/N) of every
/// library of HSA_SIM_STANDINS that defines one of `kernels` or `variables` (ELF symbol names, kernels
/// without ".kd"), in HSA_SIM_STANDINS order. Which symbols a library defines is learnt once per path
/// from a probe instance. A library that cannot be opened, lacks HSA_SIM_STANDIN_ENTRY or reports
/// another HSA_SIM_STANDIN_ABI_VERSION is skipped with a message on stderr (once per path); so is a
/// failing private copy (memfd or dlopen error).
std::vector<std::shared_ptr<StandinInstance>>
open_standin_instances(const std::vector<std::string>& kernels, const std::vector<std::string>& variables);

/// Runs the kernel of a real code object for one kernel-dispatch packet on agent `agent_index` /
/// `agent_handle` through its stand-in entry. Returns HSA_STATUS_SUCCESS when the dispatch ran;
/// HSA_STATUS_ERROR_INVALID_CODE_OBJECT when no stand-in defines the kernel (a code object no stand-in
/// library covers runs on the interpreter instead, elf_loader.cpp); HSA_STATUS_ERROR_EXCEPTION when the
/// entry returned non-zero. On failure `error` names the kernel and the reason.
hsa_status_t run_code_object_kernel(const KernelObject& kernel, const hsa_kernel_dispatch_packet_t& packet,
                                    uint32_t agent_index, uint64_t agent_handle, std::string& error);

} // namespace sim
