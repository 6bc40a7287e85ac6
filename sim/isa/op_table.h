// SPDX-License-Identifier: MIT
// The operations the interpreter implements, by the mnemonic LLVM prints for gfx90a (without the
// encoding suffix _e32/_e64/_dpp/_sdwa): how many leading operands are destinations, how constant
// sources are typed, which unit executes them, and the function that executes them.
#pragma once

#include "instruction.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sim::isa {

/// How a constant source is read: its width and, for an inline float constant, its format.
enum class ValueType : uint8_t { b32, b64, f16, f32, f64, b16 };

/// `dst_count` of atomics that return the prior value only when GLC is set.
inline constexpr uint8_t kDstIfGlc = 0xff;

struct OpInfo {
    std::string name;
    ExecuteFn execute = nullptr;
    Unit unit = Unit::valu;
    uint8_t dst_count = 1;
    ValueType types[4] = {ValueType::b32, ValueType::b32, ValueType::b32, ValueType::b32};
};

/// Every implemented operation. Built once; read-only afterwards, so lookups need no lock.
class OpTable {
  public:
    static const OpTable& instance();

    /// The entry of that mnemonic (encoding suffix removed), or nullptr when it is not implemented.
    const OpInfo* find(std::string_view name) const;
    const OpInfo& at(uint16_t index) const { return ops_[index]; }
    uint16_t index_of(const OpInfo* info) const { return static_cast<uint16_t>(info - ops_.data()); }
    size_t size() const { return ops_.size(); }

    /// Adds an operation (registration only, before instance() returns).
    void add(OpInfo info);

  private:
    OpTable();
    std::vector<OpInfo> ops_;
    std::unordered_map<std::string, uint16_t> by_name_;
};

// Each family registers its operations (ops_*.cpp).
void register_scalar_ops(OpTable& table);
void register_program_ops(OpTable& table);
void register_vector_int_ops(OpTable& table);
void register_vector_float_ops(OpTable& table);
void register_vector_compare_ops(OpTable& table);
void register_packed_ops(OpTable& table);
void register_memory_ops(OpTable& table);
void register_lds_ops(OpTable& table);
void register_mfma_ops(OpTable& table);

} // namespace sim::isa
