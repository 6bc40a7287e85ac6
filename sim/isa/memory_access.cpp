// SPDX-License-Identifier: MIT
#include "memory_access.h"

#include "operand_access.h"

namespace sim::isa {

namespace {

constexpr uint32_t kSwizzleElement = 4;

/// A private (per-lane) byte offset into the wave's scratch: dwords of the 64 lanes interleaved, as the
/// swizzled private segment buffer and the flat scratch aperture address it.
uint8_t* private_pointer(Wave& w, int lane, uint64_t offset) {
    const DispatchContext& ctx = *w.dispatch;
    if (offset >= ctx.private_segment_size || !ctx.scratch) {
        return nullptr;
    }
    const uint64_t flat_scratch = w.sgpr64(kFlatScratchLo);
    const uint64_t swizzled = (offset / kSwizzleElement) * kSwizzleElement * kLanes +
                              static_cast<uint64_t>(lane) * kSwizzleElement + offset % kSwizzleElement;
    // FLAT_SCRATCH holds the scratch base plus this wave's offset once the kernel's prologue set it;
    // without it (a kernel using only buffer scratch), the wave's own slot.
    const uint64_t base =
        flat_scratch ? flat_scratch : reinterpret_cast<uint64_t>(ctx.scratch) + w.scratch_offset;
    return reinterpret_cast<uint8_t*>(base + swizzled);
}

} // namespace

void compute_addresses(const Wave& w, const Instruction& in, Segment segment, VectorAccess& a) {
    a.segment = segment;
    switch (segment) {
    case Segment::flat: {
        const Operand& vaddr = in.src[0];
        for (int lane = 0; lane < kLanes; ++lane) {
            a.address[lane] =
                (read_lane(w, vaddr, lane, 0) | static_cast<uint64_t>(read_lane(w, vaddr, lane, 1)) << 32) +
                static_cast<int64_t>(in.offset);
        }
        break;
    }
    case Segment::global: {
        const Operand& vaddr = in.src[0];
        const Operand& saddr = in.src[in.src_count - 1];
        if (saddr.kind == OperandKind::sgpr) {
            const uint64_t base = read_scalar64(w, saddr);
            for (int lane = 0; lane < kLanes; ++lane) {
                a.address[lane] = base + read_lane(w, vaddr, lane, 0) + static_cast<int64_t>(in.offset);
            }
        } else {
            for (int lane = 0; lane < kLanes; ++lane) {
                a.address[lane] = (read_lane(w, vaddr, lane, 0) |
                                   static_cast<uint64_t>(read_lane(w, vaddr, lane, 1)) << 32) +
                                  static_cast<int64_t>(in.offset);
            }
        }
        break;
    }
    case Segment::scratch: {
        const Operand& vaddr = in.src[0];
        const Operand& saddr = in.src[in.src_count - 1];
        const uint32_t s = saddr.kind == OperandKind::sgpr ? read_scalar32(w, saddr) : 0;
        for (int lane = 0; lane < kLanes; ++lane) {
            const uint32_t v = vaddr.kind == OperandKind::vgpr ? read_lane(w, vaddr, lane, 0) : 0;
            a.address[lane] = static_cast<uint32_t>(v + s + static_cast<uint32_t>(in.offset));
        }
        break;
    }
    case Segment::buffer: {
        // Operands: vdata, vaddr, srsrc, soffset (vdata first whether loaded or stored).
        const Operand& vaddr = in.dst_count ? in.src[0] : in.src[1];
        const Operand& srsrc = in.dst_count ? in.src[1] : in.src[2];
        const Operand& soffset = in.dst_count ? in.src[2] : in.src[3];
        const uint32_t w0 = read_scalar32(w, srsrc, 0), w1 = read_scalar32(w, srsrc, 1);
        const uint32_t w2 = read_scalar32(w, srsrc, 2), w3 = read_scalar32(w, srsrc, 3);
        a.buffer_base = w0 | static_cast<uint64_t>(w1 & 0xffff) << 32;
        a.buffer_stride = (w1 >> 16) & 0x3fff;
        a.swizzle = (w1 >> 31) & 1;
        a.buffer_records = w2;
        a.index_stride = 8u << ((w3 >> 21) & 3);
        const bool add_tid = (w3 >> 23) & 1;
        const uint32_t so = read_scalar32(w, soffset);
        a.buffer_base += so;
        for (int lane = 0; lane < kLanes; ++lane) {
            uint32_t index = 0, offset = 0;
            int part = 0;
            if (in.idxen) {
                index = read_lane(w, vaddr, lane, part++);
            }
            if (in.offen) {
                offset = read_lane(w, vaddr, lane, part);
            }
            a.buffer_index[lane] = index + (add_tid ? static_cast<uint32_t>(lane) : 0);
            a.address[lane] = offset + static_cast<uint32_t>(in.offset);
        }
        break;
    }
    }
}

uint8_t* locate(Wave& w, const VectorAccess& a, int lane, uint32_t offset) {
    switch (a.segment) {
    case Segment::global: {
        const uint64_t address = a.address[lane] + offset;
        return bad_global_address(address) ? nullptr : reinterpret_cast<uint8_t*>(address);
    }
    case Segment::flat: {
        const uint64_t address = a.address[lane] + offset;
        const uint64_t high = address >> 32;
        if (high == kSharedApertureBase >> 32) {
            const auto lds = static_cast<uint32_t>(address);
            return lds < w.lds_size ? w.lds + lds : nullptr;
        }
        if (high == kPrivateApertureBase >> 32) {
            return private_pointer(w, lane, static_cast<uint32_t>(address));
        }
        return bad_global_address(address) ? nullptr : reinterpret_cast<uint8_t*>(address);
    }
    case Segment::scratch:
        return private_pointer(w, lane, a.address[lane] + offset);
    case Segment::buffer: {
        const uint64_t off = a.address[lane] + offset;
        const uint32_t index = a.buffer_index[lane];
        uint64_t byte;
        if (a.swizzle) {
            const uint64_t is = a.index_stride;
            byte = (index / is * a.buffer_stride + off / kSwizzleElement * kSwizzleElement) * is +
                   (index % is) * kSwizzleElement + off % kSwizzleElement;
            if (a.buffer_records != 0xffffffffu &&
                (a.buffer_stride ? index >= a.buffer_records : off >= a.buffer_records)) {
                return nullptr;
            }
        } else {
            byte = static_cast<uint64_t>(index) * a.buffer_stride + off;
            if (a.buffer_stride ? index >= a.buffer_records : off >= a.buffer_records) {
                return nullptr;
            }
        }
        const uint64_t address = a.buffer_base + byte;
        return bad_global_address(address) ? nullptr : reinterpret_cast<uint8_t*>(address);
    }
    }
    return nullptr;
}

} // namespace sim::isa
