# Helpers of AortaProfiling.cmake (which includes this file from its own directory); not an
# interface: names starting with _aorta_ may change in any release.
include_guard(GLOBAL)

block(SCOPE_FOR POLICIES)
cmake_policy(VERSION 3.25)

# The collector names of a recipe's top-level `collect:` key, by a line scan that understands the
# three common spellings; anything fancier yields an empty list (and the label `aorta`).
function(_aorta_scan_recipe_collectors recipe out_var)
  file(READ "${recipe}" text)
  # Neutralise the characters that CMake's list handling would interpret.
  string(REPLACE ";" " " text "${text}")
  string(REPLACE "[" "<" text "${text}")
  string(REPLACE "]" ">" text "${text}")
  string(REPLACE "\r" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")

  set(names "")
  set(in_block FALSE)
  set(child_indent "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "(^|[ \t])#.*$" "" line "${line}")
    if(line MATCHES "^[ \t]*$")
      continue()
    endif()
    if(NOT in_block)
      if(line MATCHES "^collect:[ \t]*(.*)$")
        set(rest "${CMAKE_MATCH_1}")
        if(rest MATCHES "^<(.*)>[ \t]*$")
          string(REPLACE "," ";" items "${CMAKE_MATCH_1}")
          foreach(item IN LISTS items)
            string(STRIP "${item}" item)
            list(APPEND names "${item}")
          endforeach()
          break()
        elseif(rest STREQUAL "")
          set(in_block TRUE)
        else()
          break()
        endif()
      endif()
      continue()
    endif()
    # Inside the block: stop at the next top-level key; names sit at the first child indent.
    if(NOT line MATCHES "^([ \t]*)(.*)$")
      break()
    endif()
    set(indent "${CMAKE_MATCH_1}")
    set(body "${CMAKE_MATCH_2}")
    if(indent STREQUAL "" AND NOT body MATCHES "^- ")
      break()
    endif()
    if(child_indent STREQUAL "")
      set(child_indent "${indent}")
    endif()
    if(indent STREQUAL child_indent)
      if(body MATCHES "^-[ \t]+([A-Za-z0-9_]+)[ \t]*:?")
        list(APPEND names "${CMAKE_MATCH_1}")
      elseif(body MATCHES "^([A-Za-z0-9_]+)[ \t]*:")
        list(APPEND names "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()

  set(valid "")
  foreach(name IN LISTS names)
    if(NOT name MATCHES "^[A-Za-z0-9_]+$")
      set(valid "")
      break()
    endif()
    list(APPEND valid "${name}")
  endforeach()
  list(REMOVE_DUPLICATES valid)
  set(${out_var} "${valid}" PARENT_SCOPE)
endfunction()

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

# One report test per results root, registered by whichever call first writes there. Sets
# out_var to the fixture name the profiled test requires.
function(_aorta_report_fixture output_root out_var)
  get_property(roots GLOBAL PROPERTY _AORTA_REPORT_ROOTS)
  list(FIND roots "${output_root}" index)
  if(index EQUAL -1)
    list(LENGTH roots index)
    set_property(GLOBAL APPEND PROPERTY _AORTA_REPORT_ROOTS "${output_root}")
    if(index EQUAL 0)
      set(fixture aorta_report)
    else()
      math(EXPR number "${index} + 1")
      set(fixture aorta_report.${number})
    endif()
    add_test(NAME ${fixture}
      COMMAND $<TARGET_FILE:Aorta::aorta> report "${output_root}")
    set_tests_properties(${fixture} PROPERTIES
      FIXTURES_CLEANUP ${fixture}
      LABELS profiling
      TIMEOUT 300)
  elseif(index EQUAL 0)
    set(fixture aorta_report)
  else()
    math(EXPR number "${index} + 1")
    set(fixture aorta_report.${number})
  endif()
  set(${out_var} "${fixture}" PARENT_SCOPE)
endfunction()

endblock()

# aorta_baseline.<name>: records the test's last results into its baseline folder; the umbrella
# target aorta_baselines runs all of them. Results that a partial ctest run never wrote are
# skipped with a note.
function(_aorta_baseline_target name output_dir baseline_dir)
  if(NOT TARGET aorta_baselines)
    add_custom_target(aorta_baselines)
  endif()
  add_custom_target(aorta_baseline.${name}
    COMMAND $<TARGET_FILE:Aorta::aorta> baseline record "${output_dir}" --into "${baseline_dir}"
            --skip-missing
    COMMENT "aorta: recording the baseline of ${name} into ${baseline_dir}"
    VERBATIM)
  add_dependencies(aorta_baselines aorta_baseline.${name})
endfunction()
