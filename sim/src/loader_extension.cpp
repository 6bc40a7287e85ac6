// SPDX-License-Identifier: MIT
#include "loader_extension.h"

#include "agent.h"
#include "api.h"
#include "code_object_uri.h"
#include "executable.h"
#include "runtime.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {

namespace {

template <typename T>
hsa_status_t put(void* value, T v) {
    std::memcpy(value, &v, sizeof(T));
    return HSA_STATUS_SUCCESS;
}

/// The executable and loaded code object whose variable storage holds `address` (caller holds the lock).
LoadedCodeObject* owner_of(const void* address) {
    auto p = reinterpret_cast<uintptr_t>(address);
    for (auto& e : ExecutableRegistry::instance().executables()) {
        for (auto& l : e->code_objects) {
            for (size_t i = 0; i < l->variable_storage.size(); ++i) {
                auto base = reinterpret_cast<uintptr_t>(l->variable_storage[i]);
                if (p >= base && p < base + (l->variable_sizes[i] == 0 ? 1 : l->variable_sizes[i])) {
                    return l.get();
                }
            }
            for (auto& s : l->symbols) {
                if (s->kernel && s->kernel->handle() == p) {
                    return l.get();
                }
                // A variable bound to a stand-in instance lives outside the loaded segment.
                auto v = reinterpret_cast<uintptr_t>(s->variable_address);
                if (l->elf && s->kind == HSA_SYMBOL_KIND_VARIABLE && p >= v && p < v + s->variable_size) {
                    return l.get();
                }
            }
            // The loaded segment of an AMDGPU ELF code object (kernel descriptors, data).
            if (l->segment && p >= l->load_base && p < l->load_base + l->load_size) {
                return l.get();
            }
        }
    }
    return nullptr;
}

hsa_status_t query_host_address(const void* device_address, const void** host_address) {
    SIM_REQUIRE_INIT();
    if (!device_address || !host_address) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::shared_lock lock(ExecutableRegistry::instance().mutex());
    if (!owner_of(device_address)) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *host_address = device_address; // one address space in the simulator
    return HSA_STATUS_SUCCESS;
}

hsa_status_t query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t* descriptors, size_t* count) {
    SIM_REQUIRE_INIT();
    if (!count) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    (void)descriptors;
    *count = 0; // simulated code objects have no loaded ELF segments
    return HSA_STATUS_SUCCESS;
}

hsa_status_t query_executable(const void* device_address, hsa_executable_t* executable) {
    SIM_REQUIRE_INIT();
    if (!device_address || !executable) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::shared_lock lock(ExecutableRegistry::instance().mutex());
    LoadedCodeObject* l = owner_of(device_address);
    if (!l) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    *executable = l->executable->handle();
    return HSA_STATUS_SUCCESS;
}

hsa_status_t iterate_loaded_code_objects(hsa_executable_t executable,
                                         hsa_status_t (*callback)(hsa_executable_t, hsa_loaded_code_object_t,
                                                                  void*),
                                         void* data) {
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    std::vector<hsa_loaded_code_object_t> list;
    {
        auto& reg = ExecutableRegistry::instance();
        std::shared_lock lock(reg.mutex());
        Executable* e = reg.find(executable);
        if (!e) {
            return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
        }
        for (auto& l : e->code_objects) {
            list.push_back(l->handle());
        }
    }
    for (auto l : list) {
        hsa_status_t s = callback(executable, l, data);
        if (s != HSA_STATUS_SUCCESS) {
            return s;
        }
    }
    return HSA_STATUS_SUCCESS;
}

hsa_status_t loaded_code_object_get_info(hsa_loaded_code_object_t handle,
                                         hsa_ven_amd_loader_loaded_code_object_info_t attribute,
                                         void* value) {
    SIM_REQUIRE_INIT();
    if (!value) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    LoadedCodeObject* l = reg.find(handle);
    if (!l) {
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
        return put(value, l->executable->handle());
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
        return put<uint32_t>(value, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
        return put(value, l->agent->handle());
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
        return put<uint32_t>(value, l->from_file ? HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE
                                                 : HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
        return put<uint64_t>(value, reinterpret_cast<uint64_t>(l->memory_base));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
        return put<uint64_t>(value, l->memory_size);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE:
        return put<int>(value, l->file);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
        // ROCr: load base minus the first segment's vaddr (0 for ELF code objects).
        return put<int64_t>(value, l->elf ? static_cast<int64_t>(l->load_base) : 0);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
        return put<uint64_t>(value, l->load_base);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
        return put<uint64_t>(value, l->load_size);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
        return put<uint32_t>(value, static_cast<uint32_t>(l->uri.size()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
        std::memcpy(value, l->uri.data(), l->uri.size());
        return HSA_STATUS_SUCCESS;
    default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
}

hsa_status_t reader_from_file_with_offset_size(hsa_file_t file, size_t offset, size_t size,
                                               hsa_code_object_reader_t* reader) {
    SIM_REQUIRE_INIT();
    if (!reader || size == 0) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    struct stat st{};
    if (fstat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        return HSA_STATUS_ERROR_INVALID_FILE;
    }
    // ROCr 5.2.3 CodeObjectReaderImpl::SetFile: the offset must lie inside the file.
    if (static_cast<uint64_t>(st.st_size) <= offset) {
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    auto r = std::make_unique<CodeObjectReader>();
    r->bytes.resize(size);
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(file, r->bytes.data() + done, size - done, static_cast<off_t>(offset + done));
        if (n <= 0) {
            return HSA_STATUS_ERROR_INVALID_FILE;
        }
        done += static_cast<size_t>(n);
    }
    r->from_file = true;
    r->file = file;
    const bool complete = offset == 0 && size == static_cast<uint64_t>(st.st_size);
    r->uri = uri_from_file(file, offset, size, complete, r->bytes.data());
    *reader = {reinterpret_cast<uint64_t>(r.release())};
    return HSA_STATUS_SUCCESS;
}

hsa_status_t iterate_executables(hsa_status_t (*callback)(hsa_executable_t, void*), void* data) {
    SIM_REQUIRE_INIT();
    if (!callback) {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    // Held for the whole walk, as ROCr does: executable create/destroy from the callback blocks.
    auto& reg = ExecutableRegistry::instance();
    std::shared_lock lock(reg.mutex());
    for (auto& e : reg.executables()) {
        hsa_status_t s = callback(e->handle(), data);
        if (s != HSA_STATUS_SUCCESS) {
            return s;
        }
    }
    return HSA_STATUS_SUCCESS;
}

} // namespace

hsa_ven_amd_loader_1_03_pfn_t loader_extension_table() {
    hsa_ven_amd_loader_1_03_pfn_t t{};
    t.hsa_ven_amd_loader_query_host_address = &query_host_address;
    t.hsa_ven_amd_loader_query_segment_descriptors = &query_segment_descriptors;
    t.hsa_ven_amd_loader_query_executable = &query_executable;
    t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects = &iterate_loaded_code_objects;
    t.hsa_ven_amd_loader_loaded_code_object_get_info = &loaded_code_object_get_info;
    t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
        &reader_from_file_with_offset_size;
    t.hsa_ven_amd_loader_iterate_executables = &iterate_executables;
    return t;
}

} // namespace sim
