# SPDX-License-Identifier: MIT
# The session format's contract (docs/session-schema.md): the readers and the writer's library outside
# session/ name no physical storage and compare no stored enum column against a literal value. Run as
#   cmake -DSOURCE_DIR=<repository> -P session/tests/check_contract.cmake
# (CTest: session.contract). Fails, listing every offending line, when app/, runner/ or ipc/src/ (code and
# string literals; comments are left out) holds
#  - a storage-only name: the compact dispatch rows and their overflow tables (dispatch_rows,
#    extra_passes, snapshot_store_rows, restore_rows) or the `handles` table in SQL (FROM/JOIN/INTO
#    handles): they are named only in session/ (read_queries, write_statements, schema);
#  - a stored enum column compared with (or set to) a literal number, in C++ (decision == 0,
#    d.store != 1, v.status == 0, ...) or SQL (decision = 0, decision <> 0): compare with the
#    vocabulary's enumerators (rs::ipc::DispatchDecision::replayed, ...). Negative literals are the
#    readers' "not recorded" (-1) and are allowed, as are ordering tests against them (>= 0, < 0).
if(NOT SOURCE_DIR)
    get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
endif()

set(roots app runner ipc/src)
# Stored enum columns, as the session file and the readers' structs name them.
set(enum_columns "decision|outcome|classification|device_type|deviceType|pointer_type|pointerType|hash_path|hashPath|fidelity|store|api")
# Generic names that are stored enum columns only as members of a row (v.status, k.reason, w.code, ...).
set(member_columns "status|kind|reason|code")
set(literal "[0-9]+([^0-9A-Za-z_.]|$)")
set(compare "(==|!=|<>|=)")
set(patterns
    "(^|[^A-Za-z0-9_])(dispatch_rows|extra_passes|snapshot_store_rows|restore_rows)([^A-Za-z0-9_]|$)"
    "(FROM|JOIN|INTO|from|join|into)[ \t]+handles([^A-Za-z0-9_]|$)"
    "(^|[^A-Za-z0-9_])(${enum_columns})[ \t]*${compare}[ \t]*${literal}"
    "[A-Za-z0-9_)\\]](\\.|->)(${member_columns})[ \t]*${compare}[ \t]*${literal}")

set(files)
foreach(root IN LISTS roots)
    file(GLOB_RECURSE found LIST_DIRECTORIES false "${SOURCE_DIR}/${root}/*.cpp" "${SOURCE_DIR}/${root}/*.h"
         "${SOURCE_DIR}/${root}/*.hpp")
    list(APPEND files ${found})
endforeach()
list(SORT files)

set(violations 0)
foreach(file IN LISTS files)
    file(READ "${file}" text)
    # Comments out (a line comment to its end, block comments whole); the line structure stays for the
    # line numbers.
    string(REGEX REPLACE "//[^\n]*" "" text "${text}")
    string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
    # CMake lists split at ';': keep them in the lines.
    string(REPLACE ";" "<semicolon>" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    file(RELATIVE_PATH relative "${SOURCE_DIR}" "${file}")
    set(number 0)
    foreach(line IN LISTS lines)
        math(EXPR number "${number} + 1")
        foreach(pattern IN LISTS patterns)
            if(line MATCHES "${pattern}")
                string(REPLACE "<semicolon>" ";" shown "${line}")
                string(STRIP "${shown}" shown)
                message("${relative}:${number}: ${shown}")
                math(EXPR violations "${violations} + 1")
                break()
            endif()
        endforeach()
    endforeach()
endforeach()

list(LENGTH files checked)
if(violations GREATER 0)
    message(FATAL_ERROR "session contract: ${violations} line(s) outside session/ name the physical storage "
                        "or compare a stored enum with a literal (see docs/session-schema.md)")
endif()
message(STATUS "session contract: ${checked} files of app/, runner/ and ipc/src/ name no physical storage "
               "and compare no stored enum with a literal")
