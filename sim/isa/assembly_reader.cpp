// SPDX-License-Identifier: MIT
#include "assembly_reader.h"

#include "op_table.h"
#include "wave.h"

#include <charconv>
#include <cstdlib>
#include <vector>

namespace sim::isa {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Splits at `separator` outside (), [] and "".
std::vector<std::string_view> split_top(std::string_view s, char separator) {
    std::vector<std::string_view> out;
    int depth = 0;
    bool quoted = false;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') {
            quoted = !quoted;
        } else if (!quoted && (c == '(' || c == '[')) {
            ++depth;
        } else if (!quoted && (c == ')' || c == ']')) {
            --depth;
        } else if (!quoted && depth == 0 && c == separator) {
            if (i > start) {
                out.push_back(trim(s.substr(start, i - start)));
            }
            start = i + 1;
        }
    }
    if (start < s.size()) {
        auto last = trim(s.substr(start));
        if (!last.empty()) {
            out.push_back(last);
        }
    }
    return out;
}

bool parse_int(std::string_view s, int64_t& out) {
    bool negative = false;
    if (!s.empty() && s.front() == '-') {
        negative = true;
        s.remove_prefix(1);
    }
    if (s.empty()) {
        return false;
    }
    uint64_t v = 0;
    int base = 10;
    if (starts_with(s, "0x") || starts_with(s, "0X")) {
        base = 16;
        s.remove_prefix(2);
    }
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec != std::errc() || end != s.data() + s.size()) {
        return false;
    }
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
}

/// "[a,b,c]" into bits (bit i set when element i is non-zero), or the element values for quad_perm.
bool parse_list(std::string_view s, std::vector<int64_t>& out) {
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') {
        return false;
    }
    for (auto item : split_top(s.substr(1, s.size() - 2), ',')) {
        int64_t v;
        if (!parse_int(item, v)) {
            return false;
        }
        out.push_back(v);
    }
    return true;
}

uint8_t list_bits(const std::vector<int64_t>& items) {
    uint8_t bits = 0;
    for (size_t i = 0; i < items.size() && i < 8; ++i) {
        bits |= items[i] ? 1u << i : 0u;
    }
    return static_cast<uint8_t>(bits);
}

/// A register name: s5, v[2:3], a0, ttmp[4:5], and the named special registers.
bool parse_register(std::string_view s, Operand& o) {
    struct Named {
        std::string_view name;
        uint16_t index;
        uint8_t width;
    };
    static constexpr Named kNamed[] = {
        {"vcc", kVccLo, 2},
        {"vcc_lo", kVccLo, 1},
        {"vcc_hi", kVccLo + 1, 1},
        {"exec", kExecLo, 2},
        {"exec_lo", kExecLo, 1},
        {"exec_hi", kExecLo + 1, 1},
        {"m0", kM0, 1},
        {"flat_scratch", kFlatScratchLo, 2},
        {"flat_scratch_lo", kFlatScratchLo, 1},
        {"flat_scratch_hi", kFlatScratchLo + 1, 1},
        {"xnack_mask", kXnackMaskLo, 2},
        {"xnack_mask_lo", kXnackMaskLo, 1},
        {"xnack_mask_hi", kXnackMaskLo + 1, 1},
    };
    for (const auto& n : kNamed) {
        if (s == n.name) {
            o.kind = OperandKind::sgpr;
            o.index = n.index;
            o.width = n.width;
            return true;
        }
    }
    OperandKind kind;
    uint16_t base = 0;
    if (starts_with(s, "ttmp")) {
        kind = OperandKind::sgpr;
        base = kTtmp0;
        s.remove_prefix(4);
    } else if (!s.empty() && (s[0] == 's' || s[0] == 'v' || s[0] == 'a')) {
        kind = s[0] == 's' ? OperandKind::sgpr : s[0] == 'v' ? OperandKind::vgpr : OperandKind::agpr;
        s.remove_prefix(1);
    } else {
        return false;
    }
    int64_t first, last;
    if (!s.empty() && s.front() == '[') {
        const size_t colon = s.find(':');
        if (colon == std::string_view::npos || s.back() != ']' || !parse_int(s.substr(1, colon - 1), first) ||
            !parse_int(s.substr(colon + 1, s.size() - colon - 2), last) || last < first) {
            return false;
        }
    } else {
        if (s.empty() || s[0] < '0' || s[0] > '9' || !parse_int(s, first)) {
            return false;
        }
        last = first;
    }
    o.kind = kind;
    o.index = static_cast<uint16_t>(base + first);
    o.width = static_cast<uint8_t>(last - first + 1);
    return true;
}

