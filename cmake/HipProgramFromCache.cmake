# SPDX-License-Identifier: MIT
# cmake -DCACHED=FILE -DOUTPUT=FILE -DINPUTS=a|b|... -P HipProgramFromCache.cmake -- HIPCC ARGS...
# Used by rs_add_hip_program when RS_HIP_PROGRAMS_FROM names another build's program directory: copies
# CACHED to OUTPUT when CACHED exists and is newer than every input (the program's sources and the
# headers it names), else runs the hipcc command after "--", without the caller's hipcc overrides. The
# programs do not depend on the build's flags (hipcc builds them the same way in every configuration), so
# a copy is the program this build would compile.
string(REPLACE "|" ";" inputs "${INPUTS}")
set(fresh FALSE)
if(EXISTS "${CACHED}")
    set(fresh TRUE)
    foreach(input IN LISTS inputs)
        if(NOT "${CACHED}" IS_NEWER_THAN "${input}" OR "${input}" IS_NEWER_THAN "${CACHED}")
            set(fresh FALSE) # same time stamp or older: compile
        endif()
    endforeach()
endif()
if(fresh)
    file(COPY_FILE "${CACHED}" "${OUTPUT}" ONLY_IF_DIFFERENT)
    file(TOUCH_NOCREATE "${OUTPUT}")
    return()
endif()
set(command "")
set(after FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
    if(after)
        list(APPEND command "${CMAKE_ARGV${i}}")
    elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
        set(after TRUE)
    endif()
endforeach()
foreach(name HIPCC_COMPILE_FLAGS_APPEND HIPCC_LINK_FLAGS_APPEND HCC_AMDGPU_TARGET HIP_PLATFORM HIP_COMPILER)
    unset(ENV{${name}})
endforeach()
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "hipcc failed (${status}): ${command}")
endif()
