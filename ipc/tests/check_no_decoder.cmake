# SPDX-License-Identifier: MIT
# CTest engine.no_decoder: the injected engine carries the frame encoder and none of the decoder.
#   cmake -DNM=<nm> -DENGINE=<libreplayscope_engine.so> -P check_no_decoder.cmake
# Reads the .so's full symbol table (nm -C: the static libraries' symbols are local there, hidden from the
# dynamic table by --exclude-libs and the version script, but listed). Fails when a decoder symbol is in
# it, and also when the encoder's append_frame is not: then the table was unreadable (a stripped library)
# and the check would prove nothing.
foreach(var NM ENGINE)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_no_decoder.cmake: -D${var}=... missing")
    endif()
endforeach()
execute_process(COMMAND "${NM}" -C "${ENGINE}" RESULT_VARIABLE status OUTPUT_VARIABLE symbols
                ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${ENGINE} failed (${status}): ${errors}")
endif()
if(NOT symbols MATCHES "rs::ipc::append_frame\\(")
    message(FATAL_ERROR "${ENGINE}: no rs::ipc::append_frame in its symbol table (stripped?): cannot check")
endif()
# What frame_decoder.cpp defines: the public entry points, the per-type decoders and the dispatch table,
# and the FlatBuffers verifier, which only the decoder instantiates.
set(decoder_patterns
    "rs::ipc::decode_frame\\("
    "rs::ipc::describe\\(rs::ipc::FrameError"
    "rs::ipc::find_frame\\("
    "rs::ipc::frame_bounds_trusted\\("
    "decode_payload\\("
    "rs::ipc::\\(anonymous namespace\\)::decode_[a-z_]+\\("
    "kPayloadDecoders"
    "flatbuffers::Verifier")
list(JOIN decoder_patterns "|" any_decoder)
string(REGEX MATCHALL "[^\n]*(${any_decoder})[^\n]*" found "${symbols}")
if(found)
    list(JOIN found "\n  " text)
    message(FATAL_ERROR "${ENGINE} contains frame decoder symbols (link rs_ipc_encoder, not rs_ipc_decoder):\n  ${text}")
endif()
message(STATUS "${ENGINE}: frame encoder present, no decoder symbol")
