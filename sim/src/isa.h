// SPDX-License-Identifier: MIT
// ISA names of the simulated agents and code-object/agent ISA compatibility (docs/sim-fidelity.md).
#pragma once

namespace sim {

/// ISA name of the simulated GPU agents with target features, as an MI210 (gfx90a, SRAM ECC on, XNACK off)
/// reports it through HSA_ISA_INFO_NAME (ROCr 5.2.3 src/core/runtime/isa.cpp builds the name from the
/// processor and the agent's sramecc/xnack settings).
inline constexpr const char* kGpuIsaName = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-";
/// The same ISA without target features, as simulated code objects and plain `gfx90a` builds name it.
inline constexpr const char* kGpuIsaBaseName = "amdgcn-amd-amdhsa--gfx90a";
/// HSA_AGENT_INFO_NAME of the simulated GPU agents (the processor, without features).
inline constexpr const char* kGpuAgentName = "gfx90a";

/// True when a code object built for `object_isa` may be loaded on an agent whose ISA is `agent_isa`.
/// Both are ISA names as `amdgcn-amd-amdhsa--gfx90a[:sramecc±][:xnack±]`; the `amdgcn-amd-amdhsa--`
/// prefix may be omitted on either side (a bare processor `gfx90a` is accepted). The processors must
/// be equal; a target feature the object leaves unspecified matches any agent setting ("any", as in
/// code object v4), a feature it names with `+` or `-` must equal the agent's setting (an agent that
/// does not name a feature counts as "-"). A null `object_isa` matches every agent; a null `agent_isa`,
/// an empty processor or an unknown feature name never matches. Rules as ROCr 5.2.3
/// src/core/runtime/isa.cpp (Isa::IsCompatible) and the LLVM AMDGPUUsage target-feature table.
bool isa_compatible(const char* object_isa, const char* agent_isa);

} // namespace sim
