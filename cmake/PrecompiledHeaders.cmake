# SPDX-License-Identifier: MIT
# Precompiled Qt headers (RS_PRECOMPILED_HEADERS, on in the CI presets through ci-flags): each Qt
# translation unit spends much of its compile time parsing Qt's headers, the same ones in every unit. The
# inspector's two libraries each get a precompiled header of their own; every QtTest executable reuses
# (REUSE_FROM) a shared one built by a small holder library: Qt Core and Widgets for the inspector's
# suites, the HSA headers and Qt Core for the suites that see the HSA headers, Qt Core for the others
# (each also in a QT_NO_KEYWORDS variant). A unit compiled with other flags than its precompiled header
# would silently parse everything again; CMake adds -Winvalid-pch, an error under RS_WERROR, so such a
# mismatch fails the build instead. Only a target's own sources use it: sources a test compiles from
# another part (engine, sim) are compiled as they are in that part. The default preset builds without
# them, so that a missing #include still fails there.
option(RS_PRECOMPILED_HEADERS "Precompile Qt's headers for the inspector and the QtTest suites" OFF)

# Every buildsystem target defined in `dir` and the directories below it, into `out`.
function(rs_targets_below dir out)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
        rs_targets_below("${sub}" below)
        list(APPEND targets ${below})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
endfunction()

# TRUE in `out` when `target` links `wanted`, directly or through the libraries it links.
function(rs_links_to target wanted out)
    set(seen "")
    set(queue ${target})
    while(queue)
        list(POP_FRONT queue current)
        if(current STREQUAL wanted)
            set(${out} TRUE PARENT_SCOPE)
            return()
        endif()
        if(current IN_LIST seen OR NOT TARGET ${current})
            continue()
        endif()
        list(APPEND seen ${current})
        get_target_property(aliased ${current} ALIASED_TARGET)
        if(aliased)
            list(APPEND queue ${aliased})
            continue()
        endif()
        get_target_property(type ${current} TYPE)
        set(links "")
        if(NOT type STREQUAL "INTERFACE_LIBRARY")
            get_target_property(links ${current} LINK_LIBRARIES)
        endif()
        get_target_property(interface_links ${current} INTERFACE_LINK_LIBRARIES)
        foreach(link IN LISTS links interface_links)
            if(link AND NOT link MATCHES "^\\$<" AND NOT link MATCHES "-NOTFOUND$")
                list(APPEND queue ${link})
            endif()
        endforeach()
    endwhile()
    set(${out} FALSE PARENT_SCOPE)
endfunction()

# `target` reuses the precompiled header of `holder` for its sources in its own directory tree.
function(rs_reuse_precompiled_header target holder)
    target_precompile_headers(${target} REUSE_FROM ${holder})
    get_target_property(dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
        if(source MATCHES "\\.(c|cc|cpp)$")
            cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${dir}" NORMALIZE OUTPUT_VARIABLE path)
            cmake_path(IS_PREFIX dir "${path}" NORMALIZE own)
            if(NOT own)
                set_source_files_properties("${source}" TARGET_DIRECTORY ${target}
                                            PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
            endif()
        endif()
    endforeach()
endfunction()

# Called once at the end of the top-level CMakeLists.txt, when every target exists.
function(rs_use_precompiled_headers)
    if(NOT RS_PRECOMPILED_HEADERS)
        return()
    endif()
    set(qt_core <QtCore/QtCore>)
    if(TARGET replayscope_model)
        target_precompile_headers(replayscope_model PRIVATE ${qt_core} <QtGui/QtGui> <QtSql/QtSql>)
    endif()
    if(TARGET replayscope_ui)
        target_precompile_headers(replayscope_ui PRIVATE ${qt_core} <QtWidgets/QtWidgets> <QtCharts/QtCharts>)
    endif()
    rs_targets_below("${PROJECT_SOURCE_DIR}" targets)
    foreach(target IN LISTS targets)
        get_target_property(type ${target} TYPE)
        get_target_property(libraries ${target} LINK_LIBRARIES)
        if(NOT type STREQUAL "EXECUTABLE" OR NOT "Qt6::Test" IN_LIST libraries)
            continue()
        endif()
        # Not Qt Test itself: it defines QT_TESTCASE_BUILDDIR per directory, and GCC refuses a precompiled
        # header built with another value.
        if("replayscope_ui" IN_LIST libraries)
            set(holder rs_pch_qt_widgets_test)
            set(components Core Gui Widgets Sql Charts)
            set(headers ${qt_core} <QtWidgets/QtWidgets>)
            set(hsa_headers "")
        else()
            # The flags must match the holder's: the suites that see the HSA headers (which also define
            # AMD_INTERNAL_BUILD) reuse one holder, the others another.
            rs_links_to(${target} rs_hsa_headers hsa)
            if(hsa)
                # The HSA headers first: Qt's `signals` keyword macro would otherwise rename their parameters.
                set(holder rs_pch_qt_hsa_test)
                set(headers <hsa.h> <hsa_ext_amd.h> ${qt_core})
                set(hsa_headers rs_hsa_headers)
            else()
                set(holder rs_pch_qt_test)
                set(headers ${qt_core})
                set(hsa_headers "")
            endif()
            set(components Core)
        endif()
        # QT_NO_KEYWORDS changes what Qt's headers declare: those suites reuse holders built with it.
        get_target_property(definitions ${target} COMPILE_DEFINITIONS)
        set(holder_definitions "")
        if("QT_NO_KEYWORDS" IN_LIST definitions)
            string(APPEND holder "_no_keywords")
            set(holder_definitions QT_NO_KEYWORDS)
        endif()
        if(NOT TARGET ${holder})
            # A library of one empty unit that only builds the precompiled header the suites reuse.
            set(unit "${PROJECT_BINARY_DIR}/${holder}.cpp")
            file(CONFIGURE OUTPUT "${unit}" CONTENT "// The unit ${holder} builds its precompiled header for.\n")
            add_library(${holder} STATIC "${unit}")
            find_package(Qt6 REQUIRED COMPONENTS ${components}) # imported targets are per directory
            list(TRANSFORM components PREPEND "Qt6::" OUTPUT_VARIABLE qt_targets)
            target_link_libraries(${holder} PRIVATE ${qt_targets} ${hsa_headers} rs::warnings)
            target_compile_definitions(${holder} PRIVATE ${holder_definitions})
            target_precompile_headers(${holder} PRIVATE ${headers})
        endif()
        rs_reuse_precompiled_header(${target} ${holder})
    endforeach()
endfunction()
