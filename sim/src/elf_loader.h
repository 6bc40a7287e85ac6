// SPDX-License-Identifier: MIT
// Loading AMDGPU ELF code objects into an executable for one agent (the counterpart of ROCr 5.2.3's
// ExecutableImpl::LoadCodeObject for code object v3..v5). See docs/sim-fidelity.md.
#pragma once

#include "executable.h"

#include <memory>
#include <string>

namespace sim {

/// Loads the AMDGPU ELF held by `reader` into `executable` for `agent` (caller holds the executable
/// registry's lock exclusively): places the PT_LOAD segments into one zeroed, page-aligned block
/// registered as memory of `agent` (known to hsa_amd_pointer_info), opens the stand-in instances that
/// define its kernels or variables, binds those variables (their address becomes the instance's
/// storage, initialised from the image and registered as memory of `agent`), applies the dynamic
/// relocations (R_AMDGPU_ABS64, _RELATIVE64, _ABS32, _ABS32_LO/_HI; pointers to a bound variable follow
/// it), and creates kernel objects (handle: address of the loaded kernel descriptor) and symbols.
/// Returns HSA_STATUS_SUCCESS with `out` set (not yet added to the executable);
/// HSA_STATUS_ERROR_INVALID_CODE_OBJECT for a malformed or unsupported image or relocation;
/// HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS when the object's ISA does not run on the agent's;
/// HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED when the executable already has one of its symbols for that
/// agent; HSA_STATUS_ERROR_VARIABLE_UNDEFINED for a relocation against an undefined symbol no other
/// code object of the executable defines; HSA_STATUS_ERROR_OUT_OF_RESOURCES when memory runs out.
/// `error` then says why (printed by the caller).
hsa_status_t load_elf_code_object(Executable& executable, Agent& agent, const CodeObjectReader& reader,
                                  std::unique_ptr<LoadedCodeObject>& out, std::string& error);

} // namespace sim
