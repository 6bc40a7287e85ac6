// SPDX-License-Identifier: MIT
#include "blit_kernels.h"

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace sim {

namespace {

struct ULong4 {
    uint64_t v[4];
};

int failure(char* error, size_t error_size, const char* format, ...) {
    if (error && error_size) {
        va_list ap;
        va_start(ap, format);
        std::vsnprintf(error, error_size, format, ap);
        va_end(ap);
    }
    return 1;
}

/// The explicit (non-hidden) arguments of a dispatch, read at their metadata offsets.
class Args {
  public:
    Args(const hsa_sim_standin_launch_t& launch, const elf::KernelMetadata& md) : launch_(launch) {
        for (const elf::KernelArg& a : md.args) {
            if (a.value_kind.rfind("hidden_", 0) != 0) {
                args_.push_back(&a);
            }
        }
    }

    /// Reads argument `index` as a T; false (with `why` set) when it is missing, of another size or
    /// outside the kernarg segment.
    template <typename T>
    bool get(size_t index, T& out) {
        if (!launch_.kernarg) {
            why_ = "no kernarg segment";
            return false;
        }
        if (index >= args_.size()) {
            why_ = "metadata has " + std::to_string(args_.size()) + " arguments, argument " +
                   std::to_string(index) + " needed";
            return false;
        }
        const elf::KernelArg& a = *args_[index];
        if (a.size != sizeof(T)) {
            why_ = "argument " + std::to_string(index) + " is " + std::to_string(a.size) +
                   " bytes, expected " + std::to_string(sizeof(T));
            return false;
        }
        if (a.offset > launch_.kernarg_segment_size || sizeof(T) > launch_.kernarg_segment_size - a.offset) {
            why_ = "argument " + std::to_string(index) + " lies outside the kernarg segment";
            return false;
        }
        std::memcpy(&out, static_cast<const char*>(launch_.kernarg) + a.offset, sizeof(T));
        return true;
    }

    const std::string& why() const { return why_; }

  private:
    const hsa_sim_standin_launch_t& launch_;
    std::vector<const elf::KernelArg*> args_;
    std::string why_;
};

uint64_t grid(const hsa_sim_standin_launch_t& l, int d) {
    return (static_cast<uint32_t>(d) < l.dimensions || d == 0) ? l.grid_size[d] : 1;
}

#define BLIT_ARG(args, index, var)                                                                           \
    do {                                                                                                     \
        if (!(args).get((index), (var)))                                                                     \
            return failure(error, error_size, "%s", (args).why().c_str());                                   \
    } while (0)

/// Element width of fillBufferAligned's destination: the first non-null of ulong, uint, ushort, uchar.
bool fill_target(char* uc, char* us, char* ui, char* ul, char*& dst, size_t& width) {
    if (ul) {
        dst = ul;
        width = 8;
    } else if (ui) {
        dst = ui;
        width = 4;
    } else if (us) {
        dst = us;
        width = 2;
    } else {
        dst = uc;
        width = 1;
    }
    return dst != nullptr;
}

// __amd_fillBufferAligned(uchar*, ushort*, uint*, ulong*, constant uchar* pattern, uint patternSize,
// ulong offset, ulong size): work-item i < size writes patternSize elements of the pattern at element
// i * patternSize + offset.
int fill_buffer_aligned(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                        const std::function<bool()>&, char* error, size_t error_size) {
    Args args(l, md);
    char *uc = nullptr, *us = nullptr, *ui = nullptr, *ul = nullptr;
    const char* pattern = nullptr;
    uint32_t pattern_size = 0;
    uint64_t offset = 0, size = 0;
    BLIT_ARG(args, 0, uc);
    BLIT_ARG(args, 1, us);
    BLIT_ARG(args, 2, ui);
    BLIT_ARG(args, 3, ul);
    BLIT_ARG(args, 4, pattern);
    BLIT_ARG(args, 5, pattern_size);
    BLIT_ARG(args, 6, offset);
    BLIT_ARG(args, 7, size);
    char* dst = nullptr;
    size_t w = 0;
    if (!fill_target(uc, us, ui, ul, dst, w) || (!pattern && pattern_size)) {
        return failure(error, error_size, "null buffer or pattern");
    }
    const uint64_t n = std::min(grid(l, 0), size);
    for (uint64_t i = 0; i < n; ++i) {
        std::memcpy(dst + (i * pattern_size + offset) * w, pattern, pattern_size * w);
    }
    return 0;
}

// __amd_fillBufferAligned2D(..., pattern, patternSize, ulong offset, ulong width, ulong height, ulong pitch):
// work-item (x < width, y < height) writes patternSize elements at element y * pitch + x + offset.
int fill_buffer_aligned_2d(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                           const std::function<bool()>&, char* error, size_t error_size) {
    Args args(l, md);
    char *uc = nullptr, *us = nullptr, *ui = nullptr, *ul = nullptr;
    const char* pattern = nullptr;
    uint32_t pattern_size = 0;
    uint64_t offset = 0, width = 0, height = 0, pitch = 0;
    BLIT_ARG(args, 0, uc);
    BLIT_ARG(args, 1, us);
    BLIT_ARG(args, 2, ui);
    BLIT_ARG(args, 3, ul);
    BLIT_ARG(args, 4, pattern);
    BLIT_ARG(args, 5, pattern_size);
    BLIT_ARG(args, 6, offset);
    BLIT_ARG(args, 7, width);
    BLIT_ARG(args, 8, height);
    BLIT_ARG(args, 9, pitch);
    char* dst = nullptr;
    size_t w = 0;
    if (!fill_target(uc, us, ui, ul, dst, w) || (!pattern && pattern_size)) {
        return failure(error, error_size, "null buffer or pattern");
    }
    const uint64_t nx = std::min(grid(l, 0), width), ny = std::min(grid(l, 1), height);
    for (uint64_t y = 0; y < ny; ++y) {
        for (uint64_t x = 0; x < nx; ++x) {
            std::memcpy(dst + (y * pitch + x + offset) * w, pattern, pattern_size * w);
        }
    }
    return 0;
}

// __amd_copyBuffer(uchar* src, uchar* dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint remain):
// byte origins; remain == 8: work-item i copies byte i; otherwise work-item i < size - 1 copies uint i
// and the last one copies `remain` bytes at byte 4 * (size - 1).
int copy_buffer(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                const std::function<bool()>&, char* error, size_t error_size) {
    Args args(l, md);
    const char* src = nullptr;
    char* dst = nullptr;
    uint64_t src_origin = 0, dst_origin = 0, size = 0;
    uint32_t remain = 0;
    BLIT_ARG(args, 0, src);
    BLIT_ARG(args, 1, dst);
    BLIT_ARG(args, 2, src_origin);
    BLIT_ARG(args, 3, dst_origin);
    BLIT_ARG(args, 4, size);
    BLIT_ARG(args, 5, remain);
    if (!src || !dst) {
        return failure(error, error_size, "null buffer");
    }
    const char* s = src + src_origin;
    char* d = dst + dst_origin;
    const uint64_t n = std::min(grid(l, 0), size);
    if (n == 0) {
        return 0;
    }
    if (remain == 8) {
        std::memmove(d, s, n);
        return 0;
    }
    const uint64_t words = std::min(n, size - 1);
    std::memmove(d, s, words * 4);
    if (n == size) {
        std::memmove(d + (size - 1) * 4, s + (size - 1) * 4, remain);
    }
    return 0;
}

// __amd_copyBufferAligned(uint* src, uint* dst, ulong srcOrigin, ulong dstOrigin, ulong size, uint
// alignment): origins and size in elements of 16 bytes (alignment == 16) or 4 bytes (otherwise).
int copy_buffer_aligned(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                        const std::function<bool()>&, char* error, size_t error_size) {
    Args args(l, md);
    const char* src = nullptr;
    char* dst = nullptr;
    uint64_t src_origin = 0, dst_origin = 0, size = 0;
    uint32_t alignment = 0;
    BLIT_ARG(args, 0, src);
    BLIT_ARG(args, 1, dst);
    BLIT_ARG(args, 2, src_origin);
    BLIT_ARG(args, 3, dst_origin);
    BLIT_ARG(args, 4, size);
    BLIT_ARG(args, 5, alignment);
    if (!src || !dst) {
        return failure(error, error_size, "null buffer");
    }
    const uint64_t w = alignment == 16 ? 16 : 4;
    const uint64_t n = std::min(grid(l, 0), size);
    std::memmove(dst + dst_origin * w, src + src_origin * w, n * w);
    return 0;
}

// __amd_copyBufferRect(src, dst, ulong4 srcRect, ulong4 dstRect, ulong4 size): work-item (x, y, z) below
// size.xyz copies element x + rect.z + y * rect.x + z * rect.y (rect = row pitch, slice pitch, origin);
// elements are bytes, or for the Aligned variant 16 bytes when size.w == 16 and 4 bytes otherwise.
int copy_rect(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md, bool aligned, char* error,
              size_t error_size) {
    Args args(l, md);
    const char* src = nullptr;
    char* dst = nullptr;
    ULong4 src_rect{}, dst_rect{}, size{};
    BLIT_ARG(args, 0, src);
    BLIT_ARG(args, 1, dst);
    BLIT_ARG(args, 2, src_rect);
    BLIT_ARG(args, 3, dst_rect);
    BLIT_ARG(args, 4, size);
    if (!src || !dst) {
        return failure(error, error_size, "null buffer");
    }
    const uint64_t w = !aligned ? 1 : (size.v[3] == 16 ? 16 : 4);
    const uint64_t nx = std::min(grid(l, 0), size.v[0]), ny = std::min(grid(l, 1), size.v[1]),
                   nz = std::min(grid(l, 2), size.v[2]);
    for (uint64_t z = 0; z < nz; ++z) {
        for (uint64_t y = 0; y < ny; ++y) {
            const uint64_t si = src_rect.v[2] + y * src_rect.v[0] + z * src_rect.v[1];
            const uint64_t di = dst_rect.v[2] + y * dst_rect.v[0] + z * dst_rect.v[1];
            std::memmove(dst + di * w, src + si * w, nx * w);
        }
    }
    return 0;
}

int copy_buffer_rect(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                     const std::function<bool()>&, char* error, size_t error_size) {
    return copy_rect(l, md, false, error, error_size);
}

int copy_buffer_rect_aligned(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                             const std::function<bool()>&, char* error, size_t error_size) {
    return copy_rect(l, md, true, error, error_size);
}

// __amd_streamOpsWrite(uint* ptrInt, ulong* ptrUlong, ulong value, ulong sizeBytes): an atomic store of
// the low 32 bits of value to ptrInt when it is not null, else of value to ptrUlong.
int stream_ops_write(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                     const std::function<bool()>&, char* error, size_t error_size) {
    Args args(l, md);
    uint32_t* p32 = nullptr;
    uint64_t* p64 = nullptr;
    uint64_t value = 0;
    BLIT_ARG(args, 0, p32);
    BLIT_ARG(args, 1, p64);
    BLIT_ARG(args, 2, value);
    if (p32) {
        __atomic_store_n(p32, static_cast<uint32_t>(value), __ATOMIC_SEQ_CST);
    } else if (p64) {
        __atomic_store_n(p64, value, __ATOMIC_SEQ_CST);
    } else {
        return failure(error, error_size, "null pointer");
    }
    return 0;
}

// __amd_streamOpsWait(uint* ptrInt, ulong* ptrUlong, ulong value, ulong flags, ulong mask): spins until
// the memory value satisfies flags: 0 (>=) (v & mask) >= value; 1 (==) (v & mask) == value;
// 2 (AND) (v & mask & value) != 0; 3 (NOR) ((v | value) & mask) != mask; any other flag: no wait. The
// spin is a sleeping poll on this dispatch's thread only (other queues and dispatches carry on).
int stream_ops_wait(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md,
                    const std::function<bool()>& cancelled, char* error, size_t error_size) {
    Args args(l, md);
    uint32_t* p32 = nullptr;
    uint64_t* p64 = nullptr;
    uint64_t value = 0, flags = 0, mask = 0;
    BLIT_ARG(args, 0, p32);
    BLIT_ARG(args, 1, p64);
    BLIT_ARG(args, 2, value);
    BLIT_ARG(args, 3, flags);
    BLIT_ARG(args, 4, mask);
    if (!p32 && !p64) {
        return failure(error, error_size, "null pointer");
    }
    if (p32) {
        value &= 0xffffffffu;
        mask &= 0xffffffffu;
    }
    auto satisfied = [&] {
        const uint64_t v =
            p32 ? __atomic_load_n(p32, __ATOMIC_SEQ_CST) : __atomic_load_n(p64, __ATOMIC_SEQ_CST);
        switch (flags) {
        case 0:
            return (v & mask) >= value;
        case 1:
            return (v & mask) == value;
        case 2:
            return (v & mask & value) != 0;
        case 3:
            return ((v | value) & mask) != mask;
        default:
            return true;
        }
    };
    auto pause = std::chrono::microseconds(20);
    while (!satisfied()) {
        if (cancelled && cancelled()) {
            return 2;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
    return 0;
}

// __amd_rocclr_gwsInit(uint value): initialises the global wave sync resource. Stand-ins execute no GWS
// instructions, so there is nothing to initialise (the interpreter runs the blit's ds_gws_init itself).
int gws_init(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata& md, const std::function<bool()>&,
             char* error, size_t error_size) {
    Args args(l, md);
    uint32_t value = 0;
    BLIT_ARG(args, 0, value);
    return 0;
}

int images_unsupported(const hsa_sim_standin_launch_t& l, const elf::KernelMetadata&,
                       const std::function<bool()>&, char* error, size_t error_size) {
    return failure(error, error_size, "%s: images are not simulated", l.kernel_name ? l.kernel_name : "");
}

int scheduler_unsupported(const hsa_sim_standin_launch_t&, const elf::KernelMetadata&,
                          const std::function<bool()>&, char* error, size_t error_size) {
    return failure(error, error_size, "device-side enqueue (__amd_rocclr_scheduler) is not simulated");
}

struct Builtin {
    const char* symbol;
    BuiltinKernelFn fn;
};

constexpr Builtin kBuiltins[] = {
    {"__amd_rocclr_fillBufferAligned", &fill_buffer_aligned},
    {"__amd_rocclr_fillBufferAligned2D", &fill_buffer_aligned_2d},
    {"__amd_rocclr_copyBuffer", &copy_buffer},
    {"__amd_rocclr_copyBufferAligned", &copy_buffer_aligned},
    {"__amd_rocclr_copyBufferRect", &copy_buffer_rect},
    {"__amd_rocclr_copyBufferRectAligned", &copy_buffer_rect_aligned},
    {"__amd_rocclr_streamOpsWrite", &stream_ops_write},
    {"__amd_rocclr_streamOpsWait", &stream_ops_wait},
    {"__amd_rocclr_gwsInit", &gws_init},
    {"__amd_rocclr_fillImage", &images_unsupported},
    {"__amd_rocclr_copyImage", &images_unsupported},
    {"__amd_rocclr_copyImage1DA", &images_unsupported},
    {"__amd_rocclr_copyBufferToImage", &images_unsupported},
    {"__amd_rocclr_copyImageToBuffer", &images_unsupported},
    {"__amd_rocclr_scheduler", &scheduler_unsupported},
};

} // namespace

BuiltinKernelFn find_builtin_kernel(std::string_view symbol) {
    for (const Builtin& b : kBuiltins) {
        if (symbol == b.symbol) {
            return b.fn;
        }
    }
    return nullptr;
}

} // namespace sim
