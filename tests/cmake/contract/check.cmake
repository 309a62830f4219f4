# cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DAORTA_PROFILING_MODULE=... -DFAKE_AORTA=...
#       -P check.cmake
# Configures the contract project (with AORTA_REQUIRE_PROFILER=ON, AORTA_LANE_PLATFORMS and a stand-in aorta that
# accepts every recipe), reads its tests back with `ctest --show-only=json-v1`, and compares each
# command line and property with what the documentation of aorta_add_profiled_test() promises.
file(REMOVE_RECURSE "${BINARY_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}"
    "-DAORTA_PROFILING_MODULE=${AORTA_PROFILING_MODULE}"
    "-DAORTA_EXECUTABLE=${FAKE_AORTA}"
    -DAORTA_REQUIRE_PROFILER=ON
    -DAORTA_LANE_PLATFORMS=cpu,nvidia
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "configuring the contract project failed:\n${output}")
endif()
execute_process(
  COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${BINARY_DIR}" --show-only=json-v1
  RESULT_VARIABLE result OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 failed:\n${errors}")
endif()

set(failures "")

# A JSON array of strings as a '|'-joined line, so mismatches print readably. Joined as a string,
# not a list, so an item's `;` and an empty item show as they are.
function(json_array_line json out_var)
  string(JSON count LENGTH "${json}")
  set(line "")
  set(i 0)
  while(i LESS count)
    string(JSON item GET "${json}" ${i})
    if(i GREATER 0)
      string(APPEND line "|")
    endif()
    string(APPEND line "${item}")
    math(EXPR i "${i} + 1")
  endwhile()
  set(${out_var} "${line}" PARENT_SCOPE)
endfunction()

# Sets test_json to the test named `name` in the listing.
function(find_test name)
  string(JSON count LENGTH "${listing}" tests)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON candidate GET "${listing}" tests ${i} name)
    if(candidate STREQUAL name)
      string(JSON test GET "${listing}" tests ${i})
      set(test_json "${test}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "ctest lists no test named ${name}")
endfunction()

# The raw JSON value of one property of test_json, or NOTFOUND.
function(test_property property out_var)
  string(JSON count LENGTH "${test_json}" properties)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${test_json}" properties ${i} name)
    if(name STREQUAL property)
      string(JSON value GET "${test_json}" properties ${i} value)
      set(${out_var} "${value}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} NOTFOUND PARENT_SCOPE)
endfunction()

function(expect what actual expected)
  if(NOT actual STREQUAL expected)
    set(failures "${failures}${what}\n    expected: ${expected}\n    actual:   ${actual}\n"
      PARENT_SCOPE)
  endif()
endfunction()

macro(expect_command test expected)
  find_test(${test})
  string(JSON command GET "${test_json}" command)
  json_array_line("${command}" line)
  expect("${test}: command" "${line}" "${expected}")
endmacro()

macro(expect_array_property property expected)
  test_property(${property} value)
  if(value STREQUAL "NOTFOUND")
    expect("${test_json_name}: ${property}" "(not set)" "${expected}")
  else()
    json_array_line("${value}" line)
    expect("${test_json_name}: ${property}" "${line}" "${expected}")
  endif()
endmacro()

macro(expect_property property expected)
  test_property(${property} value)
  expect("${test_json_name}: ${property}" "${value}" "${expected}")
endmacro()

set(source "${SOURCE_DIR}")
set(results "${BINARY_DIR}/aorta-results")

# Every keyword, a TARGET payload with a TEST_LAUNCHER, two checks, two GPUs.
set(test_json_name contract.target)
string(CONCAT expected "${FAKE_AORTA}|sweep|run|--recipe|${source}/mapping.yaml"
  "|--output|${results}/contract.target"
  "|--check|ir(expensive) / ir(cheap) >= 10|--check|count(x) == 1"
  "|--measure|callgrind_total_ir|--require-profiler|--platforms|cpu,nvidia|--timeout|37.800|--ctest-measurements"
  "|--|launcher|--flag|/bin/true|--iterations|3")
expect_command(contract.target "${expected}")
expect_array_property(LABELS "aorta:callgrind|extra|nightly|profiling")
expect_property(SKIP_RETURN_CODE 77)
expect_property(TIMEOUT 42.0)
expect_property(COST 5.0)
expect_property(WORKING_DIRECTORY "${BINARY_DIR}")
expect_array_property(ENVIRONMENT "A=1|B=2")
expect_array_property(FIXTURES_REQUIRED "aorta_report")
expect_array_property(ATTACHED_FILES "${results}/contract.target/trial_0/result.json")
test_property(RESOURCE_GROUPS groups)
string(JSON group_count LENGTH "${groups}")
expect("contract.target: RESOURCE_GROUPS group count" "${group_count}" 2)
string(JSON type GET "${groups}" 1 requirements 0 ".type")
string(JSON slots GET "${groups}" 1 requirements 0 slots)
expect("contract.target: RESOURCE_GROUPS second group" "${type}:${slots}" "gpus:1")

# COLLECT overrides the recipe's list; OUTPUT_DIR is a second results root with its own report.
set(test_json_name contract.command)
string(CONCAT expected "${FAKE_AORTA}|sweep|run|--recipe|${source}/block-list.yaml"
  "|--output|${BINARY_DIR}/other-results/contract.command"
  "|--collectors|callgrind,proton|--require-profiler|--platforms|cpu,nvidia|--timeout|590.000|--ctest-measurements|--|/bin/echo|two words")
expect_command(contract.command "${expected}")
expect_array_property(LABELS "aorta:callgrind|aorta:proton|nightly|profiling")
expect_property(TIMEOUT 600.0)
expect_property(WORKING_DIRECTORY "${BINARY_DIR}/work")
expect_array_property(FIXTURES_REQUIRED "aorta_report.2")
test_property(RESOURCE_GROUPS groups)
string(JSON group_count LENGTH "${groups}")
expect("contract.command: RESOURCE_GROUPS group count" "${group_count}" 1)
test_property(ENVIRONMENT environment)
expect("contract.command: ENVIRONMENT" "${environment}" NOTFOUND)

# Labels from the recipe's own collect: list, block and flow forms.
set(test_json_name contract.scanned)
find_test(contract.scanned)
expect_array_property(LABELS "aorta:ncu|aorta:proton|nightly|profiling")
test_property(RESOURCE_GROUPS groups)
expect("contract.scanned: RESOURCE_GROUPS (GPUS 0)" "${groups}" NOTFOUND)
set(test_json_name contract.flow)
find_test(contract.flow)
expect_array_property(LABELS "aorta:proton|aorta:rocprof|nightly|profiling")

# A recipe with cells: labels of the collectors its diagnostics run, and the files a cells run
# writes attached (it writes no <output>/trial_0/result.json).
set(test_json_name contract.cells)
find_test(contract.cells)
expect_array_property(LABELS "aorta:callgrind|aorta:ncu|aorta:sanitizer|nightly|profiling")
expect_array_property(ATTACHED_FILES
  "${results}/contract.cells/matrix.json|${results}/contract.cells/matrix.md")

# ARGS -- : the rest reaches the payload literally, keyword-like tokens and a second -- included.
set(test_json_name contract.literal)
string(CONCAT expected "${FAKE_AORTA}|sweep|run|--recipe|${source}/flow-list.yaml"
  "|--output|${results}/contract.literal|--require-profiler|--platforms|cpu,nvidia|--timeout|4.050|--ctest-measurements"
  "|--|launcher|--flag|/bin/true|CHECKS|--|LABEL|two words")
expect_command(contract.literal "${expected}")

# One report per results root, the cleanup of its fixture; its setup marks the run's start.
set(test_json_name aorta_report)
expect_command(aorta_report "${FAKE_AORTA}|report|${results}")
expect_array_property(FIXTURES_CLEANUP "aorta_report")
expect_array_property(LABELS "profiling")
expect_array_property(ATTACHED_FILES "${results}/report.html")
set(test_json_name aorta_report.begin)
expect_command(aorta_report.begin "${FAKE_AORTA}|report|--begin-run|${results}")
expect_array_property(FIXTURES_SETUP "aorta_report")
set(test_json_name aorta_report.2)
expect_command(aorta_report.2 "${FAKE_AORTA}|report|${BINARY_DIR}/other-results")
expect_array_property(FIXTURES_CLEANUP "aorta_report.2")
set(test_json_name aorta_report.2.begin)
expect_command(aorta_report.2.begin "${FAKE_AORTA}|report|--begin-run|${BINARY_DIR}/other-results")
expect_array_property(FIXTURES_SETUP "aorta_report.2")

# The gate: --trials, --gate, --baseline with the source-relative folder, --test-name.
set(test_json_name contract.gated)
string(CONCAT expected "${FAKE_AORTA}|sweep|run|--recipe|${source}/mapping.yaml"
  "|--output|${results}/contract.gated|--require-profiler|--platforms|cpu,nvidia|--timeout|590.000|--ctest-measurements|--trials|10"
  "|--gate|time +5%, count exact|--baseline|${source}/perf-baselines|--test-name|contract.gated"
  "|--|/bin/true")
expect_command(contract.gated "${expected}")

# Values holding `;` and empty arguments reach the command line exactly (issue 18, finding 22).
set(test_json_name contract.exact)
string(CONCAT expected "${FAKE_AORTA}|sweep|run|--recipe|${BINARY_DIR}/semi;colon/recipe.yaml"
  "|--output|${BINARY_DIR}/results;semi/contract.exact|--check|count(a;b) == 1|--measure|x;y"
  "|--require-profiler|--platforms|cpu,nvidia|--timeout|590.000|--ctest-measurements|--gate|time +5%;count exact"
  "|--baseline|${source}/base;lines|--test-name|contract.exact"
  "|--|/bin/echo|a;b||c\\;d|e;f|")
expect_command(contract.exact "${expected}")
expect_array_property(ATTACHED_FILES "${BINARY_DIR}/results;semi/contract.exact/trial_0/result.json")
expect_array_property(FIXTURES_REQUIRED "aorta_report.3")
expect_command(aorta_report.3 "${FAKE_AORTA}|report|${BINARY_DIR}/results;semi")

string(JSON test_count LENGTH "${listing}" tests)
expect("number of tests" "${test_count}" 14)

# AORTA_HISTORY_STORE: each root's fixture gets <fixture>.history after its report, run in the
# source directory (git's commit); a relative store is under the build directory, a URL is kept.
# ctest lists DEPENDS with what the fixtures imply added; the report must be among them.
macro(expect_depends_on report)
  test_property(DEPENDS value)
  json_array_line("${value}" line)
  if(NOT "|${line}|" MATCHES "\\|${report}\\|")
    expect("${test_json_name}: DEPENDS" "${line}" "(a list that holds ${report})")
  endif()
endmacro()
set(history_binary "${BINARY_DIR}-history")
foreach(store_setting "store dir/h.sqlite" "postgresql://ci@db.example:5432/perf")
  file(REMOVE_RECURSE "${history_binary}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${history_binary}"
      "-DAORTA_PROFILING_MODULE=${AORTA_PROFILING_MODULE}" "-DAORTA_EXECUTABLE=${FAKE_AORTA}"
      "-DAORTA_HISTORY_STORE=${store_setting}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configuring the contract project with a history store failed:\n${output}")
  endif()
  execute_process(
    COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${history_binary}" --show-only=json-v1
    RESULT_VARIABLE result OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  set(store "${store_setting}")
  if(NOT store MATCHES "^postgresql://")
    set(store "${history_binary}/${store_setting}")
  endif()
  set(test_json_name aorta_report.history)
  expect_command(aorta_report.history
    "${FAKE_AORTA}|history|add|${history_binary}/aorta-results|--history|${store}")
  expect_array_property(FIXTURES_CLEANUP "aorta_report")
  expect_depends_on(aorta_report)
  expect_array_property(LABELS "profiling")
  expect_property(WORKING_DIRECTORY "${source}")
  set(test_json_name aorta_report.3.history)
  expect_command(aorta_report.3.history
    "${FAKE_AORTA}|history|add|${history_binary}/results;semi|--history|${store}")
  expect_depends_on(aorta_report.3)
  string(JSON test_count LENGTH "${listing}" tests)
  expect("number of tests with AORTA_HISTORY_STORE" "${test_count}" 17)
endforeach()

if(failures)
  message(FATAL_ERROR "aorta_add_profiled_test() registered something else than documented:\n"
    "${failures}")
endif()
message(STATUS "contract: 13 tests (16 with AORTA_HISTORY_STORE), command lines and properties "
  "as documented")