/// Inline floating-point constants as LLVM prints them (codes as in Operand::inline_float).
uint8_t inline_float_code(std::string_view s) {
    static constexpr std::string_view kNames[] = {"0.5",  "-0.5", "1.0",  "-1.0",      "2.0",
                                                  "-2.0", "4.0",  "-4.0", "0.15915494"};
    for (size_t i = 0; i < std::size(kNames); ++i) {
        if (s == kNames[i]) {
            return static_cast<uint8_t>(i + 1);
        }
    }
    return 0;
}

/// Aperture registers are read as constants: codes 10..13 in Operand::inline_float.
constexpr uint8_t kSharedBase = 10, kSharedLimit = 11, kPrivateBase = 12, kPrivateLimit = 13;

bool parse_operand(std::string_view s, Operand& o) {
    s = trim(s);
    // Source modifiers, outermost first: -x, neg(x), |x|, abs(x), sext(x).
    if (s.size() > 1 && s[0] == '-' && !(s[1] >= '0' && s[1] <= '9')) {
        o.neg = true;
        return parse_operand(s.substr(1), o);
    }
    if (starts_with(s, "neg(") && ends_with(s, ")")) {
        o.neg = true;
        return parse_operand(s.substr(4, s.size() - 5), o);
    }
    if (s.size() > 2 && s.front() == '|' && s.back() == '|') {
        o.abs = true;
        return parse_operand(s.substr(1, s.size() - 2), o);
    }
    if (starts_with(s, "abs(") && ends_with(s, ")")) {
        o.abs = true;
        return parse_operand(s.substr(4, s.size() - 5), o);
    }
    if (starts_with(s, "sext(") && ends_with(s, ")")) {
        o.sext = true;
        return parse_operand(s.substr(5, s.size() - 6), o);
    }
    if (s == "off") {
        o.kind = OperandKind::none;
        return true;
    }
    if (s == "scc" || s == "src_scc") {
        o.kind = OperandKind::scc;
        return true;
    }
    if (s == "src_execz" || s == "execz") {
        o.kind = OperandKind::execz;
        return true;
    }
    if (s == "src_vccz" || s == "vccz") {
        o.kind = OperandKind::vccz;
        return true;
    }
    struct Aperture {
        std::string_view name;
        uint8_t code;
    };
    static constexpr Aperture kApertures[] = {{"src_shared_base", kSharedBase},
                                              {"src_shared_limit", kSharedLimit},
                                              {"src_private_base", kPrivateBase},
                                              {"src_private_limit", kPrivateLimit}};
    for (const auto& a : kApertures) {
        if (s == a.name) {
            o.kind = OperandKind::constant;
            o.inline_float = a.code;
            return true;
        }
    }
    if (s == "src_pops_exiting_wave_id") {
        o.kind = OperandKind::constant;
        o.value = 0;
        return true;
    }
    if (parse_register(s, o)) {
        return true;
    }
    if (uint8_t code = inline_float_code(s)) {
        o.kind = OperandKind::constant;
        o.inline_float = code;
        return true;
    }
    int64_t v;
    if (parse_int(s, v)) {
        o.kind = OperandKind::constant;
        const bool hex = s.find("0x") != std::string_view::npos;
        o.literal = hex || v < -16 || v > 64;
        o.value = static_cast<uint64_t>(v);
        return true;
    }
    return false;
}

