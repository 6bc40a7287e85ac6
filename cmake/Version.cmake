# SPDX-License-Identifier: MIT
# ReplayScope's version as a header: project(VERSION) in the top CMakeLists.txt is the one source.
# Targets that need it link rs::version and include <replayscope/version.h>.
configure_file("${CMAKE_CURRENT_LIST_DIR}/version.h.in" "${CMAKE_BINARY_DIR}/generated/replayscope/version.h" @ONLY)
add_library(rs_version INTERFACE)
target_include_directories(rs_version INTERFACE "${CMAKE_BINARY_DIR}/generated")
add_library(rs::version ALIAS rs_version)

# The --help layout of the CLI11 programs (cmake/cli/replayscope/cli_help_formatter.h): link rs::cli_help.
add_library(rs_cli_help INTERFACE)
target_include_directories(rs_cli_help INTERFACE "${CMAKE_CURRENT_LIST_DIR}/cli")
add_library(rs::cli_help ALIAS rs_cli_help)
