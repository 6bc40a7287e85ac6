// SPDX-License-Identifier: MIT
#include "code_object_uri.h"

#include <cctype>
#include <climits>
#include <cstdio>
#include <link.h>
#include <unistd.h>

namespace sim {

namespace {

std::string encode_path(const char* path) {
    std::string out = "file://";
    for (const char* p = path; *p; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof(buf), "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

std::string memory_uri(const void* memory, size_t size) {
    char buf[128];
    std::snprintf(buf, sizeof(buf), "memory://%d#offset=0x%llx&size=%zu", static_cast<int>(getpid()),
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(memory)), size);
    return buf;
}

} // namespace

std::string uri_from_file(int fd, size_t offset, size_t size, bool complete_file, const void* memory) {
    char link[64];
    std::snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    char target[PATH_MAX];
    const ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0) {
        return memory_uri(memory, size);
    }
    target[n] = '\0';
    std::string uri = encode_path(target);
    if (!complete_file) {
        uri += "#offset=" + std::to_string(offset) + "&size=" + std::to_string(size);
    }
    return uri;
}

std::string uri_from_memory(const void* memory, size_t size) {
    struct Search {
        uintptr_t address = 0;
        size_t callback_index = 0;
        std::string path;
        size_t file_offset = 0;
        bool found = false;
    } search;
    search.address = reinterpret_cast<uintptr_t>(memory);
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) -> int {
            auto* s = static_cast<Search*>(data);
            const size_t index = s->callback_index++;
            const uintptr_t relative = s->address - info->dlpi_addr;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_LOAD || relative < ph.p_vaddr || relative - ph.p_vaddr >= ph.p_memsz) {
                    continue;
                }
                if (info->dlpi_name && info->dlpi_name[0]) {
                    s->path = info->dlpi_name;
                } else if (index == 0) {
                    // The first entry is the program itself.
                    char exe[PATH_MAX];
                    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
                    if (n <= 0) {
                        return 1;
                    }
                    exe[n] = '\0';
                    s->path = exe;
                }
                s->file_offset = relative - ph.p_vaddr + ph.p_offset;
                s->found = !s->path.empty();
                return 1;
            }
            return 0;
        },
        &search);
    if (!search.found) {
        return memory_uri(memory, size);
    }
    return encode_path(search.path.c_str()) + "#offset=" + std::to_string(search.file_offset) +
           "&size=" + std::to_string(size);
}

} // namespace sim