uint64_t inline_float_bits(uint8_t code, ValueType type) {
    static constexpr uint32_t kF32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                        0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
    static constexpr uint64_t kF64[] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                                        0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                                        0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};
    static constexpr uint16_t kF16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                        0xc000, 0x4400, 0xc400, 0x3118};
    switch (type) {
    case ValueType::b64:
    case ValueType::f64:
        return kF64[code - 1];
    case ValueType::b16:
    case ValueType::f16:
        return kF16[code - 1];
    default:
        return kF32[code - 1];
    }
}

/// Gives a constant operand its bits for the source's type.
void type_constant(Operand& o, ValueType type) {
    if (o.kind != OperandKind::constant) {
        return;
    }
    const bool wide = type == ValueType::b64 || type == ValueType::f64;
    if (o.inline_float >= kSharedBase) {
        const uint64_t base = o.inline_float <= kSharedLimit ? kSharedApertureBase : kPrivateApertureBase;
        const uint64_t full = o.inline_float == kSharedLimit || o.inline_float == kPrivateLimit
                                  ? base + kApertureSize - 1
                                  : base;
        o.value = wide ? full : full >> 32;
        return;
    }
    if (o.inline_float) {
        o.value = inline_float_bits(o.inline_float, type);
        return;
    }
    const auto v = static_cast<int64_t>(o.value);
    if (!wide) {
        o.value = static_cast<uint32_t>(v);
        if (type == ValueType::b16 || type == ValueType::f16) {
            o.value &= o.literal ? 0xffffffffu : 0xffffu;
        }
        return;
    }
    if (o.literal && o.value <= 0xffffffffu) {
        // A 32-bit literal of a 64-bit operand: a double's high dword, an integer zero-extended
        // (CDNA2 ISA §4.4.2 "Literal Constants").
        o.value = type == ValueType::f64 ? o.value << 32 : o.value;
        return;
    }
    o.value = static_cast<uint64_t>(v); // inline integers are sign-extended
}

bool parse_hwreg(std::string_view s, Instruction& in) {
    // hwreg(HW_REG_MODE, 0, 4), hwreg(HW_REG_MODE), hwreg(5)
    auto args = split_top(s.substr(6, s.size() - 7), ',');
    if (args.empty()) {
        return false;
    }
    struct Name {
        std::string_view name;
        uint8_t id;
    };
    static constexpr Name kNames[] = {
        {"HW_REG_MODE", 1},      {"HW_REG_STATUS", 2},    {"HW_REG_TRAPSTS", 3}, {"HW_REG_HW_ID", 4},
        {"HW_REG_GPR_ALLOC", 5}, {"HW_REG_LDS_ALLOC", 6}, {"HW_REG_IB_STS", 7},  {"HW_REG_SH_MEM_BASES", 15}};
    int64_t v;
    bool found = false;
    for (const auto& n : kNames) {
        if (args[0] == n.name) {
            in.hwreg_id = n.id;
            found = true;
        }
    }
    if (!found) {
        if (!parse_int(args[0], v)) {
            return false;
        }
        in.hwreg_id = static_cast<uint8_t>(v);
    }
    in.hwreg_offset = 0;
    in.hwreg_size = 32;
    if (args.size() == 3) {
        int64_t offset, size;
        if (!parse_int(args[1], offset) || !parse_int(args[2], size)) {
            return false;
        }
        in.hwreg_offset = static_cast<uint8_t>(offset);
        in.hwreg_size = static_cast<uint8_t>(size);
    }
    return true;
}

bool parse_sendmsg(std::string_view s, Instruction& in) {
    auto args = split_top(s.substr(8, s.size() - 9), ',');
    static constexpr std::string_view kNames[] = {"",
                                                  "MSG_INTERRUPT",
                                                  "MSG_GS",
                                                  "MSG_GS_DONE",
                                                  "MSG_SAVEWAVE",
                                                  "MSG_STALL_WAVE_GEN",
                                                  "MSG_HALT_WAVES",
                                                  "MSG_ORDERED_PS_DONE",
                                                  "MSG_EARLY_PRIM_DEALLOC",
                                                  "MSG_GS_ALLOC_REQ",
                                                  "MSG_GET_DOORBELL"};
    if (args.empty()) {
        return false;
    }
    for (size_t i = 0; i < std::size(kNames); ++i) {
        if (args[0] == kNames[i]) {
            in.simm = static_cast<int64_t>(i);
            return true;
        }
    }
    int64_t v;
    if (!parse_int(args[0], v)) {
        return false;
    }
    in.simm = v;
    return true;
}

