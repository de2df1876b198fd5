# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# cmake -DLIBRARY=... -DFACTS_CSV=... -DNM=nm -DREADELF=readelf -P exported_symbols_test.cmake
# Fails unless the library's dynamic symbol table defines every Function row of
# the facts CSV, the EXTRA_SYMBOLS (comma-separated) and no other global symbol, and its
# SONAME is libneuralnetworks.so.

if(NOT EXISTS "${FACTS_CSV}")
  message("SKIPPED: no facts CSV at ${FACTS_CSV}")
  return()
endif()
if(NOT NM)
  set(NM nm)
endif()
if(NOT READELF)
  set(READELF readelf)
endif()

# Expected: the CSV's Function rows.
file(STRINGS "${FACTS_CSV}" function_rows REGEX "^Function,")
set(expected "")
foreach(row IN LISTS function_rows)
  if(row MATCHES "^Function,([A-Za-z_][A-Za-z0-9_]*),")
    list(APPEND expected ${CMAKE_MATCH_1})
  endif()
endforeach()
list(LENGTH expected expected_count)
if(expected_count EQUAL 0)
  message(FATAL_ERROR "no Function rows in ${FACTS_CSV}")
endif()
string(REPLACE "," ";" extra_symbols "${EXTRA_SYMBOLS}")
list(APPEND expected ${extra_symbols})

# Actual: defined global dynamic symbols (upper-case nm type letters, plus 'u'
# for unique globals). Version-node names (type A) are not symbols.
execute_process(COMMAND ${NM} -D --defined-only "${LIBRARY}"
                OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${nm_result}")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_output}")
set(exported "")
foreach(line IN LISTS nm_lines)
  if(NOT line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ @]+)")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(symbol "${CMAKE_MATCH_2}")
  if(type STREQUAL "A" OR NOT type MATCHES "^[A-Zu]$")
    continue()
  endif()
  list(APPEND exported ${symbol})
endforeach()

set(missing ${expected})
list(REMOVE_ITEM missing ${exported})
set(extra ${exported})
list(REMOVE_ITEM extra ${expected})

set(failed FALSE)
if(missing)
  list(JOIN missing "\n  " text)
  message("not exported by ${LIBRARY}:\n  ${text}")
  set(failed TRUE)
endif()
if(extra)
  list(JOIN extra "\n  " text)
  message("exported but not an NNAPI function:\n  ${text}")
  set(failed TRUE)
endif()

execute_process(COMMAND ${READELF} -d "${LIBRARY}" OUTPUT_VARIABLE dynamic
                RESULT_VARIABLE readelf_result)
if(NOT readelf_result EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${LIBRARY} failed: ${readelf_result}")
endif()
if(NOT dynamic MATCHES "\\(SONAME\\)[^\n]*Library soname: \\[([^]\n]*)\\]")
  message("no SONAME in ${LIBRARY}")
  set(failed TRUE)
elseif(NOT CMAKE_MATCH_1 STREQUAL "libneuralnetworks.so")
  message("SONAME is ${CMAKE_MATCH_1}, expected libneuralnetworks.so")
  set(failed TRUE)
endif()

list(LENGTH exported exported_count)
if(failed)
  message(FATAL_ERROR "exported symbol check failed")
endif()
message("OK: ${exported_count} exported symbols, all ${expected_count} NNAPI functions and "
        "${EXTRA_SYMBOLS}, SONAME libneuralnetworks.so")
