// SPDX-License-Identifier: MIT
// An AMDGPU ELF code object mapped into host memory the way a loader maps it (PT_LOAD segments at their
// virtual addresses), for the interpreter's benchmark and decoder tests, which drive sim/isa without the
// HSA runtime: its kernel descriptors and executable segment. No relocations are applied.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sim::isa {

class MappedCodeObject {
  public:
    /// Maps the code object in `path`. Throws std::runtime_error naming the file and the problem.
    explicit MappedCodeObject(const std::string& path);
    ~MappedCodeObject();
    MappedCodeObject(const MappedCodeObject&) = delete;
    MappedCodeObject& operator=(const MappedCodeObject&) = delete;

    /// Host address of the kernel descriptor "<kernel>.kd". Throws when there is none.
    uint64_t descriptor(const std::string& kernel) const;
    /// The executable segment: [code_begin, code_end).
    uint64_t code_begin() const { return code_begin_; }
    uint64_t code_end() const { return code_end_; }
    /// The executable segment's virtual address in the ELF file (what llvm-objdump prints).
    uint64_t code_vaddr() const { return code_vaddr_; }

  private:
    uint8_t* image_ = nullptr;
    size_t image_size_ = 0;
    uint64_t code_begin_ = 0, code_end_ = 0, code_vaddr_ = 0;
    std::vector<std::pair<std::string, uint64_t>> symbols_;
};

} // namespace sim::isa
