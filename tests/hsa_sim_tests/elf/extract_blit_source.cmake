# SPDX-License-Identifier: MIT
# Writes the OpenCL source of ROCclr's buffer blit kernels as the installed libamdhip64 carries it (the
# strings ROCclr compiles at device creation) to OUTPUT, so that the test compiles exactly those kernels.
# Usage: cmake -DLIBRARY=/usr/lib/.../libamdhip64.so.5 -DOUTPUT=blit.cl -P extract_blit_source.cmake
file(STRINGS "${LIBRARY}" sources REGEX "__kernel void __amd_rocclr_(fillBuffer|copyBuffer|streamOps|gwsInit)")
if(NOT sources)
    message(FATAL_ERROR "no ROCclr blit kernel source in ${LIBRARY}")
endif()
set(text "")
foreach(s IN LISTS sources)
    # Only the buffer kernels: the image ones need image support the simulator does not have.
    if(s MATCHES "image2d")
        continue()
    endif()
    string(APPEND text "${s}\n")
endforeach()
file(WRITE "${OUTPUT}" "${text}")
