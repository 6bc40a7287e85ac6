# SPDX-License-Identifier: MIT
# HIP programs: real HIP applications compiled by Debian's hipcc for gfx90a, linked with Debian's
# libamdhip64.so.5, and run on the simulated runtime through host stand-ins of their kernels
# (sim/include/hsa_sim/standin.h) made from the same sources by replayscope-standins.
#
# hipcc is a wrapper around clang-15 with its own flags: it is run as a custom command, so none of the
# project's compile options (warnings, -Werror, sanitizers) reach it. `--offload-arch=gfx90a` is always
# passed: without it hipcc asks rocm_agent_enumerator for the GPUs present, which fails with no GPU.

find_program(RS_HIPCC hipcc DOC "Debian's hipcc (package hipcc), for the HIP programs in workloads/hip")
if(RS_HIPCC)
    message(STATUS "ReplayScope: HIP programs built with ${RS_HIPCC} --offload-arch=gfx90a")
else()
    message(STATUS "ReplayScope: no hipcc (apt-get install hipcc libamdhip64-dev): HIP programs, the demo "
                   "and tests/hip are not built")
endif()

# Where every HIP program and its stand-in library go: <build>/workloads/hip.
set(RS_HIP_PROGRAM_DIR "${CMAKE_BINARY_DIR}/workloads/hip")
# Another build's program directory whose programs this build copies instead of compiling them again,
# when they are newer than their inputs (HipProgramFromCache.cmake). Empty: compile every program.
set(RS_HIP_PROGRAMS_FROM "" CACHE PATH "Program directory of another build to copy up-to-date HIP programs from")

#[[ rs_add_hip_program(NAME SOURCES file.hip... [TARGET target] [INCLUDE_DIRECTORIES dir...]
                       [DEPENDS file...] [HIPCC_FLAGS flag...] [LIBRARIES lib...] [NO_STANDINS]
                       [STANDINS_UNDER_SANITIZERS])
    Compiles the HIP program NAME with `hipcc --offload-arch=gfx90a -O2` into ${RS_HIP_PROGRAM_DIR}/NAME
    and, when replayscope-standins is part of the build, its stand-in library libNAME-standins.so beside
    it. TARGET (default hip_NAME, or NAME when it starts with hip_) builds both (part of `all`); its properties RS_HIP_PROGRAM and
    RS_HIP_STANDINS hold the two paths (RS_HIP_STANDINS empty without replayscope-standins). DEPENDS:
    headers the sources include (there is no dependency scanning). LIBRARIES: names linked with -l (e.g.
    rocrand). NO_STANDINS: no stand-in library (programs whose kernels only the interpreter can run, such as
    library users). In a sanitizer build (RS_SANITIZER) the stand-in library is made only with
    STANDINS_UNDER_SANITIZERS: there the HIP tests run with the interpreter, and a stand-in library costs
    a compile of the program's sources that nothing would use. Does nothing without hipcc. ]]