/// offset:swizzle(...) of ds_swizzle_b32 into its 16-bit offset (CDNA2 ISA §12.12, DS_SWIZZLE_B32).
bool parse_swizzle(std::string_view s, int32_t& offset) {
    auto args = split_top(s.substr(8, s.size() - 9), ',');
    if (args.empty()) {
        return false;
    }
    int64_t v[4] = {0, 0, 0, 0};
    if (args[0] == "QUAD_PERM" && args.size() == 5) {
        for (int i = 0; i < 4; ++i) {
            if (!parse_int(args[i + 1], v[i])) {
                return false;
            }
        }
        offset = static_cast<int32_t>(0x8000 | v[0] | v[1] << 2 | v[2] << 4 | v[3] << 6);
        return true;
    }
    if (args[0] == "BITMASK_PERM" && args.size() == 2 && args[1].size() == 7) {
        uint32_t and_mask = 0, or_mask = 0, xor_mask = 0;
        for (int i = 0; i < 5; ++i) {
            const char c = args[1][1 + i];
            const uint32_t bit = 1u << (4 - i);
            if (c == '1') {
                or_mask |= bit;
            } else if (c == 'p') {
                and_mask |= bit;
            } else if (c == 'i') {
                and_mask |= bit;
                xor_mask |= bit;
            } else if (c != '0') {
                return false;
            }
        }
        offset = static_cast<int32_t>(and_mask | or_mask << 5 | xor_mask << 10);
        return true;
    }
    if (args[0] == "SWAP" && args.size() == 2 && parse_int(args[1], v[0])) {
        offset = static_cast<int32_t>(0x1f | v[0] << 10);
        return true;
    }
    if (args[0] == "REVERSE" && args.size() == 2 && parse_int(args[1], v[0])) {
        offset = static_cast<int32_t>(0x1f | (v[0] - 1) << 10);
        return true;
    }
    if (args[0] == "BROADCAST" && args.size() == 3 && parse_int(args[1], v[0]) && parse_int(args[2], v[1])) {
        const uint32_t and_mask = static_cast<uint32_t>(0x1f & ~(v[0] - 1));
        offset = static_cast<int32_t>(and_mask | static_cast<uint32_t>(v[1]) << 5);
        return true;
    }
    return false;
}

uint8_t sdwa_sel(std::string_view s) {
    static constexpr std::string_view kNames[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                                  "WORD_0", "WORD_1", "DWORD"};
    for (size_t i = 0; i < std::size(kNames); ++i) {
        if (s == kNames[i]) {
            return static_cast<uint8_t>(i);
        }
    }
    return kSelDword;
}

