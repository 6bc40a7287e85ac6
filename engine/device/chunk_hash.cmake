# SPDX-License-Identifier: MIT
# The chunk-hash kernel of dirty-chunk restore (docs/mechanism.md, "Dirty-chunk hashing"). Included by
# engine/CMakeLists.txt: the generated table is a source of replayscope_engine, so its rule must live in
# the same directory.
#  - chunk_hash.hip compiled at build time by Debian's clang for amdgcn-amd-amdhsa, one code object (v4)
#    per processor, embedded into libreplayscope_engine.so as a generated table (no file to find at run
#    time; engine/src/chunk_hash_code_objects.h);
#  - libreplayscope_chunk_hash_standins.so beside the engine: the kernel's host stand-in, which the
#    simulated runtime runs in its place (sim/include/hsa_sim/standin.h).
#
# Compiler: clang-19 (knows every processor below, gfx942 included), else clang-15 for the processors it
# knows (it stops at gfx940). Each processor is checked once at configure time with a tiny compile; with
# neither compiler, or none targeting amdgcn, the table is empty and the engine hashes on the host.

set(RS_CHUNK_HASH_PROCESSORS gfx906 gfx908 gfx90a gfx940 gfx941 gfx942 gfx1030 gfx1100 gfx1101 gfx1102
    CACHE STRING "AMDGPU processors the chunk-hash kernel is built for")
find_program(RS_CHUNK_HASH_CLANG NAMES clang-19 clang-15
             DOC "clang for the chunk-hash kernel (amdgcn-amd-amdhsa): clang-19 preferred, else clang-15")

set(_rs_ch_flags -x hip --cuda-device-only -nogpulib -nogpuinc -O3 -std=c++17 -mcode-object-version=4
    --no-gpu-bundle-output)
set(_rs_ch_processors "")
if(RS_CHUNK_HASH_CLANG)
    set(_rs_ch_probe "${CMAKE_CURRENT_BINARY_DIR}/device/chunk_hash_probe.hip")
    file(WRITE "${_rs_ch_probe}" "extern \"C\" __attribute__((global)) void probe() {}\n")
    foreach(processor IN LISTS RS_CHUNK_HASH_PROCESSORS)
        execute_process(COMMAND "${RS_CHUNK_HASH_CLANG}" ${_rs_ch_flags} --offload-arch=${processor}
                                "${_rs_ch_probe}" -o "${CMAKE_CURRENT_BINARY_DIR}/device/chunk_hash_probe.co"
                        RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
        if(result EQUAL 0)
            list(APPEND _rs_ch_processors ${processor})
        endif()
    endforeach()
    file(REMOVE "${CMAKE_CURRENT_BINARY_DIR}/device/chunk_hash_probe.co")
endif()
if(_rs_ch_processors)
    list(JOIN _rs_ch_processors " " _rs_ch_list)
    message(STATUS "ReplayScope: chunk-hash kernel built by ${RS_CHUNK_HASH_CLANG} for ${_rs_ch_list}")
else()
    message(STATUS "ReplayScope: no clang that targets amdgcn-amd-amdhsa (apt-get install clang-19 lld-19): "
                   "the engine carries no chunk-hash code object and hashes chunks on the host")
endif()

set(_rs_ch_source "${CMAKE_CURRENT_LIST_DIR}/chunk_hash.hip")
set(_rs_ch_depends "${_rs_ch_source}" "${CMAKE_CURRENT_LIST_DIR}/chunk_hash_math.h"
    "${CMAKE_CURRENT_LIST_DIR}/device_include/hip/hip_runtime.h")
set(_rs_ch_dir "${CMAKE_CURRENT_BINARY_DIR}/device")
set(_rs_ch_objects "")
set(_rs_ch_entries "")
foreach(processor IN LISTS _rs_ch_processors)
    set(object "${_rs_ch_dir}/chunk_hash-${processor}.co")
    add_custom_command(OUTPUT "${object}"
        COMMAND "${CMAKE_COMMAND}" -E make_directory "${_rs_ch_dir}"
        COMMAND "${RS_CHUNK_HASH_CLANG}" ${_rs_ch_flags} --offload-arch=${processor}
                -I "${CMAKE_CURRENT_LIST_DIR}/device_include" -I "${CMAKE_CURRENT_LIST_DIR}"
                "${_rs_ch_source}" -o "${object}"
        DEPENDS ${_rs_ch_depends}
        COMMENT "chunk-hash kernel for ${processor}"
        VERBATIM)
    list(APPEND _rs_ch_objects "${object}")
    list(APPEND _rs_ch_entries "${processor}=${object}")
endforeach()

# PROCESSOR=PATH of every code object, for the tests that read them (tests/engine).
set(RS_CHUNK_HASH_CODE_OBJECTS "${_rs_ch_entries}" CACHE INTERNAL "the chunk-hash code objects built")

# The table: one byte array per code object (embed_code_objects.cmake).
set(_rs_ch_table "${CMAKE_CURRENT_BINARY_DIR}/device/chunk_hash_code_object_table.cpp")
add_custom_command(OUTPUT "${_rs_ch_table}"
    COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${_rs_ch_table}" "-DENTRIES=${_rs_ch_entries}"
            -P "${CMAKE_CURRENT_LIST_DIR}/embed_code_objects.cmake"
    DEPENDS ${_rs_ch_objects} "${CMAKE_CURRENT_LIST_DIR}/embed_code_objects.cmake"
    COMMENT "chunk-hash code object table (${_rs_ch_list})"
    VERBATIM)
# Visible to tests/engine as well (tst_device_hasher compiles it).
set(RS_CHUNK_HASH_TABLE_SOURCE "${_rs_ch_table}" CACHE INTERNAL "the generated chunk-hash code object table")

# The kernel's host stand-in for the simulated runtime, beside the engine (build tree and install).
add_library(replayscope_chunk_hash_standins MODULE "${CMAKE_CURRENT_LIST_DIR}/chunk_hash_standin.cpp")
target_include_directories(replayscope_chunk_hash_standins PRIVATE "${PROJECT_SOURCE_DIR}/sim/include")
target_link_libraries(replayscope_chunk_hash_standins PRIVATE rs::warnings)
set_target_properties(replayscope_chunk_hash_standins PROPERTIES
    PREFIX "lib" OUTPUT_NAME replayscope_chunk_hash_standins
    LIBRARY_OUTPUT_DIRECTORY "${RS_ENGINE_OUTPUT_DIR}"
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
install(TARGETS replayscope_chunk_hash_standins LIBRARY DESTINATION lib/replayscope)
# The table alone, for tests that compile the device hasher without the whole engine.
add_custom_target(rs_chunk_hash_table DEPENDS "${_rs_ch_table}")
