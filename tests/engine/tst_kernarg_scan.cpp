// SPDX-License-Identifier: MIT
// The kernarg scan that declines dispatches reaching unrestorable memory (engine/src/kernarg_scan.h,
// docs/replay-failures.md, "Arguments in unrestorable memory"): every 4-byte-aligned 64-bit window, end
// pointers included, read-only pointer arguments exempt; the managed ranges of the inventory merge and
// drop; the read-only arguments read from a code object's NT_AMDGPU_METADATA note (kernel_metadata.h).
#include "allocation_inventory.h"
#include "kernarg_scan.h"
#include "kernel_metadata.h"

#include <QTest>

#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace rs::engine;

namespace {

constexpr uintptr_t kHost = 0x7f0000001000; // a host allocation of kHostBytes
constexpr uint64_t kHostBytes = 4096;

/// A kernarg segment of `size` bytes, zero but for `value` at byte `offset`.
std::vector<unsigned char> segment(uint32_t size, uint32_t offset, uint64_t value) {
    std::vector<unsigned char> bytes(size, 0);
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    return bytes;
}

bool points(const std::vector<unsigned char>& bytes, const AllocationInventory& inventory,
            const std::vector<uint32_t>* read_only = nullptr) {
    return kernarg_points_into(bytes.data(), static_cast<uint32_t>(bytes.size()), inventory, read_only);
}

/// One argument of a kernel's metadata: `.offset`, `.size`, `.value_kind` and optional string keys.
struct Arg {
    uint32_t offset;
    uint32_t size;
    std::string value_kind;
    std::vector<std::pair<std::string, std::string>> strings;
    int is_const = -1; ///< -1: no `.is_const` key
};

/// A minimal AMDGPU ELF image: header, one PT_NOTE program header, the NT_AMDGPU_METADATA note whose
/// msgpack document lists one kernel `symbol` with `args`.
std::vector<unsigned char> code_object(const std::string& symbol, const std::vector<Arg>& args) {
    msgpack::sbuffer doc;
    msgpack::packer<msgpack::sbuffer> pk(doc);
    pk.pack_map(1);
    pk.pack(std::string("amdhsa.kernels"));
    pk.pack_array(1);
    pk.pack_map(3);
    pk.pack(std::string(".name"));
    pk.pack(symbol.substr(0, symbol.size() - 3));
    pk.pack(std::string(".symbol"));
    pk.pack(symbol);
    pk.pack(std::string(".args"));
    pk.pack_array(static_cast<uint32_t>(args.size()));
    for (const Arg& a : args) {
        pk.pack_map(static_cast<uint32_t>(3 + a.strings.size() + (a.is_const >= 0 ? 1 : 0)));
        pk.pack(std::string(".offset"));
        pk.pack(a.offset);
        pk.pack(std::string(".size"));
        pk.pack(a.size);
        pk.pack(std::string(".value_kind"));
        pk.pack(a.value_kind);
        for (const auto& [key, value] : a.strings) {
            pk.pack(key);
            pk.pack(value);
        }
        if (a.is_const >= 0) {
            pk.pack(std::string(".is_const"));
            pk.pack(a.is_const == 1);
        }
    }
    const auto pad4 = [](size_t v) { return (v + 3) & ~size_t{3}; };
    const char owner[] = "AMDGPU";
    Elf64_Nhdr note{sizeof owner, static_cast<Elf64_Word>(doc.size()), 32};
    const size_t note_at = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
    const size_t note_size = sizeof note + pad4(sizeof owner) + pad4(doc.size());
    std::vector<unsigned char> image(note_at + note_size, 0);
    Elf64_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_OSABI] = 64;
    eh.e_ident[EI_ABIVERSION] = 2;
    eh.e_type = ET_DYN;
    eh.e_machine = 0xe0;
    eh.e_phoff = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = 1;
    std::memcpy(image.data(), &eh, sizeof eh);
    Elf64_Phdr ph{};
    ph.p_type = PT_NOTE;
    ph.p_offset = note_at;
    ph.p_filesz = note_size;
    ph.p_align = 4;
    std::memcpy(image.data() + sizeof eh, &ph, sizeof ph);
    std::memcpy(image.data() + note_at, &note, sizeof note);
    std::memcpy(image.data() + note_at + sizeof note, owner, sizeof owner);
    std::memcpy(image.data() + note_at + sizeof note + pad4(sizeof owner), doc.data(), doc.size());
    return image;
}

} // namespace

class TstKernargScan : public QObject {
    Q_OBJECT

  private slots:
    void alignedPointerFound() {
        AllocationInventory inv;
        inv.add({1, kHost, kHostBytes, 0});
        QVERIFY(points(segment(24, 8, kHost + 16), inv));
        QVERIFY(!points(segment(24, 8, kHost - 1), inv));
        QVERIFY(!points(segment(24, 8, 0), inv));
        QVERIFY(!points(segment(24, 8, kHost + 16), AllocationInventory{}));
    }

    /// A packed struct {int n; int* p;} puts p at offset 4 (or 12, ...): found.
    void pointerAtOffsetFourFound() {
        AllocationInventory inv;
        inv.add({1, kHost, kHostBytes, 0});
        QVERIFY(points(segment(12, 4, kHost), inv));
        QVERIFY(points(segment(24, 12, kHost + kHostBytes - 1), inv));
        // The last window starts 8 bytes before the end of the segment.
        auto bytes = segment(16, 8, kHost);
        bytes.resize(15);
        QVERIFY(!points(bytes, inv));
    }

    /// One past the end counts for the allocation; two past it does not.
    void endPointerFound() {
        AllocationInventory inv;
        inv.add({1, kHost, kHostBytes, 0});
        QVERIFY(points(segment(16, 0, kHost + kHostBytes), inv));
        QVERIFY(!points(segment(16, 0, kHost + kHostBytes + 1), inv));
    }

