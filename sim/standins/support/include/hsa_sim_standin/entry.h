// SPDX-License-Identifier: MIT
/*
 * Kernel entries of a stand-in library (included by the translation units replayscope-standins
 * generates): unpacks a dispatch's kernarg segment into a kernel's parameters and runs its grid.
 *
 * Kernarg layout: the explicit arguments in declaration order, each at the next offset aligned to its
 * type's alignment (by-value structs included), as clang lays out HIP kernel arguments for AMDGPU (the
 * `.args` `.offset` values of the code object's metadata). Hidden arguments that follow are not read.
 */
#ifndef HSA_SIM_STANDIN_ENTRY_H
#define HSA_SIM_STANDIN_ENTRY_H

#include <hsa_sim/standin.h>
#include <hsa_sim_standin/device.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

namespace hsa_sim {

/** Runs one work-item of the dispatch (called on the work-item's fiber). */
using invoke_fn = void (*)(const void* context);

/**
 * Runs every work-item of `launch` (work-groups one after another on the calling thread, the work-items
 * of a work-group on fibers), each calling `invoke(context)`. Returns 0, or 1 with the reason in `error`
 * (truncated to `error_size` bytes, NUL-terminated) when the launch is malformed or a work-item failed.
 */
int run_grid(const hsa_sim_standin_launch_t* launch, char* error, size_t error_size, invoke_fn invoke,
             const void* context);

/** Writes `message` to the entry's error buffer (truncated, NUL-terminated); returns 1. */
int report(char* error, size_t error_size, const char* message);

/** Offsets of explicit kernel arguments of types A... in the kernarg segment, and the end of the last. */
template <class... A>
struct kernarg_layout {
    static constexpr std::size_t count = sizeof...(A);
    static constexpr std::array<std::size_t, count + 1> compute() {
        std::array<std::size_t, count + 1> out{};
        std::size_t offset = 0;
        std::size_t i = 0;
        ((offset = (offset + alignof(A) - 1) / alignof(A) * alignof(A), out[i++] = offset,
          offset += sizeof(A)),
         ...);
        out[count] = offset;
        return out;
    }
    static constexpr std::array<std::size_t, count + 1> offsets = compute();
    static constexpr std::size_t end = offsets[count];
};

template <class... A>
struct kernel_context {
    void (*kernel)(A...);
    const unsigned char* arguments;
};

template <class... A, std::size_t... I>
void invoke_kernel(const kernel_context<A...>& c, std::index_sequence<I...>) {
    c.kernel(*reinterpret_cast<const A*>(c.arguments + kernarg_layout<A...>::offsets[I])...);
}

/**
 * The body of every kernel entry: copies the explicit arguments out of `launch->kernarg` (an error when
 * the kernarg segment is missing or smaller than they need) and runs the grid with them.
 */
template <class... A>
int run_kernel(void (*kernel)(A...), const hsa_sim_standin_launch_t* launch, char* error, size_t error_size) {
    using layout = kernarg_layout<A...>;
    constexpr std::size_t align = 64;
    std::unique_ptr<unsigned char[]> storage(new unsigned char[layout::end + align]);
    void* p = storage.get();
    std::size_t space = layout::end + align;
    auto* arguments = static_cast<unsigned char*>(std::align(align, layout::end, p, space));
    if (layout::end > 0) {
        if (launch->kernarg == nullptr) {
            return report(error, error_size,
                          "the dispatch has no kernarg segment, the kernel takes arguments");
        }
        if (launch->kernarg_segment_size < layout::end) {
            return report(error, error_size,
                          "the kernarg segment is smaller than the kernel's explicit arguments");
        }
        std::memcpy(arguments, launch->kernarg, layout::end);
    }
    const kernel_context<A...> context{kernel, arguments};
    return run_grid(
        launch, error, error_size,
        [](const void* c) {
            invoke_kernel(*static_cast<const kernel_context<A...>*>(c), std::index_sequence_for<A...>{});
        },
        &context);
}

} // namespace hsa_sim

#endif
