# Helpers of AortaProfiling.cmake (which includes this file from its own directory); not an
# interface: names starting with _aorta_ may change in any release.
include_guard(GLOBAL)

block(SCOPE_FOR POLICIES)
cmake_policy(VERSION 3.25)

# The aorta executable that exists at configure time, or "" when there is none (aorta is built
# by this very project) or validation is switched off.
function(_aorta_configure_time_executable out_var)
  set(exe "")
  if(NOT AORTA_VALIDATE_RECIPES)
    # Leave exe empty.
  elseif(AORTA_EXECUTABLE)
    set(exe "${AORTA_EXECUTABLE}")
  elseif(TARGET Aorta::aorta)
    get_target_property(imported Aorta::aorta IMPORTED)
    if(imported)
      get_target_property(configs Aorta::aorta IMPORTED_CONFIGURATIONS)
      string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
      if(configs AND build_type AND build_type IN_LIST configs)
        get_target_property(exe Aorta::aorta IMPORTED_LOCATION_${build_type})
      elseif(configs)
        list(GET configs 0 first_config)
        get_target_property(exe Aorta::aorta IMPORTED_LOCATION_${first_config})
      endif()
      if(NOT exe)
        get_target_property(exe Aorta::aorta IMPORTED_LOCATION)
      endif()
      if(NOT exe)
        set(exe "")
      endif()
    endif()
  endif()
  set(${out_var} "${exe}" PARENT_SCOPE)
endfunction()

# With an aorta executable at hand (_aorta_configure_time_executable), runs `aorta validate` on
# the recipe, the COLLECT override, every CHECK and the GATE, so a bad one stops the configure step.
function(_aorta_validate_at_configure_time)
  _aorta_configure_time_executable(validator)
  if(NOT validator)
    return()
  endif()
  set(code "")
  foreach(word IN ITEMS "${validator}" validate "${recipe}")
    _aorta_code_append(code "${word}")
  endforeach()
  if(count_COLLECT GREATER 0)
    # The older spelling: the validator may be an earlier aorta (AORTA_EXECUTABLE); both take it.
    _aorta_code_append(code --collect)
    _aorta_code_append(code "${collect_joined}")
  endif()
  _aorta_code_append_each(code --check CHECK)
  if(NOT gate STREQUAL "")
    _aorta_code_append(code --gate)
    _aorta_code_append(code "${gate}")
  endif()
  cmake_language(EVAL CODE "execute_process(COMMAND ${code}
    RESULT_VARIABLE validate_result
    OUTPUT_VARIABLE validate_output
    ERROR_VARIABLE validate_output)")
  if(NOT validate_result EQUAL 0)
    string(STRIP "${validate_output}" validate_output)
    message(FATAL_ERROR "${fn}: RECIPE '${recipe}', a CHECK or the GATE does not validate "
      "(${validator} validate exited ${validate_result}):\n${validate_output}")
  endif()
  # validate lists a recipe's cells; `sweep run --baseline` refuses a recipe with cells at run
  # time, so a BASELINE on one is refused here, where the fix belongs.
  if((NOT baseline_dir STREQUAL "" OR NOT history_baseline STREQUAL "") AND
      validate_output MATCHES "(^|\n)aorta: cell ")
    message(FATAL_ERROR "${fn}: BASELINE with a RECIPE that has cells ('${recipe}'): the "
      "baseline gate judges one test against its baseline, and cells are judged against each "
      "other (the confound verdicts, cell-addressed checks). Fix: drop BASELINE, or give each "
      "cell its own test and recipe to gate it.")
  endif()
endfunction()

