# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a CTest test (fuzz/CMakeLists.txt).
#   cmake -DFUZZER=<exe> -DCORPUS=<dir> -DREGRESSIONS=<dir> -DSECONDS=<n> -P run_fuzzer.cmake
# SECONDS 0: runs every corpus seed and every regression input once. Otherwise fuzzes for SECONDS seconds
# from a copy of the corpus. Works in a fresh directory under $TMPDIR (or /dev/shm, or /tmp), removed when the run is
# clean and kept (with the crashing input) after a finding. Fails on any finding or fuzzer error.
foreach(var FUZZER CORPUS REGRESSIONS SECONDS)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... missing")
    endif()
endforeach()
get_filename_component(name "${FUZZER}" NAME)
# The session stream target writes a SQLite file per input: tmpfs (/dev/shm) when TMPDIR is not set.
set(tmp "$ENV{TMPDIR}")
if(tmp STREQUAL "" AND IS_DIRECTORY /dev/shm)
    set(tmp /dev/shm)
elseif(tmp STREQUAL "")
    set(tmp /tmp)
endif()
string(RANDOM LENGTH 10 suffix)
set(work "${tmp}/${name}-${suffix}")
file(MAKE_DIRECTORY "${work}/corpus" "${work}/artifacts" "${work}/tmp")
# The fuzzer's own temporary files (the session stream target's directory) go with the work directory.
set(ENV{TMPDIR} "${work}/tmp")
file(GLOB seeds LIST_DIRECTORIES false "${CORPUS}/*")
list(LENGTH seeds seed_count)
if(seed_count EQUAL 0)
    message(FATAL_ERROR "${name}: no seeds in ${CORPUS}")
endif()
file(COPY ${seeds} DESTINATION "${work}/corpus")
# Options of every run: a 60 s hang or 2 GB of memory is a finding too; no leak checking of the process
# (SQLite's and the static builder's allocations live until exit). 60 s, not libFuzzer's usual 10 s: the
# session stream target creates, fills, finishes and checks a SQLite file per input, which on a loaded
# 2-core machine (CI runs the fuzz tests two at a time beside other jobs) can stall for seconds on I/O and
# scheduling alone; a 10 s limit reported such stalls as hangs. A real hang (an endless loop) still fails
# within the test's run.
set(options -timeout=60 -rss_limit_mb=2048 -malloc_limit_mb=2048 -detect_leaks=0 -print_final_stats=1
            "-artifact_prefix=${work}/artifacts/")
if(SECONDS EQUAL 0)
    file(GLOB regressions LIST_DIRECTORIES false "${REGRESSIONS}/*")
    list(LENGTH regressions regression_count)
    message(STATUS "${name}: replaying ${seed_count} seeds and ${regression_count} regression inputs")
    execute_process(COMMAND "${FUZZER}" ${options} -runs=0 "${work}/corpus" RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND regression_count GREATER 0)
        execute_process(COMMAND "${FUZZER}" ${options} ${regressions} RESULT_VARIABLE rc)
    endif()
else()
    message(STATUS "${name}: fuzzing for ${SECONDS} s from ${seed_count} seeds in ${work}")
    execute_process(COMMAND "${FUZZER}" ${options} -max_total_time=${SECONDS} "${work}/corpus"
                    RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
    file(GLOB artifacts "${work}/artifacts/*")
    message(FATAL_ERROR "${name}: finding (exit ${rc}); input(s) kept: ${artifacts}")
endif()
file(REMOVE_RECURSE "${work}")
