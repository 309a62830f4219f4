# Defaults and validation of aorta_add_profiled_test()'s settings (AortaProfiling.cmake includes
# this file from its own directory); not an interface: names starting with _aorta_ may change.
include_guard(GLOBAL)

block(SCOPE_FOR POLICIES)
cmake_policy(VERSION 3.25)

# The value of `keyword` given to the call, else the project default AORTA_DEFAULT_<keyword>, else
# `fallback`. Reads `given` and arg_<keyword> from the caller (_aorta_parse_profiled_test_arguments).
function(_aorta_setting keyword fallback out_var)
  if(keyword IN_LIST given)
    set(value "${arg_${keyword}}")
  else()
    set(value "${AORTA_DEFAULT_${keyword}}")
    if(value STREQUAL "")
      set(value "${fallback}")
    endif()
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# Refuses `value` of `keyword` unless it is a whole number from `minimum` to `maximum` (`why` says
# where the range comes from). Checked on the digits before any comparison: if() compares numbers
# as doubles and math() fails on long ones, so 99999999999999999999 would slip through to CTest.
function(_aorta_require_count fn keyword value minimum maximum why)
  string(REGEX REPLACE "^0+([0-9])" "\\1" digits "${value}")
  string(LENGTH "${maximum}" maximum_length)
  string(LENGTH "${digits}" length)
  if(NOT value MATCHES "^[0-9]+$" OR length GREATER maximum_length OR digits LESS minimum
      OR digits GREATER maximum)
    message(FATAL_ERROR "${fn}: ${keyword} '${value}' is not a whole number from ${minimum} to "
      "${maximum}, ${why} (the value may come from AORTA_DEFAULT_${keyword}).")
  endif()
endfunction()

# The aorta `--timeout` for a CTest TIMEOUT of `seconds`: a tenth less, at most 10 s less, so
# aorta has time to stop the payload and write result.json before CTest kills it. Refuses what
# the recipe's `timeout` would refuse (its range: min_timeout_seconds and max_timeout_seconds in
# recipe.hpp) before any math(), which fails on long numbers.
function(_aorta_inner_timeout fn seconds out_var)
  set(minimum 0.001)
  set(maximum 2592000)
  if(NOT seconds MATCHES "^[0-9]+(\\.[0-9]+)?$" OR seconds LESS minimum OR seconds GREATER maximum)
    message(FATAL_ERROR "${fn}: TIMEOUT '${seconds}' is not a number of seconds from "
      "${minimum} to ${maximum} (30 days), the range of a recipe's timeout (the value may come "
      "from AORTA_DEFAULT_TIMEOUT).")
  endif()
  string(REGEX MATCH "^([0-9]+)(\\.([0-9]+))?$" seconds "${seconds}")
  set(whole "${CMAKE_MATCH_1}")
  string(SUBSTRING "${CMAKE_MATCH_3}000" 0 3 fraction)
  string(REGEX REPLACE "^0+([0-9])" "\\1" whole "${whole}")
  math(EXPR milliseconds "${whole} * 1000 + 1${fraction} - 1000")
  math(EXPR margin "${milliseconds} / 10")
  if(margin GREATER 10000)
    set(margin 10000)
  endif()
  math(EXPR inner "${milliseconds} - ${margin}")
  math(EXPR inner_whole "${inner} / 1000")
  math(EXPR inner_fraction "1000 + ${inner} % 1000")
  string(SUBSTRING "${inner_fraction}" 1 3 inner_fraction)
  set(${out_var} "${inner_whole}.${inner_fraction}" PARENT_SCOPE)
endfunction()

# The payload: exactly one of COMMAND and TARGET, ARGS only with TARGET, TARGET an executable.
function(_aorta_check_payload_arguments)
  if("COMMAND" IN_LIST given AND "TARGET" IN_LIST given)
    message(FATAL_ERROR "${fn}: give COMMAND or TARGET, not both "
      "(COMMAND ${arg_COMMAND_0} ...; TARGET ${arg_TARGET}).")
  endif()
  if(NOT "COMMAND" IN_LIST given AND NOT "TARGET" IN_LIST given)
    message(FATAL_ERROR "${fn}: missing the payload: give COMMAND <argv>... or TARGET <target>.")
  endif()
  if("ARGS" IN_LIST given AND NOT "TARGET" IN_LIST given)
    message(FATAL_ERROR "${fn}: ARGS is only valid with TARGET; "
      "with COMMAND put the arguments in COMMAND itself.")
  endif()
  if("TARGET" IN_LIST given)
    if(NOT TARGET "${arg_TARGET}")
      message(FATAL_ERROR "${fn}: TARGET '${arg_TARGET}' is not an existing CMake target; "
        "define it with add_executable() before this call.")
    endif()
    get_target_property(target_type "${arg_TARGET}" TYPE)
    if(NOT target_type STREQUAL "EXECUTABLE")
      message(FATAL_ERROR "${fn}: TARGET '${arg_TARGET}' is a ${target_type}, "
        "not an executable.")
    endif()
  endif()