bool apply_modifier(std::string_view token, Instruction& in) {
    const size_t colon = token.find(':');
    const std::string_view name = token.substr(0, colon);
    const std::string_view value =
        colon == std::string_view::npos ? std::string_view() : token.substr(colon + 1);
    int64_t v = 0;
    std::vector<int64_t> list;
    if (name == "offset") {
        if (starts_with(value, "swizzle(")) {
            return parse_swizzle(value, in.offset);
        }
        if (!parse_int(value, v)) {
            return false;
        }
        in.offset = static_cast<int32_t>(v);
    } else if (name == "offset0" || name == "offset1") {
        if (!parse_int(value, v)) {
            return false;
        }
        (name == "offset0" ? in.offset0 : in.offset1) = static_cast<uint8_t>(v);
    } else if (name == "glc" || name == "sc0") {
        in.glc = true;
    } else if (name == "slc") {
        in.slc = true;
    } else if (name == "scc" || name == "sc1") {
        in.scc_policy = true;
    } else if (name == "nt") {
        in.nt = true;
    } else if (name == "gds") {
        in.gds = true;
    } else if (name == "offen") {
        in.offen = true;
    } else if (name == "idxen") {
        in.idxen = true;
    } else if (name == "lds") {
        in.lds = true;
    } else if (name == "clamp") {
        in.clamp = true;
    } else if (name == "mul") {
        in.omod = value == "4" ? 2 : 1;
    } else if (name == "div") {
        in.omod = 3;
    } else if (name == "op_sel" || name == "op_sel_hi" || name == "neg_lo" || name == "neg_hi") {
        if (!parse_list(value, list)) {
            return false;
        }
        const uint8_t bits = list_bits(list);
        if (name == "op_sel") {
            in.op_sel = bits;
        } else if (name == "op_sel_hi") {
            in.op_sel_hi = bits;
        } else if (name == "neg_lo") {
            in.neg_lo = bits;
        } else {
            in.neg_hi = bits;
        }
    } else if (name == "quad_perm") {
        if (!parse_list(value, list) || list.size() != 4) {
            return false;
        }
        in.dpp_ctrl = static_cast<uint16_t>(list[0] | list[1] << 2 | list[2] << 4 | list[3] << 6);
    } else if (name == "row_shl" || name == "row_shr" || name == "row_ror") {
        if (!parse_int(value, v)) {
            return false;
        }
        const uint16_t base = name == "row_shl" ? 0x100 : name == "row_shr" ? 0x110 : 0x120;
        in.dpp_ctrl = static_cast<uint16_t>(base + v);
    } else if (name == "wave_shl" || name == "wave_rol" || name == "wave_shr" || name == "wave_ror") {
        in.dpp_ctrl = name == "wave_shl"   ? 0x130
                      : name == "wave_rol" ? 0x134
                      : name == "wave_shr" ? 0x138
                                           : 0x13c;
    } else if (name == "row_mirror") {
        in.dpp_ctrl = 0x140;
    } else if (name == "row_half_mirror") {
        in.dpp_ctrl = 0x141;
    } else if (name == "row_bcast") {
        in.dpp_ctrl = value == "15" ? 0x142 : 0x143;
    } else if (name == "row_mask" || name == "bank_mask") {
        if (!parse_int(value, v)) {
            return false;
        }
        (name == "row_mask" ? in.row_mask : in.bank_mask) = static_cast<uint8_t>(v);
    } else if (name == "bound_ctrl") {
        in.bound_ctrl = true;
    } else if (name == "dst_sel") {
        in.dst_sel = sdwa_sel(value);
    } else if (name == "dst_unused") {
        in.dst_unused = value == "UNUSED_SEXT"       ? kUnusedSext
                        : value == "UNUSED_PRESERVE" ? kUnusedPreserve
                                                     : kUnusedPad;
    } else if (name == "src0_sel" || name == "src1_sel") {
        in.src_sel[name == "src0_sel" ? 0 : 1] = sdwa_sel(value);
    } else if (name == "cbsz" || name == "abid" || name == "blgp") {
        if (!parse_int(value, v)) {
            return false;
        }
        (name == "cbsz" ? in.cbsz : name == "abid" ? in.abid : in.blgp) = static_cast<uint8_t>(v);
    } else if (starts_with(name, "vmcnt(") || starts_with(name, "expcnt(") || starts_with(name, "lgkmcnt(") ||
               name == "format" || name == "dfmt" || name == "nfmt" || name == "tfe" || name == "lwe" ||
               name == "d16" || name == "dpp8" || name == "fi") {
        // Wait counts and buffer formats change nothing here; d16 loads are distinct mnemonics.
    } else {
        return false;
    }
    return true;
}

void unimplemented(Wave& wave, const Instruction& in) {
    fault(wave, in, "the interpreter does not implement this instruction");
}

void unreadable(Wave& wave, const Instruction& in) {
    fault(wave, in, "the interpreter cannot read this instruction's operands");
}

} // namespace

std::string_view base_mnemonic(std::string_view text) {
    std::string_view m = text.substr(0, text.find(' '));
    for (std::string_view suffix : {"_e32", "_e64", "_dpp", "_sdwa"}) {
        if (ends_with(m, suffix)) {
            return m.substr(0, m.size() - suffix.size());
        }
    }
    return m;
}

