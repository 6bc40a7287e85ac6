# SPDX-License-Identifier: MIT
# HIP programs (hipcc --offload-arch=gfx90a, cmake/HipPrograms.cmake): the README's demo application and
# the programs tests/hip runs, each with its stand-in library, all in <build>/workloads/hip. They run on
# the simulated runtime with its directory first on LD_LIBRARY_PATH (Debian's libamdhip64 then loads it)
# and HSA_SIM_STANDINS naming the stand-ins, or under `replayscope-run --simulate --standins LIB`.
# Included by workloads/CMakeLists.txt (not a subdirectory: the build directory workloads/hip holds the
# programs themselves, which must not collide with the targets' own names).

set(RS_HIP_COMMON_HEADERS "${CMAKE_CURRENT_SOURCE_DIR}/hip/hip_check.h")

# The README's demo: a two-agent heat-diffusion solver (demo.hip). Target name kept from the HSA demo.
rs_add_hip_program(demo TARGET workload_demo SOURCES hip/demo.hip
                   INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})

# Test programs (tests/hip runs each on the plain simulated runtime and under replayscope-run).
set(RS_HIP_TEST_PROGRAMS hip_memory hip_device_counter hip_blit hip_graph hip_async_alloc hip_streams
                         hip_device_props hip_shared)
# The replay window must not harm the application (tests/hip, docs/replay-window.md): cross-stream waits
# from one thread, a second thread's writes during a long replayed kernel, completion only when the kernel
# is done, the dispatch on its own queue with its own settings and timestamps.
list(APPEND RS_HIP_TEST_PROGRAMS hip_cross_stream_wait hip_second_thread_write hip_early_completion
     hip_own_queue hip_restore_regions)
# Every process of a run is recorded: a HIP program that fork()s and exec()s two HIP children.
list(APPEND RS_HIP_TEST_PROGRAMS hip_fork_children)
# Process lifetime during a window: exit, quick_exit, _exit or return while a replayed kernel runs, and fork.
list(APPEND RS_HIP_TEST_PROGRAMS hip_exit_during_window)
# A replay that fails: an in-place counter whose restores fail, a kernel that fails its queue.
list(APPEND RS_HIP_TEST_PROGRAMS hip_failure_contract)
# Work of another stream that waits for a replayed kernel's event (a filtered kernel, a copy, a fill).
list(APPEND RS_HIP_TEST_PROGRAMS hip_event_dependents)
# Arguments reaching memory no snapshot restores (pinned host through a packed struct or an end pointer,
# managed, registered host) are not replayed; a kernel only reading pinned host memory is.
list(APPEND RS_HIP_TEST_PROGRAMS hip_unrestorable_args)
# Pinned host memory reached through a pointer kept in device memory or a __device__ variable: replayed,
# and only the fidelity check sees the host memory change.
list(APPEND RS_HIP_TEST_PROGRAMS hip_hidden_host_pointer)
# Two devices sharing memory through peer access (HSA_SIM_GPU_AGENTS=2): device 1 writing device 0's memory
# during device 0's replayed kernel, device 0 updating device 1's memory in place.
list(APPEND RS_HIP_TEST_PROGRAMS hip_peer_agents)
foreach(program IN LISTS RS_HIP_TEST_PROGRAMS)
    rs_add_hip_program(${program} SOURCES hip/${program}.hip
                       INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})
endforeach()

# Dirty-chunk restore (tests/hip/tst_hip_dirty_restore.cpp, the restore benchmark in bench/): one large
# buffer of which each launch writes a given fraction. Target hip_partial_write. Its stand-in library is
# made in sanitizer builds too: tst_hip_dirty_restore runs it there.
rs_add_hip_program(partial_write SOURCES hip/partial_write.hip STANDINS_UNDER_SANITIZERS
                   INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})

# A grid barrier (cooperative groups' this_grid().sync()) across the work-groups of a cooperative launch:
# ds_gws_barrier, which only the interpreter runs (a stand-in runs one work-group at a time).
rs_add_hip_program(hip_grid_sync SOURCES hip/hip_grid_sync.hip NO_STANDINS
                   INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})

# Device-side malloc/free and new/delete across two kernels: ockl's allocator and its hostcall requests
# for slabs, which only the interpreter runs (a stand-in is host code).
rs_add_hip_program(hip_device_malloc SOURCES hip/hip_device_malloc.hip NO_STANDINS
                   INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})

# Device printf (hostcall): a code object no stand-in covers, printing through ROCclr's hostcall listener.
rs_add_hip_program(hip_device_printf SOURCES hip/hip_device_printf.hip NO_STANDINS
                   INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})

# Users of Debian's ROCm libraries, whose kernels only the interpreter runs (no stand-ins): header-only
# rocPRIM (warp, block and device algorithms), rocRAND's precompiled generators and rocSPARSE's precompiled
# sparse matrix-vector product.
find_path(RS_ROCPRIM_INCLUDE_DIR rocprim/rocprim.hpp)
find_library(RS_ROCRAND_LIBRARY rocrand)
find_library(RS_ROCSPARSE_LIBRARY rocsparse)
if(RS_ROCPRIM_INCLUDE_DIR)
    rs_add_hip_program(hip_rocprim SOURCES hip/hip_rocprim.hip NO_STANDINS
                       INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})
endif()
if(RS_ROCRAND_LIBRARY)
    rs_add_hip_program(hip_rocrand SOURCES hip/hip_rocrand.cpp NO_STANDINS LIBRARIES rocrand
                       INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})
endif()
if(RS_ROCSPARSE_LIBRARY)
    rs_add_hip_program(hip_rocsparse SOURCES hip/hip_rocsparse.cpp NO_STANDINS LIBRARIES rocsparse
                       INCLUDE_DIRECTORIES "${CMAKE_CURRENT_SOURCE_DIR}/hip" DEPENDS ${RS_HIP_COMMON_HEADERS})
endif()

# The demo on the simulator, as the README runs it (two agents), once its stand-ins can be built.
# Not under ThreadSanitizer: libamdhip64 is not instrumented (see tests/hip).
if(TARGET workload_demo AND TARGET replayscope-standins AND NOT RS_SANITIZER STREQUAL "thread")
    add_test(NAME workload.demo COMMAND "${RS_HIP_PROGRAM_DIR}/demo" --iterations 20)
    rs_hip_test_environment(workload.demo workload_demo)
    set_property(TEST workload.demo APPEND PROPERTY ENVIRONMENT HSA_SIM_GPU_AGENTS=2)
    set_tests_properties(workload.demo PROPERTIES LABELS "workload;hip" TIMEOUT 300)
endif()