endfunction()

# Resolves every setting of the call (given value, project default, built-in default), validates
# it, and sets in the caller's scope: recipe, gpus, timeout, inner_timeout, output_root,
# output_dir, trials, baseline_dir, gate and working_directory.
function(_aorta_resolve_profiled_test_settings)
  if(arg_NAME STREQUAL "")
    message(FATAL_ERROR "${fn}: missing NAME <name>.")
  endif()
  if(NOT arg_NAME MATCHES "^[A-Za-z0-9_+][A-Za-z0-9_.+-]*$")
    message(FATAL_ERROR "${fn}: NAME '${arg_NAME}' is also a directory name, so it may hold "
      "only letters, digits and _ . + - and must not start with . or -.")
  endif()
  if(arg_RECIPE STREQUAL "")
    message(FATAL_ERROR "${fn}: missing RECIPE <file> (the aorta recipe naming the collectors).")
  endif()
  _aorta_check_payload_arguments()
  cmake_path(ABSOLUTE_PATH arg_RECIPE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    NORMALIZE OUTPUT_VARIABLE recipe)
  if(NOT EXISTS "${recipe}" OR IS_DIRECTORY "${recipe}")
    message(FATAL_ERROR "${fn}: RECIPE file '${recipe}' does not exist.")
  endif()

  _aorta_setting(GPUS 0 gpus)
  _aorta_require_count("${fn}" GPUS "${gpus}" 0 1048576
    "the most ranks aorta runs (max_ranks); CTest reads it as a 64-bit number and aborts on more")
  _aorta_setting(TIMEOUT 600 timeout)
  _aorta_inner_timeout("${fn}" "${timeout}" inner_timeout)
  _aorta_setting(TRIALS "" trials)
  if(NOT trials STREQUAL "")
    _aorta_require_count("${fn}" TRIALS "${trials}" 1 1000000
      "the range of --trials and a recipe's trials")
  endif()
  _aorta_setting(GATE "" gate)

  _aorta_setting(OUTPUT_DIR "${CMAKE_BINARY_DIR}/aorta-results" output_root)
  cmake_path(ABSOLUTE_PATH output_root BASE_DIRECTORY "${CMAKE_BINARY_DIR}" NORMALIZE)
  cmake_path(APPEND output_root "${arg_NAME}" OUTPUT_VARIABLE output_dir)
  _aorta_setting(BASELINE "" baseline_dir)
  # `history[:BRANCH]` is the history store's baseline, not a directory (`./history` is one).
  set(history_baseline "")
  if(baseline_dir MATCHES "^history(:.*)?$")
    set(history_baseline "${baseline_dir}")
    set(baseline_dir "")
    if(AORTA_HISTORY_STORE STREQUAL "")
      message(FATAL_ERROR "aorta_add_profiled_test(${arg_NAME}): BASELINE ${history_baseline} "
        "reads the history store, but AORTA_HISTORY_STORE is empty. Fix: configure with "
        "-DAORTA_HISTORY_STORE=<SQLite path or postgresql:// URL>")
    endif()
  elseif(NOT baseline_dir STREQUAL "")
    cmake_path(ABSOLUTE_PATH baseline_dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
  endif()
  set(working_directory "${CMAKE_CURRENT_BINARY_DIR}")
  if("WORKING_DIRECTORY" IN_LIST given)
    set(working_directory "${arg_WORKING_DIRECTORY}")
  endif()
  cmake_path(ABSOLUTE_PATH working_directory BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")

  foreach(setting IN ITEMS recipe gpus timeout inner_timeout output_root output_dir trials
      baseline_dir history_baseline gate working_directory)
    set(${setting} "${${setting}}" PARENT_SCOPE)
  endforeach()
endfunction()

endblock()