std::string read_assembly(std::string_view text, Instruction& out) {
    const size_t space = text.find(' ');
    const std::string_view mnemonic = text.substr(0, space);
    const std::string_view base = base_mnemonic(text);
    if (ends_with(mnemonic, "_e32")) {
        out.encoding = Encoding::e32;
    } else if (ends_with(mnemonic, "_e64")) {
        out.encoding = Encoding::e64;
    } else if (ends_with(mnemonic, "_dpp")) {
        out.encoding = Encoding::dpp;
    } else if (ends_with(mnemonic, "_sdwa")) {
        out.encoding = Encoding::sdwa;
    }
    const OpTable& table = OpTable::instance();
    const OpInfo* info = table.find(base);
    if (!info) {
        out.execute = unimplemented;
        return {};
    }
    out.op = table.index_of(info);
    out.execute = info->execute;
    out.unit = info->unit;
    if (starts_with(base, "v_fma_mix") || starts_with(base, "v_mad_mix")) {
        out.op_sel_hi = 0; // LLVM prints no op_sel_hi when it is 0 (every source an f32), here only
    }

    std::vector<std::string_view> operands = space == std::string_view::npos
                                                 ? std::vector<std::string_view>()
                                                 : split_top(text.substr(space + 1), ',');
    std::vector<std::string_view> modifiers;
    if (!operands.empty()) {
        auto words = split_top(operands.back(), ' ');
        operands.back() = words.empty() ? std::string_view() : words.front();
        modifiers.assign(words.begin() + (words.empty() ? 0 : 1), words.end());
        if (operands.back().empty()) {
            operands.pop_back();
        }
    }
    // Operands that are really modifiers of operand-less instructions ("offset:4", "quad_perm:[...]"): a
    // colon before any bracket ("v[0:1]" is a register) and no parenthesis ("hwreg(...)").
    auto is_modifier = [](std::string_view token) {
        const size_t colon = token.find(':');
        const size_t bracket = token.find('[');
        return colon != std::string_view::npos && (bracket == std::string_view::npos || bracket > colon) &&
               token.find('(') == std::string_view::npos;
    };
    while (!operands.empty() && is_modifier(operands.back())) {
        modifiers.push_back(operands.back());
        operands.pop_back();
    }
    for (auto m : modifiers) {
        if (!apply_modifier(m, out)) {
            out.execute = unreadable;
            return "unknown modifier '" + std::string(m) + "'";
        }
    }
    std::vector<Operand> parsed;
    for (auto o : operands) {
        Operand operand;
        if (starts_with(o, "hwreg(")) {
            if (!parse_hwreg(o, out)) {
                out.execute = unreadable;
                return "unreadable hwreg '" + std::string(o) + "'";
            }
            continue;
        }
        if (starts_with(o, "sendmsg(")) {
            if (!parse_sendmsg(o, out)) {
                out.execute = unreadable;
                return "unreadable sendmsg '" + std::string(o) + "'";
            }
            continue;
        }
        if (starts_with(o, "vmcnt(") || starts_with(o, "expcnt(") || starts_with(o, "lgkmcnt(")) {
            continue;
        }
        if (!parse_operand(o, operand)) {
            out.execute = unreadable;
            return "unknown operand '" + std::string(o) + "'";
        }
        parsed.push_back(operand);
    }
    size_t dst_count = info->dst_count == kDstIfGlc ? (out.glc ? 1 : 0) : info->dst_count;
    if (dst_count > parsed.size()) {
        dst_count = parsed.size();
    }
    if (dst_count > 2 || parsed.size() - dst_count > 4) {
        out.execute = unreadable;
        return "too many operands";
    }
    out.dst_count = static_cast<uint8_t>(dst_count);
    out.src_count = static_cast<uint8_t>(parsed.size() - dst_count);
    for (size_t i = 0; i < dst_count; ++i) {
        out.dst[i] = parsed[i];
    }
    for (size_t i = 0; i < out.src_count; ++i) {
        out.src[i] = parsed[dst_count + i];
        type_constant(out.src[i], info->types[i]);
    }
    return {};
}

} // namespace sim::isa