    /// A device buffer that starts exactly where unrestorable memory ends (as a pinned host range and the
    /// next hipMalloc often do): a pointer to it is a pointer to the buffer, not an end pointer of the
    /// host range. Without the tracked inventory, or when nothing tracked starts there, it still counts.
    void endPointerThatStartsTrackedMemoryIsNotOne() {
        AllocationInventory unrestorable, tracked;
        unrestorable.add({1, kHost, kHostBytes, 0});
        tracked.add({2, kHost + kHostBytes, 1 << 20, 7});
        const auto bytes = segment(16, 0, kHost + kHostBytes);
        QVERIFY(!kernarg_points_into(bytes.data(), 16, unrestorable, nullptr, &tracked));
        QVERIFY(points(bytes, unrestorable));
        AllocationInventory elsewhere;
        elsewhere.add({3, kHost + 2 * kHostBytes, 4096, 7});
        QVERIFY(kernarg_points_into(bytes.data(), 16, unrestorable, nullptr, &elsewhere));
        // Inside the host range stays a hit whatever is tracked.
        const auto inside = segment(16, 4, kHost + 8);
        QVERIFY(kernarg_points_into(inside.data(), 16, unrestorable, nullptr, &tracked));
    }

    /// A read-only argument's offset does not count; the same pointer elsewhere still does.
    void readOnlyOffsetExempt() {
        AllocationInventory inv;
        inv.add({1, kHost, kHostBytes, 0});
        const std::vector<uint32_t> read_only{0, 16};
        QVERIFY(!points(segment(24, 0, kHost), inv, &read_only));
        QVERIFY(!points(segment(24, 16, kHost), inv, &read_only));
        QVERIFY(points(segment(24, 8, kHost), inv, &read_only));
        QVERIFY(points(segment(24, 4, kHost), inv, &read_only));
    }

    /// Managed ranges merge with the managed ranges they overlap or touch, never with allocations; an
    /// allocation over their addresses drops them.
    void managedRangesMergeAndDrop() {
        AllocationInventory inv;
        inv.add({1, kHost, kHostBytes, 0});
        inv.add_managed({0, 0x7e0000000000, 8192, 0, false});
        inv.add_managed({0, 0x7e0000001000, 16384, 0, false}); // overlaps the first
        inv.add_managed({0, 0x7e0000005000, 4096, 0, false});  // touches the merged range's end
        const auto entries = inv.rlock([](const AllocationInventory::Map& m) { return m; });
        QCOMPARE(entries.size(), size_t(2));
        QCOMPARE(entries.begin()->second.address, uintptr_t{0x7e0000000000});
        QCOMPARE(entries.begin()->second.size, uint64_t{0x6000});
        QVERIFY(entries.begin()->second.managed);
        QVERIFY(points(segment(8, 0, 0x7e0000004ff0), inv));
        QCOMPARE(inv.drop_managed(0x7e0000002000, 4096), size_t(1));
        QVERIFY(!points(segment(8, 0, 0x7e0000004ff0), inv));
        QCOMPARE(inv.drop_managed(kHost, kHostBytes), size_t(0)); // not managed: kept
        QVERIFY(points(segment(8, 0, kHost), inv));
    }

    /// What the metadata note makes read-only: an 8-byte global_buffer with .address_space constant,
    /// .actual_access read_only, or (without .actual_access) .access read_only or .is_const true.
    void readOnlyArgumentsFromMetadata() {
        const std::vector<Arg> args{
            {0, 8, "global_buffer", {{".address_space", "global"}, {".access", "read_only"}}},
            {8, 8, "global_buffer", {{".address_space", "global"}}},
            {16, 8, "global_buffer", {{".address_space", "constant"}}},
            {24, 8, "global_buffer", {{".actual_access", "read_only"}, {".access", "read_write"}}},
            {32, 8, "global_buffer", {{".actual_access", "write_only"}, {".access", "read_only"}}},
            {40, 8, "global_buffer", {}, 1},
            {48, 8, "global_buffer", {}, 0},
            {56, 8, "by_value", {{".access", "read_only"}}},
            {64, 4, "global_buffer", {{".access", "read_only"}}},
            {72, 8, "hidden_global_offset_x", {{".access", "read_only"}}},
        };
        const auto image = code_object("_Z6kernelPKiPi.kd", args);
        const ReadOnlyArguments found = read_only_arguments(image.data(), image.size());
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found.begin()->first, std::string("_Z6kernelPKiPi"));
        QCOMPARE(found.begin()->second, (std::vector<uint32_t>{0, 16, 24, 40}));
    }

    /// A truncated or corrupted image yields nothing and reads nothing outside it.
    void malformedImagesYieldNothing() {
        const auto image = code_object("k.kd", {{0, 8, "global_buffer", {{".access", "read_only"}}}});
        QCOMPARE(read_only_arguments(image.data(), image.size()).size(), size_t(1));
        for (size_t cut = 0; cut < image.size(); cut += 7) {
            const std::vector<unsigned char> part(image.begin(), image.begin() + static_cast<long>(cut));
            QVERIFY(read_only_arguments(part.data(), part.size()).empty());
        }
        auto corrupted = image;
        corrupted[corrupted.size() - 20] = 0xc1; // a reserved msgpack byte inside the document
        QVERIFY(read_only_arguments(corrupted.data(), corrupted.size()).size() <= 1);
        QVERIFY(read_only_arguments(nullptr, 64).empty());
    }
};

QTEST_APPLESS_MAIN(TstKernargScan)
#include "tst_kernarg_scan.moc"
