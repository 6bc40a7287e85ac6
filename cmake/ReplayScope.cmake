# SPDX-License-Identifier: MIT
# Project-wide build settings and helpers for ReplayScope.

if(NOT EXISTS "${RS_HSA_INCLUDE_DIR}/hsa.h" OR NOT EXISTS "${RS_HSA_INCLUDE_DIR}/hsa_api_trace.h")
    message(FATAL_ERROR "RS_HSA_INCLUDE_DIR=${RS_HSA_INCLUDE_DIR} has no hsa.h/hsa_api_trace.h: "
                        "install Debian's libhsa-runtime-dev (packaging/install-deps.sh) or point it at other headers")
endif()
file(STRINGS "${RS_HSA_INCLUDE_DIR}/hsa_api_trace.h" _rs_major REGEX "#define HSA_API_TABLE_MAJOR_VERSION")
string(REGEX MATCH "0x[0-9a-fA-F]+" RS_HSA_API_TABLE_MAJOR "${_rs_major}")
message(STATUS "ReplayScope: HSA headers ${RS_HSA_INCLUDE_DIR} (HsaApiTable major ${RS_HSA_API_TABLE_MAJOR})")

# Every HSA-facing target uses this: the chosen header set, as system headers, with AMD_INTERNAL_BUILD so
# that hsa_api_trace.h finds its siblings (Debian's copy otherwise includes "inc/hsa_ext_amd.h").
add_library(rs_hsa_headers INTERFACE)
target_include_directories(rs_hsa_headers SYSTEM INTERFACE "${RS_HSA_INCLUDE_DIR}")
target_compile_definitions(rs_hsa_headers INTERFACE AMD_INTERNAL_BUILD)
add_library(rs::hsa_headers ALIAS rs_hsa_headers)

# Warnings for our own code.
add_library(rs_warnings INTERFACE)
target_compile_options(rs_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                             -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual
                                             -Wformat=2 -Wimplicit-fallthrough)
# GCC 12 reports false null dereferences and maybe-uninitialized values inside libstdc++ (std::function in
# <regex>) once sanitizer instrumentation changes inlining: those two stay warnings in sanitizer builds.
if(RS_SANITIZER STREQUAL "")
    target_compile_options(rs_warnings INTERFACE -Wnull-dereference)
else()
    target_compile_options(rs_warnings INTERFACE -Wno-error=maybe-uninitialized)
endif()
if(RS_WERROR)
    target_compile_options(rs_warnings INTERFACE -Werror)
endif()
add_library(rs::warnings ALIAS rs_warnings)

if(RS_SANITIZER STREQUAL "thread")
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
elseif(RS_SANITIZER STREQUAL "address")
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
elseif(NOT RS_SANITIZER STREQUAL "")
    message(FATAL_ERROR "RS_SANITIZER must be '', 'thread' or 'address' (got '${RS_SANITIZER}')")
endif()

# Fuzzers (fuzz/, docs/reliability.md): libFuzzer is clang's (Debian: clang-15 and libclang-common-15-dev).
# Every target of such a build carries fuzzer coverage, ASan and UBSan, so the libraries under test are
# instrumented too; only the fuzz targets link libFuzzer's main.
if(RS_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "RS_BUILD_FUZZERS needs clang (libFuzzer): configure with the fuzz preset or "
                            "-DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15")
    endif()
    if(NOT RS_SANITIZER STREQUAL "")
        message(FATAL_ERROR "RS_BUILD_FUZZERS brings its own sanitizers (address, undefined): leave RS_SANITIZER empty")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
endif()

# Programs written against the real HSA API link -lhsa-runtime64 as usual. On ROCr 5.2.3 headers that is
# Debian's real library (proving the simulator is a drop-in replacement); tests then run them with
# LD_LIBRARY_PATH pointing at the simulator. With other headers (no matching real library installed),
# they link against the simulator itself.
find_library(RS_REAL_HSA_RUNTIME NAMES hsa-runtime64 PATHS /usr/lib/x86_64-linux-gnu NO_DEFAULT_PATH)
if(RS_REAL_HSA_RUNTIME AND RS_HSA_API_TABLE_MAJOR STREQUAL "0x01")
    set(RS_HSA_LINK_LIBRARY "${RS_REAL_HSA_RUNTIME}" CACHE STRING "Library HSA programs link against")
else()
    set(RS_HSA_LINK_LIBRARY hsa_sim CACHE STRING "Library HSA programs link against")
endif()

# Directory holding the simulator's libhsa-runtime64.so.1 (for LD_LIBRARY_PATH).
set(RS_SIM_LIBRARY_DIR "${CMAKE_BINARY_DIR}/sim/lib")

#[[ rs_add_hsa_program(NAME SOURCES...)
    An executable written against the real HSA API, linked like any ROCm program. ]]
function(rs_add_hsa_program name)
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE rs::hsa_headers rs::warnings ${RS_HSA_LINK_LIBRARY} Threads::Threads)
endfunction()

#[[ rs_sanitizer_runtime(OUT)
    Sets OUT to the path of this build's sanitizer runtime (libtsan.so or libasan.so, as the compiler
    finds it), empty without a sanitizer: what an uninstrumented program (hipcc's, Debian's rocminfo)
    preloads to run on the instrumented simulator and engine. ]]
function(rs_sanitizer_runtime out)
    if(RS_SANITIZER STREQUAL "thread")
        set(runtime libtsan.so)
    elseif(RS_SANITIZER STREQUAL "address")
        set(runtime libasan.so)
    else()
        set(${out} "" PARENT_SCOPE)
        return()
    endif()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${runtime} OUTPUT_VARIABLE path
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(${out} "${path}" PARENT_SCOPE)
endfunction()

#[[ rs_qt_test_environment(TEST)
    A QtTest suite that runs without the simulator: under the tsan preset, the shared suppressions of
    uninstrumented Qt (tests/tsan.supp), without which QtTest's watchdog thread is reported as a race at
    exit in every suite. ]]
function(rs_qt_test_environment test)
    if(RS_SANITIZER STREQUAL "thread")
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                     "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1 exitcode=66 suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp")
    endif()
endfunction()

#[[ rs_sim_test_environment(TEST)
    Runs TEST on the simulated runtime: the simulator first on the library path. ]]
function(rs_sim_test_environment test)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "LD_LIBRARY_PATH=${RS_SIM_LIBRARY_DIR}")
    if(RS_SANITIZER STREQUAL "thread")
        # die_after_fork=0: tests start child processes through QProcess (fork, then exec at once); the
        # fork-without-exec case TSan refuses to follow does not occur in them.
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                     "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1 exitcode=66 die_after_fork=0 suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp")
    elseif(RS_SANITIZER STREQUAL "address")
        # verify_asan_link_order=0: the graph-launch test LD_PRELOADs the (instrumented) engine, which then
        # precedes the ASan runtime in the library list.
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                     "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0" "UBSAN_OPTIONS=print_stacktrace=1")
    endif()
endfunction()

find_package(Threads REQUIRED)

# HIP programs (hipcc) and their kernel stand-ins: rs_add_hip_program, rs_hip_test_environment.
include("${CMAKE_CURRENT_LIST_DIR}/HipPrograms.cmake")
