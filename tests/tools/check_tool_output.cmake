# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Runs a tool and checks its output: cmake -P check_tool_output.cmake with
#   -DCOMMAND=prog@@arg1@@arg2      the command, arguments separated by @@
#   -DEXPECT=regex1@@regex2         every regex must match stdout+stderr; <LB> and
#                                   <RB> stand for a literal [ and ] (brackets
#                                   would upset CMake's list splitting)
#   -DEXPECT_FAIL=ON                the command must exit non-zero (default: zero)
#   -DOUTPUT_FILE=path -DOUTPUT_SIZE=n   the file must exist with n bytes
#   -DINPUT_FILE=path -DINPUT_SIZE=n     written before the run (n bytes of 'A')
string(REPLACE "@@" ";" command "${COMMAND}")

# Splits on @@ without going through a CMake list.
function(check_all_match text expectations)
  set(rest "${expectations}")
  while(NOT rest STREQUAL "")
    string(FIND "${rest}" "@@" at)
    if(at EQUAL -1)
      set(regex "${rest}")
      set(rest "")
    else()
      string(SUBSTRING "${rest}" 0 ${at} regex)
      math(EXPR next "${at} + 2")
      string(SUBSTRING "${rest}" ${next} -1 rest)
    endif()
    string(REPLACE "<LB>" "\\[" regex "${regex}")
    string(REPLACE "<RB>" "\\]" regex "${regex}")
    if(NOT text MATCHES "${regex}")
      message(FATAL_ERROR "output does not match: ${regex}")
    endif()
  endwhile()
endfunction()

if(INPUT_FILE)
  string(REPEAT "A" ${INPUT_SIZE} content)
  file(WRITE "${INPUT_FILE}" "${content}")
endif()
if(OUTPUT_FILE)
  file(REMOVE "${OUTPUT_FILE}")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")

if(EXPECT_FAIL AND status EQUAL 0)
  message(FATAL_ERROR "expected a failure, but the command succeeded")
elseif(NOT EXPECT_FAIL AND NOT status EQUAL 0)
  message(FATAL_ERROR "the command failed with status ${status}")
endif()
if(EXPECT)
  check_all_match("${all}" "${EXPECT}")
endif()
if(OUTPUT_FILE)
  if(NOT EXISTS "${OUTPUT_FILE}")
    message(FATAL_ERROR "${OUTPUT_FILE} was not written")
  endif()
  file(SIZE "${OUTPUT_FILE}" size)
  if(NOT size EQUAL OUTPUT_SIZE)
    message(FATAL_ERROR "${OUTPUT_FILE} has ${size} bytes, expected ${OUTPUT_SIZE}")
  endif()
endif()
