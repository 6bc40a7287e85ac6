# SPDX-License-Identifier: MIT
# The Debian package (CPack DEB) and the files only the installed layout needs: man pages generated from
# the programs' own --help (help2man + packaging/man/*.h2m), PNG icons rendered from
# resources/replayscope.svg (rsvg-convert), the desktop entry and the session MIME type.
#
#   cmake --build build/ci --target package   ->  build/ci/replayscope_<version>_amd64.deb
#
# Layout (prefix /usr in the package; docs/ARCHITECTURE.md, "Install layout"):
#   bin/replayscope, bin/replayscope-run, bin/replayscope-standins
#   share/replayscope/standins/                   (sim/standins/CMakeLists.txt: the stand-in builder's headers)
#   lib/replayscope/libreplayscope_engine.so      (engine/CMakeLists.txt)
#   lib/replayscope/libreplayscope_chunk_hash_standins.so  (engine/device/chunk_hash.cmake: the chunk-hash
#                                                 kernel's stand-in, for --simulate)
#   lib/replayscope/sim/libhsa-runtime64.so.1     (sim/CMakeLists.txt)
#   share/man/man1, share/applications, share/icons/hicolor, share/mime/packages
#   share/doc/replayscope/copyright               (packaging/debian/copyright), README.md
#   share/doc/replayscope/docs/                   every document README.md links to, with their images
# replayscope-run finds the engine and the simulator relative to its own binary (runner/install_layout.h),
# so the programs carry no RUNPATH and no build path.

find_program(RS_HELP2MAN help2man)
find_program(RS_RSVG_CONVERT rsvg-convert)
find_program(RS_GZIP gzip)
set(RS_PACKAGING_BINARY_DIR "${CMAKE_BINARY_DIR}/packaging")
set(_rs_package_files)

# Man pages: help2man runs the built program by name (PATH = its directory), so neither the page nor the
# "Usage:" line it copies from --help names a build directory.
if(RS_HELP2MAN AND RS_GZIP)
    set(_rs_man_programs replayscope-run)
    if(TARGET replayscope-standins)
        list(APPEND _rs_man_programs replayscope-standins)
    endif()
    if(TARGET replayscope)
        list(APPEND _rs_man_programs replayscope)
    endif()
    foreach(program IN LISTS _rs_man_programs)
        set(include_file "${PROJECT_SOURCE_DIR}/packaging/man/${program}.h2m")
        set(page "${RS_PACKAGING_BINARY_DIR}/man/${program}.1")
        add_custom_command(
            OUTPUT "${page}.gz"
            COMMAND ${CMAKE_COMMAND} -E make_directory "${RS_PACKAGING_BINARY_DIR}/man"
            COMMAND ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:${program}>:/usr/bin:/bin"
                    ${RS_HELP2MAN} --no-info --section=1 --include=${include_file} --output=${page} ${program}
            COMMAND ${RS_GZIP} -9nf "${page}"
            DEPENDS ${program} "${include_file}"
            COMMENT "help2man: ${program}.1"
            VERBATIM)
        list(APPEND _rs_package_files "${page}.gz")
        install(FILES "${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
    endforeach()
else()
    message(WARNING "ReplayScope: help2man or gzip not found; the package will have no man pages "
                    "(packaging/install-deps.sh installs help2man)")
endif()

# Desktop integration of the inspector: entry, icons (SVG + rendered PNGs), *.rsdb MIME type.
if(TARGET replayscope)
    set(icon_svg "${PROJECT_SOURCE_DIR}/resources/replayscope.svg")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/replayscope.desktop"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/replayscope-mime.xml"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages" RENAME replayscope.xml)
    install(FILES "${icon_svg}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
    if(RS_RSVG_CONVERT)
        foreach(size 16 24 32 48 64 128 256)
            set(png "${RS_PACKAGING_BINARY_DIR}/icons/${size}/replayscope.png")
            add_custom_command(
                OUTPUT "${png}"
                COMMAND ${CMAKE_COMMAND} -E make_directory "${RS_PACKAGING_BINARY_DIR}/icons/${size}"
                COMMAND ${RS_RSVG_CONVERT} --width=${size} --height=${size} --output=${png} "${icon_svg}"
                DEPENDS "${icon_svg}"
                COMMENT "rsvg-convert: replayscope.png ${size}x${size}"
                VERBATIM)
            list(APPEND _rs_package_files "${png}")
            install(FILES "${png}" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps")
        endforeach()
    else()
        message(WARNING "ReplayScope: rsvg-convert not found; the package will have the SVG icon only "
                        "(packaging/install-deps.sh installs librsvg2-bin)")
    endif()
endif()

# The Debian copyright file (DEP-5): the project's MIT licence and the licences of the third-party code
# compiled into the binaries (packaging/debian/copyright says which).
install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/replayscope" COMPONENT doc
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

# The documentation beside it (the inspector's Help > Documentation opens this directory): README.md and
# docs/ as in the repository (every document README.md links to, with their images), so that the links
# hold where they are installed.
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/replayscope"
        COMPONENT doc PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/replayscope/docs"
        COMPONENT doc FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
                              WORLD_EXECUTE)

add_custom_target(rs_package_files ALL DEPENDS ${_rs_package_files})

# CPack: one Debian package. Dependencies come from dpkg-shlibdeps over the installed ELF files; the
# SQLite driver of Qt SQL is a plugin loaded at run time, so it is named explicitly.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME replayscope)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "ReplayScope")
set(CPACK_PACKAGE_CONTACT "ReplayScope maintainers <maintainers@replayscope.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # no debug information, hence no source or build paths, in installed files
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "kernel-replay memory snapshot/restore for ROCm, made visible")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "GPU performance tools replay a kernel dispatch several times, and every pass must see the same
inputs. ReplayScope injects an engine through ROCr's tool interface (HSA_TOOLS_LIB) that tracks
device-memory allocations, snapshots and restores device memory around each replayed dispatch, and
records every decision in a session file.
.
This package contains replayscope-run (runs a program under the engine and writes its session file),
the engine library, replayscope (the Qt inspector: tables, audit and charts of a session, headless
summary and PNG export), and a simulated HSA runtime (libhsa-runtime64.so.1 under
/usr/lib/replayscope/sim, used by replayscope-run --simulate) for machines without an AMD GPU, which
loads the code objects of programs built by hipcc and runs their kernels through host stand-ins made by
replayscope-standins from the same source. On a ROCm machine the program's own ROCr runtime is used.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # replayscope_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET replayscope)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libhsa-runtime64-1")
# replayscope-standins compiles HIP sources as host C++: clang++ and HIP's host headers.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-15, libamdhip64-dev, hipcc")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