# One report test per results root, registered by whichever call first writes there. Sets
# out_var to the fixture name the profiled test requires. Roots are remembered by hash: a root
# holding `;` must not become two list elements.
function(_aorta_report_fixture output_root out_var)
  string(SHA256 root_key "${output_root}")
  get_property(roots GLOBAL PROPERTY _AORTA_REPORT_ROOTS)
  list(FIND roots "${root_key}" index)
  set(new_root FALSE)
  if(index EQUAL -1)
    list(LENGTH roots index)
    set_property(GLOBAL APPEND PROPERTY _AORTA_REPORT_ROOTS "${root_key}")
    set(new_root TRUE)
  endif()
  set(fixture aorta_report)
  if(index GREATER 0)
    math(EXPR number "${index} + 1")
    set(fixture aorta_report.${number})
  endif()
  if(new_root)
    # The setup marks when this ctest invocation started, so the report covers the tests that
    # ran now and marks older results as stale instead of mixing them in.
    _aorta_quote("${output_root}" root)
    string(REPLACE ";" "\\;" attached "${output_root}/report.html")
    cmake_language(EVAL CODE "
      add_test(NAME ${fixture}.begin
        COMMAND $<TARGET_FILE:Aorta::aorta> report --begin-run ${root})
      add_test(NAME ${fixture} COMMAND $<TARGET_FILE:Aorta::aorta> report ${root})")
    set_tests_properties(${fixture}.begin PROPERTIES
      FIXTURES_SETUP ${fixture}
      LABELS profiling
      TIMEOUT 60)
    set_tests_properties(${fixture} PROPERTIES
      FIXTURES_CLEANUP ${fixture}
      LABELS profiling
      ATTACHED_FILES "${attached}"
      TIMEOUT 300)
    if(NOT AORTA_HISTORY_STORE STREQUAL "")
      _aorta_history_test(${fixture} "${output_root}")
    endif()
  endif()
  set(${out_var} "${fixture}" PARENT_SCOPE)
endfunction()

# AORTA_HISTORY_STORE as aorta is given it: a path relative to the top build directory made
# absolute (tests run in other directories), a URL as it is.
function(_aorta_history_store_location out_var)
  set(store "${AORTA_HISTORY_STORE}")
  if(NOT store MATCHES "^postgres(ql)?://")
    cmake_path(ABSOLUTE_PATH store BASE_DIRECTORY "${CMAKE_BINARY_DIR}" NORMALIZE)
  endif()
  set(${out_var} "${store}" PARENT_SCOPE)
endfunction()

# <fixture>.history: adds the results under output_root to the store AORTA_HISTORY_STORE, as a
# second cleanup of the report fixture that runs after the report. It runs in the project's source
# directory, so `aorta history add` asks the project's own git checkout for the commit and branch.
function(_aorta_history_test fixture output_root)
  _aorta_history_store_location(store)
  _aorta_quote("${output_root}" root)
  _aorta_quote("${store}" store)
  _aorta_quote("${CMAKE_SOURCE_DIR}" directory)
  cmake_language(EVAL CODE "
    add_test(NAME ${fixture}.history
      COMMAND $<TARGET_FILE:Aorta::aorta> history add ${root} --history ${store}
      WORKING_DIRECTORY ${directory})")
  set_tests_properties(${fixture}.history PROPERTIES
    FIXTURES_CLEANUP ${fixture}
    DEPENDS ${fixture}
    LABELS profiling
    TIMEOUT 300)
endfunction()

# The aorta command line of a profiled test, as CMake source of quoted arguments (see
# _aorta_quote), from the settings in the caller's scope (_aorta_resolve_profiled_test_settings).
function(_aorta_profiled_test_command out_var)
  set(code "")
  foreach(word IN ITEMS "$<TARGET_FILE:Aorta::aorta>" sweep run --recipe "${recipe}"
      --output "${output_dir}")
    _aorta_code_append(code "${word}")
  endforeach()
  if(count_COLLECT GREATER 0)
    _aorta_code_append(code --collectors)
    _aorta_code_append(code "${collect_joined}")
  endif()
  _aorta_code_append_each(code --check CHECK)
  _aorta_code_append_each(code --measure MEASURE)
  foreach(metric IN LISTS AORTA_DEFAULT_MEASURE)
    _aorta_code_append(code --measure)
    _aorta_code_append(code "${metric}")
  endforeach()
  if(AORTA_REQUIRE_PROFILER)
    _aorta_code_append(code --require-profiler)
  endif()
  if(NOT AORTA_LANE_PLATFORMS STREQUAL "")
    _aorta_code_append(code --platforms)
    _aorta_code_append(code "${AORTA_LANE_PLATFORMS}")
  endif()
  if(AORTA_REQUIRE_CHECKS)
    _aorta_code_append(code --require-checks)
  endif()
  # CTest kills a test at TIMEOUT without a word in result.json; aorta stops the payload a little
  # earlier itself, so the timeout is recorded and reported like any other failure.
  _aorta_code_append(code --timeout)
  _aorta_code_append(code "${inner_timeout}")
  # CTest reads these tags (CDash shows them); on a terminal they are noise, so aorta prints them
  # only when asked.
  _aorta_code_append(code --ctest-measurements)
  foreach(option IN ITEMS trials gate)
    if(NOT "${${option}}" STREQUAL "")
      _aorta_code_append(code --${option})
      _aorta_code_append(code "${${option}}")
    endif()
  endforeach()
  if(NOT baseline_dir STREQUAL "")
    foreach(word IN ITEMS --baseline "${baseline_dir}" --test-name "${arg_NAME}")
      _aorta_code_append(code "${word}")
    endforeach()
    if(AORTA_REQUIRE_BASELINE)
      _aorta_code_append(code --require-baseline)
    endif()
  endif()
  if(NOT history_baseline STREQUAL "")
    _aorta_history_store_location(store)
    foreach(word IN ITEMS --baseline "${history_baseline}" --history "${store}"
        --test-name "${arg_NAME}")
      _aorta_code_append(code "${word}")
    endforeach()
    if(NOT AORTA_HISTORY_BASELINE_COMMITS STREQUAL "")
      _aorta_code_append(code --history-commits)
      _aorta_code_append(code "${AORTA_HISTORY_BASELINE_COMMITS}")
    endif()
  endif()
  _aorta_code_append(code --)
  set(${out_var} "${code}" PARENT_SCOPE)
endfunction()

# The payload's argv as CMake source: COMMAND as given, or the TARGET behind its TEST_LAUNCHER and
# (when cross-compiling) CROSSCOMPILING_EMULATOR, as add_test() puts them, then ARGS.
function(_aorta_payload_command out_var)
  if(NOT "TARGET" IN_LIST given)
    _aorta_keyword_code(COMMAND code)
    set(${out_var} "${code}" PARENT_SCOPE)
    return()
  endif()
  # add_test() does not split a list that a generator expression yields, so the prefixes are
  # read now, as lists; their elements may still hold generator expressions.
  get_target_property(launcher "${arg_TARGET}" TEST_LAUNCHER)
  get_target_property(emulator "${arg_TARGET}" CROSSCOMPILING_EMULATOR)
  set(prefix "")
  if(launcher)
    list(APPEND prefix ${launcher})
  endif()
  if(emulator AND CMAKE_CROSSCOMPILING)
    list(APPEND prefix ${emulator})
  endif()
  set(code "")
  foreach(word IN LISTS prefix)
    _aorta_code_append(code "${word}")
  endforeach()
  _aorta_code_append(code "$<TARGET_FILE:${arg_TARGET}>")
  _aorta_keyword_code(ARGS arguments)
  set(${out_var} "${code}${arguments}" PARENT_SCOPE)
endfunction()

# The test's CTest labels: profiling, aorta:<collector> (or aorta), the defaults, then LABELS.
function(_aorta_profiled_test_labels collectors out_var)
  set(labels profiling)
  if(collectors)
    foreach(collector IN LISTS collectors)
      list(APPEND labels "aorta:${collector}")
    endforeach()
  else()
    list(APPEND labels aorta)
  endif()
  list(APPEND labels ${AORTA_DEFAULT_LABELS})
  set(index 0)
  while(index LESS count_LABELS)
    list(APPEND labels "${arg_LABELS_${index}}")
    math(EXPR index "${index} + 1")
  endwhile()
  list(REMOVE_DUPLICATES labels)
  set(${out_var} "${labels}" PARENT_SCOPE)
endfunction()

# aorta_profiled_tests: builds what the profiled tests run (aorta when this project builds it, and
# each TARGET payload) and nothing else, so a profiling job need not build a whole test suite.
# The target itself exists from the moment AortaProfiling.cmake is included.
function(_aorta_profiled_tests_target payload_target)
  get_property(aorta_added GLOBAL PROPERTY _AORTA_PROFILED_TESTS_HAVE_AORTA)
  if(NOT aorta_added)
    set_property(GLOBAL PROPERTY _AORTA_PROFILED_TESTS_HAVE_AORTA TRUE)
    get_target_property(aorta_imported Aorta::aorta IMPORTED)
    if(NOT aorta_imported)
      get_target_property(aorta_target Aorta::aorta ALIASED_TARGET)
      if(NOT aorta_target)
        set(aorta_target Aorta::aorta)
      endif()
      add_dependencies(aorta_profiled_tests ${aorta_target})
    endif()
  endif()
  if(NOT payload_target STREQUAL "")
    get_target_property(payload_imported "${payload_target}" IMPORTED)
    get_target_property(payload_aliased "${payload_target}" ALIASED_TARGET)
    if(payload_aliased)
      set(payload_target "${payload_aliased}")
    endif()
    if(NOT payload_imported)
      add_dependencies(aorta_profiled_tests "${payload_target}")
    endif()
  endif()
endfunction()

# add_test() and the documented properties, from the settings in the caller's scope.
function(_aorta_register_profiled_test collectors)
  _aorta_profiled_tests_target("${arg_TARGET}")
  _aorta_profiled_test_command(aorta_code)
  _aorta_payload_command(payload_code)
  _aorta_quote("${arg_NAME}" name)
  _aorta_quote("${working_directory}" directory)
  cmake_language(EVAL CODE
    "add_test(NAME ${name} COMMAND ${aorta_code} ${payload_code} WORKING_DIRECTORY ${directory})")

  _aorta_profiled_test_labels("${collectors}" labels)
  _aorta_report_fixture("${output_root}" report_fixture)
  # A cells run writes no <output>/trial_0: its trials are under <output>/<cell>/, and its own
  # files are the matrix (has_cells: _aorta_scan_recipe_cells).
  if(has_cells)
    string(REPLACE ";" "\\;" matrix_json "${output_dir}/matrix.json")
    string(REPLACE ";" "\\;" matrix_md "${output_dir}/matrix.md")
    set(attached "${matrix_json};${matrix_md}")
  else()
    string(REPLACE ";" "\\;" attached "${output_dir}/trial_0/result.json")
  endif()
  set_tests_properties(${arg_NAME} PROPERTIES
    LABELS "${labels}"
    SKIP_RETURN_CODE 77
    TIMEOUT "${timeout}"
    ATTACHED_FILES "${attached}"
    FIXTURES_REQUIRED "${report_fixture}")
  if(gpus GREATER 0)
    set(groups "gpus:1")
    if(gpus GREATER 1)
      set(groups "${gpus},gpus:1")
    endif()
    set_tests_properties(${arg_NAME} PROPERTIES RESOURCE_GROUPS "${groups}")
  endif()
  # CTest's own timeout kills with SIGKILL, which aorta cannot pass on: the payload's process
  # group would outlive the test. From CTest 3.27 it can send SIGTERM first, which aorta forwards
  # to the whole group before it records the trial as timed out.
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.27)
    set_tests_properties(${arg_NAME} PROPERTIES
      TIMEOUT_SIGNAL_NAME SIGTERM
      TIMEOUT_SIGNAL_GRACE_PERIOD 10)
  endif()
  if(count_ENVIRONMENT GREATER 0)
    _aorta_keyword_code(ENVIRONMENT environment)
    cmake_language(EVAL CODE "set(environment ${environment})")
    set_tests_properties(${arg_NAME} PROPERTIES ENVIRONMENT "${environment}")
  endif()
  if(count_PROPERTIES GREATER 0)
    _aorta_keyword_code(PROPERTIES properties)
    cmake_language(EVAL CODE "set_tests_properties(${name} PROPERTIES ${properties})")
  endif()
endfunction()

endblock()

# aorta_baseline.<name>: records the test's last results into its baseline folder; the umbrella
# target aorta_baselines runs all of them. Results that a partial ctest run never wrote are
# skipped with a note. $<SEMICOLON> keeps a `;` in a folder name from splitting the argument.
function(_aorta_baseline_target name output_dir baseline_dir)
  if(NOT TARGET aorta_baselines)
    add_custom_target(aorta_baselines)
  endif()
  string(REPLACE ";" "$<SEMICOLON>" results "${output_dir}")
  string(REPLACE ";" "$<SEMICOLON>" into "${baseline_dir}")
  add_custom_target(aorta_baseline.${name}
    COMMAND $<TARGET_FILE:Aorta::aorta> baseline record "${results}" --into "${into}"
            --skip-missing
    COMMENT "aorta: recording the baseline of ${name} into ${baseline_dir}"
    VERBATIM)
  add_dependencies(aorta_baselines aorta_baseline.${name})
endfunction()
