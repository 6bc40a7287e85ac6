// SPDX-License-Identifier: MIT
// Exported HSA entry points. Like ROCr's hsa_table_interface.cpp, each exported function only jumps
// through the live API table, so a tool that stores its own wrapper in the table sees every call.
// The jumps are written in assembly so that one line per entry serves any signature: the arguments
// stay in their registers and the table entry is tail-called (x86-64 System V).
#include "api_table.h"

#include <cstddef>

#if !defined(__x86_64__)
#error "the simulator's trampolines are written for x86-64"
#endif

#define SIM_STR2(x) #x
#define SIM_STR(x) SIM_STR2(x)

// Emits `name:` that loads the table pointer and jumps through `table->slot`.
#define SIM_TRAMPOLINE(table_var, table_type, name, slot)                                                    \
    asm(".pushsection .text\n"                                                                               \
        ".globl " #name "\n"                                                                                 \
        ".type " #name ", @function\n"                                                                       \
        ".p2align 4\n" #name ":\n"                                                                           \
        "    endbr64\n"                                                                                      \
        "    movq " #table_var "(%%rip), %%rax\n"                                                            \
        "    jmpq *%c0(%%rax)\n"                                                                             \
        ".size " #name ", . - " #name "\n"                                                                   \
        ".popsection\n" ::"i"(offsetof(table_type, slot##_fn)));

namespace {
// Extended asm (needed for the offsetof operand) is only allowed inside a function; the function itself
// is never called, its asm only places the trampolines in .text.
[[gnu::used]] void define_trampolines() {
#define SIM_CORE_TRAMPOLINE(name) SIM_TRAMPOLINE(sim_core_table, CoreApiTable, name, name)
#define SIM_AMD_TRAMPOLINE(name) SIM_TRAMPOLINE(sim_amd_ext_table, AmdExtTable, name, name)
#define SIM_IMAGE_TRAMPOLINE(name) SIM_TRAMPOLINE(sim_image_ext_table, ImageExtTable, name, name)
#define SIM_ALIAS_TRAMPOLINE(name, slot) SIM_TRAMPOLINE(sim_core_table, CoreApiTable, name, slot)
    SIM_CORE_API(SIM_CORE_TRAMPOLINE)
    SIM_AMD_EXT_API(SIM_AMD_TRAMPOLINE)
    SIM_AMD_EXT_VMEM_API(SIM_AMD_TRAMPOLINE)
    SIM_IMAGE_EXT_API(SIM_IMAGE_TRAMPOLINE)
    SIM_CORE_ALIASES(SIM_ALIAS_TRAMPOLINE)
}
} // namespace

// The table must exist before the first exported call, which may come from a static constructor.
__attribute__((constructor(101))) static void sim_install_table() {
    sim::ApiTable::instance();
}
