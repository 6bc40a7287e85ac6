# SPDX-License-Identifier: MIT
# hip.<program>.executors_agree: runs a HIP program twice on the simulated runtime, with the gfx90a
# interpreter (HSA_SIM_EXECUTOR=isa) and with its stand-ins (standin), each with HSA_SIM_DISPATCH_DIGEST
# (sim/src/dispatch_digest.h), and compares the two digest files line for line: per process and GPU agent,
# the same dispatches (kernel, grid, work-group) in the same order, and the same device memory after each.
#
#   cmake -DPROGRAM=<path> [-DARGS=a;b] -DWORK_DIR=<dir> [-DEXCEPT=<kernel>=<reason>;...] -P executors_agree.cmake
#
# The environment (LD_LIBRARY_PATH, HSA_SIM_STANDINS) is the test's. EXCEPT names kernels whose results
# legitimately differ between the executors: where such a dispatch's memory differs, the line passes with
# a note, and the allocations that differed are left out of the comparison of later lines until the two
# runs agree on them again; every other allocation must still agree. The first other difference fails,
# naming the dispatch and the allocation (its index in allocation order and its size).
cmake_minimum_required(VERSION 3.25)
foreach(var PROGRAM WORK_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "executors_agree: -D${var}= is required")
    endif()
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")

foreach(executor isa standin)
    set(digest "${WORK_DIR}/digest.${executor}")
    file(REMOVE "${digest}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env HSA_SIM_EXECUTOR=${executor} "HSA_SIM_DISPATCH_DIGEST=${digest}"
                            "${PROGRAM}" ${ARGS}
                    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT status EQUAL 0 OR NOT output MATCHES "\nPASS")
        message(FATAL_ERROR "executors_agree: ${PROGRAM} with HSA_SIM_EXECUTOR=${executor} failed "
                            "(status ${status}):\n${output}")
    endif()
    if(NOT EXISTS "${digest}")
        message(FATAL_ERROR "executors_agree: ${PROGRAM} with HSA_SIM_EXECUTOR=${executor} wrote no digest")
    endif()
    # Lines grouped by process and agent, in file order within each group.
    set(groups_${executor} "")
    file(STRINGS "${digest}" lines)
    foreach(line IN LISTS lines)
        if(NOT line MATCHES "^digest process=([0-9a-f]+) agent=([0-9]+) seq=([0-9]+) (kernel=.* allocations=[0-9]+ bytes=[0-9]+) memory=([0-9a-f]+) each=(.*)$")
            message(FATAL_ERROR "executors_agree: malformed line in ${digest}: ${line}")
        endif()
        set(group "${CMAKE_MATCH_1}_${CMAKE_MATCH_2}")
        if(NOT group IN_LIST groups_${executor})
            list(APPEND groups_${executor} "${group}")
        endif()
        # seq|dispatch|memory|each, the each list with '/' between allocations.
        string(REPLACE "," "/" each "${CMAKE_MATCH_6}")
        list(APPEND ${executor}_${group} "${CMAKE_MATCH_3}|${CMAKE_MATCH_4}|${CMAKE_MATCH_5}|${each}")
    endforeach()
endforeach()

# EXCEPT: kernel names and reasons.
set(excepted "")
foreach(item IN LISTS EXCEPT)
    string(FIND "${item}" "=" eq)
    string(SUBSTRING "${item}" 0 ${eq} kernel)
    math(EXPR eq "${eq} + 1")
    string(SUBSTRING "${item}" ${eq} -1 reason)
    list(APPEND excepted "${kernel}")
    set(reason_${kernel} "${reason}")
endforeach()

list(SORT groups_isa)
list(SORT groups_standin)
if(NOT groups_isa STREQUAL groups_standin)
    message(FATAL_ERROR "executors_agree: processes/agents differ: isa ${groups_isa}, standin ${groups_standin}")
endif()
set(compared 0)
set(notes 0)
foreach(group IN LISTS groups_isa)
    list(LENGTH isa_${group} n_isa)
    list(LENGTH standin_${group} n_standin)
    set(tainted "") # allocation indices an excepted dispatch left different
    math(EXPR last "${n_isa} - 1")
    foreach(i RANGE ${last})
        list(GET isa_${group} ${i} a)
        if(i GREATER_EQUAL n_standin)
            message(FATAL_ERROR "executors_agree: process/agent ${group}: the interpreter ran ${n_isa} dispatches, "
                                "the stand-ins ${n_standin}; first extra: ${a}")
        endif()
        list(GET standin_${group} ${i} b)
        string(REPLACE "|" ";" a "${a}")
        string(REPLACE "|" ";" b "${b}")
        list(GET a 0 seq)
        list(GET a 1 dispatch_a)
        list(GET b 1 dispatch_b)
        if(NOT dispatch_a STREQUAL dispatch_b)
            message(FATAL_ERROR "executors_agree: process/agent ${group} dispatch ${seq} differs:\n"
                                "  isa:     ${dispatch_a}\n  standin: ${dispatch_b}")
        endif()
        math(EXPR compared "${compared} + 1")
        list(GET a 2 memory_a)
        list(GET b 2 memory_b)
        if(memory_a STREQUAL memory_b)
            set(tainted "")
            continue()
        endif()
        string(REGEX MATCH "^kernel=[^ ]+" kernel "${dispatch_a}")
        string(SUBSTRING "${kernel}" 7 -1 kernel)
        list(GET a 3 each_a)
        list(GET b 3 each_b)
        string(REPLACE "/" ";" each_a "${each_a}")
        string(REPLACE "/" ";" each_b "${each_b}")
        set(still_tainted "")
        set(index 0)
        foreach(item_a IN ZIP_LISTS each_a each_b)
            if(NOT item_a_0 STREQUAL item_a_1)
                if(kernel IN_LIST excepted OR index IN_LIST tainted)
                    list(APPEND still_tainted ${index})
                else()
                    message(FATAL_ERROR
                        "executors_agree: process/agent ${group} dispatch ${seq} (${dispatch_a}): device memory "
                        "differs in allocation ${index} (allocation order; bytes:digest isa ${item_a_0}, "
                        "standin ${item_a_1})")
                endif()
            endif()
            math(EXPR index "${index} + 1")
        endforeach()
        if(kernel IN_LIST excepted)
            message(STATUS "executors_agree: process/agent ${group} dispatch ${seq} ${kernel}: allocations "
                           "${still_tainted} differ, excepted: ${reason_${kernel}}")
            math(EXPR notes "${notes} + 1")
        endif()
        set(tainted "${still_tainted}")
    endforeach()
    if(n_standin GREATER n_isa)
        message(FATAL_ERROR "executors_agree: process/agent ${group}: the stand-ins ran ${n_standin} dispatches, "
                            "the interpreter ${n_isa}")
    endif()
endforeach()
message(STATUS "executors_agree: ${compared} dispatches agree (${notes} excepted differences)")
message("PASS")
