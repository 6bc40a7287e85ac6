// SPDX-License-Identifier: MIT
// An AMDGPU ELF code object mapped into host memory the way a loader maps it (PT_LOAD segments at their
// virtual addresses), for isa_bench: its kernel descriptors and executable segment. No relocations are
// applied: the bench kernels need none.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rs::bench {

class LoadedCodeObject {
  public:
    /// Maps the code object in `path`. Throws std::runtime_error naming the file and the problem.
    explicit LoadedCodeObject(const std::string& path);
    ~LoadedCodeObject();
    LoadedCodeObject(const LoadedCodeObject&) = delete;
    LoadedCodeObject& operator=(const LoadedCodeObject&) = delete;

    /// Host address of the kernel descriptor "<kernel>.kd". Throws when there is none.
    uint64_t descriptor(const std::string& kernel) const;
    /// The executable segment: [code_begin, code_end).
    uint64_t code_begin() const { return code_begin_; }
    uint64_t code_end() const { return code_end_; }

  private:
    uint8_t* image_ = nullptr;
    size_t image_size_ = 0;
    uint64_t code_begin_ = 0, code_end_ = 0;
    std::vector<std::pair<std::string, uint64_t>> symbols_;
};

} // namespace rs::bench
