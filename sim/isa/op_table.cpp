// SPDX-License-Identifier: MIT
#include "op_table.h"

namespace sim::isa {

OpTable::OpTable() {
    ops_.reserve(1024);
    register_scalar_ops(*this);
    register_program_ops(*this);
    register_vector_int_ops(*this);
    register_vector_float_ops(*this);
    register_vector_compare_ops(*this);
    register_packed_ops(*this);
    register_memory_ops(*this);
    register_lds_ops(*this);
    register_mfma_ops(*this);
}

const OpTable& OpTable::instance() {
    static const OpTable kTable;
    return kTable;
}

void OpTable::add(OpInfo info) {
    by_name_[info.name] = static_cast<uint16_t>(ops_.size());
    ops_.push_back(std::move(info));
}

const OpInfo* OpTable::find(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? nullptr : &ops_[it->second];
}

} // namespace sim::isa
