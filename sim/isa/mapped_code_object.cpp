// SPDX-License-Identifier: MIT
#include "mapped_code_object.h"

#include <elf.h>
#include <sys/mman.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sim::isa {

MappedCodeObject::MappedCodeObject(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), {});
    if (!in.good() && !in.eof()) {
        throw std::runtime_error(path + ": cannot be read");
    }
    if (file.size() < sizeof(Elf64_Ehdr) || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0) {
        throw std::runtime_error(path + ": not an ELF file");
    }
    Elf64_Ehdr eh;
    std::memcpy(&eh, file.data(), sizeof(eh));
    auto program_header = [&](int i) {
        Elf64_Phdr ph;
        std::memcpy(&ph, file.data() + eh.e_phoff + static_cast<size_t>(i) * eh.e_phentsize, sizeof(ph));
        return ph;
    };
    for (int i = 0; i < eh.e_phnum; ++i) {
        const Elf64_Phdr ph = program_header(i);
        if (ph.p_type == PT_LOAD) {
            image_size_ = std::max<size_t>(image_size_, ph.p_vaddr + ph.p_memsz);
        }
    }
    void* image = mmap(nullptr, image_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (image == MAP_FAILED) {
        throw std::runtime_error(path + ": cannot map its segments");
    }
    image_ = static_cast<uint8_t*>(image);
    for (int i = 0; i < eh.e_phnum; ++i) {
        const Elf64_Phdr ph = program_header(i);
        if (ph.p_type != PT_LOAD) {
            continue;
        }
        std::memcpy(image_ + ph.p_vaddr, file.data() + ph.p_offset, ph.p_filesz);
        if (ph.p_flags & PF_X) {
            code_begin_ = reinterpret_cast<uint64_t>(image_ + ph.p_vaddr);
            code_vaddr_ = ph.p_vaddr;
            code_end_ = code_begin_ + ph.p_memsz;
        }
    }
    for (int i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr sh;
        std::memcpy(&sh, file.data() + eh.e_shoff + static_cast<size_t>(i) * eh.e_shentsize, sizeof(sh));
        if (sh.sh_type != SHT_SYMTAB) {
            continue;
        }
        Elf64_Shdr strings;
        std::memcpy(&strings, file.data() + eh.e_shoff + static_cast<size_t>(sh.sh_link) * eh.e_shentsize,
                    sizeof(strings));
        for (size_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
            Elf64_Sym sym;
            std::memcpy(&sym, file.data() + sh.sh_offset + off, sizeof(sym));
            const char* name = reinterpret_cast<const char*>(file.data() + strings.sh_offset + sym.st_name);
            symbols_.emplace_back(name, reinterpret_cast<uint64_t>(image_ + sym.st_value));
        }
    }
}

MappedCodeObject::~MappedCodeObject() {
    if (image_) {
        munmap(image_, image_size_);
    }
}

uint64_t MappedCodeObject::descriptor(const std::string& kernel) const {
    for (const auto& [name, address] : symbols_) {
        if (name == kernel + ".kd") {
            return address;
        }
    }
    throw std::runtime_error("no kernel descriptor " + kernel + ".kd");
}

} // namespace sim::isa