function(rs_add_hip_program name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "NO_STANDINS;STANDINS_UNDER_SANITIZERS" "TARGET" "SOURCES;INCLUDE_DIRECTORIES;DEPENDS;HIPCC_FLAGS;LIBRARIES")
    if(NOT RS_HIPCC)
        return()
    endif()
    if(NOT arg_SOURCES)
        message(FATAL_ERROR "rs_add_hip_program(${name}): no SOURCES")
    endif()
    set(target "${arg_TARGET}")
    if(NOT target AND name MATCHES "^hip_")
        set(target ${name})
    elseif(NOT target)
        set(target hip_${name})
    endif()
    set(sources "")
    foreach(s IN LISTS arg_SOURCES)
        cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE abs)
        list(APPEND sources "${abs}")
    endforeach()
    set(includes "")
    foreach(d IN LISTS arg_INCLUDE_DIRECTORIES)
        list(APPEND includes "-I${d}")
    endforeach()
    set(program "${RS_HIP_PROGRAM_DIR}/${name}")
    set(libraries "")
    foreach(l IN LISTS arg_LIBRARIES)
        list(APPEND libraries "-l${l}")
    endforeach()
    # The caller's hipcc overrides (HIPCC_*_FLAGS_APPEND, HCC_AMDGPU_TARGET) never change what is built.
    set(hipcc_command "${RS_HIPCC}" --offload-arch=gfx90a -O2 -std=c++17 ${includes} ${arg_HIPCC_FLAGS}
                      -o "${program}" ${sources} ${libraries})
    if(RS_HIP_PROGRAMS_FROM)
        # Another build's copy of the program, when it is newer than every input (the asan preset takes
        # the ci build's: the same hipcc command builds the same program in every configuration).
        string(REPLACE ";" "|" inputs "${sources};${arg_DEPENDS}")
        add_custom_command(
            OUTPUT "${program}"
            COMMAND "${CMAKE_COMMAND}" -E make_directory "${RS_HIP_PROGRAM_DIR}"
            COMMAND "${CMAKE_COMMAND}" "-DCACHED=${RS_HIP_PROGRAMS_FROM}/${name}" "-DOUTPUT=${program}"
                    "-DINPUTS=${inputs}" -P "${PROJECT_SOURCE_DIR}/cmake/HipProgramFromCache.cmake" --
                    ${hipcc_command}
            DEPENDS ${sources} ${arg_DEPENDS} "${PROJECT_SOURCE_DIR}/cmake/HipProgramFromCache.cmake"
            COMMENT "hipcc --offload-arch=gfx90a (or ${RS_HIP_PROGRAMS_FROM}): ${name}"
            VERBATIM COMMAND_EXPAND_LISTS)
    else()
        add_custom_command(
            OUTPUT "${program}"
            COMMAND "${CMAKE_COMMAND}" -E make_directory "${RS_HIP_PROGRAM_DIR}"
            COMMAND "${CMAKE_COMMAND}" -E env --unset=HIPCC_COMPILE_FLAGS_APPEND --unset=HIPCC_LINK_FLAGS_APPEND
                    --unset=HCC_AMDGPU_TARGET --unset=HIP_PLATFORM --unset=HIP_COMPILER ${hipcc_command}
            DEPENDS ${sources} ${arg_DEPENDS}
            COMMENT "hipcc --offload-arch=gfx90a: ${name}"
            VERBATIM COMMAND_EXPAND_LISTS)
    endif()
    set(outputs "${program}")
    set(standins "")
    if(TARGET replayscope-standins AND NOT arg_NO_STANDINS AND (RS_SANITIZER STREQUAL "" OR arg_STANDINS_UNDER_SANITIZERS))
        set(standins "${RS_HIP_PROGRAM_DIR}/lib${name}-standins.so")
        set(flag_args "")
        if(includes)
            set(flag_args -- ${includes})
        endif()
        add_custom_command(
            OUTPUT "${standins}"
            COMMAND "${CMAKE_COMMAND}" -E make_directory "${RS_HIP_PROGRAM_DIR}"
            COMMAND replayscope-standins -o "${standins}" ${sources} ${flag_args}
            DEPENDS replayscope-standins ${sources} ${arg_DEPENDS}
            COMMENT "replayscope-standins: lib${name}-standins.so"
            VERBATIM COMMAND_EXPAND_LISTS)
        list(APPEND outputs "${standins}")
    endif()
    add_custom_target(${target} ALL DEPENDS ${outputs})
    set_target_properties(${target} PROPERTIES RS_HIP_PROGRAM "${program}" RS_HIP_STANDINS "${standins}")
endfunction()

#[[ rs_hip_test_environment(TEST TARGET)
    Runs TEST (a HIP program, or a test that starts one) on the simulated runtime: the simulator first on
    the library path (Debian's libamdhip64 then loads it instead of the real ROCr) and HSA_SIM_STANDINS
    naming the stand-in library of the HIP program target TARGET. In sanitizer builds the sanitizer's
    runtime is preloaded: hipcc's programs are not instrumented, the simulator and the engine are. ]]
function(rs_hip_test_environment test target)
    rs_sim_test_environment(${test})
    get_target_property(standins ${target} RS_HIP_STANDINS)
    if(standins)
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "HSA_SIM_STANDINS=${standins}")
    endif()
    rs_sanitizer_runtime(path)
    if(path)
        set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "LD_PRELOAD=${path}")
    endif()
endfunction()
