# Runs one CLI case and asserts its exact exit code, its output and the files it leaves.
#
#   cmake -DCASE=<file> -P expect.cmake
#
# CASE is written by aorta_cli_test() (tests/cli/CMakeLists.txt) and sets:
#   CLI_COMMAND         the argv to run (the first element is the program)
#   EXPECT_RC           the exact exit code
#   EXPECT_OUTPUT       regexes that must each match stdout+stderr
#   REJECT_OUTPUT       regexes that must not match stdout+stderr
#   EXPECT_FILES        paths that must exist afterwards
#   EXPECT_NO_FILES     paths that must not exist afterwards
#   EXPECT_FILE_REGEX   pairs: a file, then a regex its content must match
#   EXPECT_JSON         entries SOURCE::KEY/KEY/...=VALUE: SOURCE is `stdout` or a JSON file; the
#                       value at that key path must equal VALUE (`=*` only asks that it exists)
#   EXPECT_HEAD         pairs: a byte count, then a regex that must match within that many first
#                       bytes of stdout (CTest's JUnit keeps only the first 1024 of a passing test)
#   CLEAN               paths removed before the run (stale output never passes a test)
#   WORKING_DIRECTORY   where the command runs
#   CLI_ENV             NAME=VALUE entries set for the command (`cmake -E env`)
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED CASE OR NOT EXISTS "${CASE}")
  message(FATAL_ERROR "expect.cmake: -DCASE=<case file> is required (got '${CASE}')")
endif()
include("${CASE}")

foreach(path IN LISTS CLEAN)
  file(REMOVE_RECURSE "${path}")
endforeach()
if(NOT WORKING_DIRECTORY)
  set(WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
endif()
file(MAKE_DIRECTORY "${WORKING_DIRECTORY}")

set(argv ${CLI_COMMAND})
if(CLI_ENV)
  set(argv "${CMAKE_COMMAND}" -E env ${CLI_ENV} ${CLI_COMMAND})
endif()
execute_process(COMMAND ${argv}
  WORKING_DIRECTORY "${WORKING_DIRECTORY}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
set(all "${out}${err}")
message("---- stdout\n${out}---- stderr\n${err}---- exit: ${rc}")

set(failures "")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  string(APPEND failures "exit code ${rc}, expected ${EXPECT_RC}\n")
endif()
foreach(regex IN LISTS EXPECT_OUTPUT)
  if(NOT all MATCHES "${regex}")
    string(APPEND failures "output does not match: ${regex}\n")
  endif()
endforeach()
foreach(regex IN LISTS REJECT_OUTPUT)
  if(all MATCHES "${regex}")
    string(APPEND failures "output matches what it must not: ${regex}\n")
  endif()
endforeach()
list(LENGTH EXPECT_HEAD head_items)
if(head_items GREATER 0)
  math(EXPR last "${head_items} - 1")
  foreach(index RANGE 0 ${last} 2)
    math(EXPR regex_index "${index} + 1")
    list(GET EXPECT_HEAD ${index} bytes)
    list(GET EXPECT_HEAD ${regex_index} regex)
    string(SUBSTRING "${out}" 0 ${bytes} head)
    if(NOT head MATCHES "${regex}")
      string(APPEND failures "the first ${bytes} bytes of stdout do not match: ${regex}\n")
    endif()
  endforeach()
endif()
foreach(path IN LISTS EXPECT_FILES)
  if(NOT EXISTS "${path}")
    string(APPEND failures "missing file: ${path}\n")
  endif()
endforeach()
foreach(path IN LISTS EXPECT_NO_FILES)
  if(EXISTS "${path}")
    string(APPEND failures "file must not exist: ${path}\n")
  endif()
endforeach()

list(LENGTH EXPECT_FILE_REGEX pair_items)
if(pair_items GREATER 0)
  math(EXPR last "${pair_items} - 1")
  foreach(index RANGE 0 ${last} 2)
    math(EXPR regex_index "${index} + 1")
    list(GET EXPECT_FILE_REGEX ${index} path)
    list(GET EXPECT_FILE_REGEX ${regex_index} regex)
    if(NOT EXISTS "${path}")
      string(APPEND failures "missing file: ${path}\n")
      continue()
    endif()
    file(READ "${path}" content)
    if(NOT content MATCHES "${regex}")
      string(APPEND failures "${path} does not match: ${regex}\n")
    endif()
  endforeach()
endif()

foreach(entry IN LISTS EXPECT_JSON)
  if(NOT entry MATCHES "^(.+)::([^=]+)=(.*)$")
    message(FATAL_ERROR "expect.cmake: bad EXPECT_JSON entry '${entry}'")
  endif()
  set(source "${CMAKE_MATCH_1}")
  string(REPLACE "/" ";" keys "${CMAKE_MATCH_2}")
  set(wanted "${CMAKE_MATCH_3}")
  if(source STREQUAL "stdout")
    set(document "${out}")
  elseif(EXISTS "${source}")
    file(READ "${source}" document)
  else()
    string(APPEND failures "missing JSON file: ${source}\n")
    continue()
  endif()
  string(JSON value ERROR_VARIABLE json_error GET "${document}" ${keys})
  if(json_error)
    string(APPEND failures "${source}: ${keys}: ${json_error}\n")
  elseif(NOT wanted STREQUAL "*" AND NOT value STREQUAL wanted)
    string(APPEND failures "${source}: ${keys} is '${value}', expected '${wanted}'\n")
  endif()
endforeach()

if(failures)
  message(FATAL_ERROR "${CLI_COMMAND}\n${failures}")
endif()
