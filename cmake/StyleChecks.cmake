# SPDX-License-Identifier: MIT
# The house-style checks (docs/CONTRIBUTING.md) as CTest tests of the full configuration (the ci preset):
#   style.format  clang-format-19 --dry-run --Werror over every tracked C/C++ file
#   style.naming  clang-tidy-19 readability-identifier-naming over the translation units of this build's
#                 compile_commands.json (.clang-tidy; app/ and the QtTest suites keep Qt's style)
# Both run .ci/check-style, which also runs them by hand (.ci/check-style --changed for a quick local run).
# They need a git work tree and the two tools (packaging/install-deps.sh installs them). The sanitizer
# and fuzz configurations do not register them: the checks do not depend on the configuration.
option(RS_STYLE_CHECKS "Register the style.format and style.naming tests" ON)
if(NOT RS_STYLE_CHECKS OR RS_SANITIZER OR RS_PIPELINE_ONLY OR NOT RS_BUILD_GUI)
    return()
endif()
if(NOT EXISTS "${PROJECT_SOURCE_DIR}/.git")
    message(STATUS "Style checks: not a git work tree, style.format and style.naming not registered")
    return()
endif()
find_program(RS_CLANG_FORMAT clang-format-19)
find_program(RS_CLANG_TIDY clang-tidy-19)
if(NOT RS_CLANG_FORMAT OR NOT RS_CLANG_TIDY)
    message(WARNING "Style checks: clang-format-19 or clang-tidy-19 missing (packaging/install-deps.sh), "
                    "style.format and style.naming not registered")
    return()
endif()
add_test(NAME style.format COMMAND "${PROJECT_SOURCE_DIR}/.ci/check-style" --format
         WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
# By default only the files changed since RS_STYLE_BASE (default HEAD~10) and the translation units that
# include a changed header: every translation unit takes about 15 minutes on 2 cores, too long for each CI
# run. RS_STYLE_CHANGED_ONLY=OFF checks them all (.ci/check-style --naming by hand does the same).
option(RS_STYLE_CHANGED_ONLY "style.naming checks only the files changed since RS_STYLE_BASE" ON)
set(_rs_naming_args --naming -p "${CMAKE_BINARY_DIR}" -j 2)
if(RS_STYLE_CHANGED_ONLY)
    list(APPEND _rs_naming_args --changed)
endif()
add_test(NAME style.naming COMMAND "${PROJECT_SOURCE_DIR}/.ci/check-style" ${_rs_naming_args}
         WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
set_tests_properties(style.format PROPERTIES LABELS "style" TIMEOUT 300)
set_tests_properties(style.naming PROPERTIES LABELS "style" TIMEOUT 1500 RUN_SERIAL TRUE)
