# `aorta bisect` end to end (issue 42): tests/cli/bisect/bisect_cases.py builds synthetic git
# repositories of a small C++ payload and bisects them under callgrind.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
foreach(case IN ITEMS culprit_and_checkout_untouched ends_do_not_differ sigint_then_resume
                      sigterm_then_resume hostile_inputs)
  add_test(NAME aorta.cli.bisect.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/bisect/bisect_cases.py
            --aorta "${aorta}" --work "${out}/bisect" ${case})
  set_tests_properties(aorta.cli.bisect.${case} PROPERTIES
    LABELS cli TIMEOUT 180 SKIP_RETURN_CODE 77)
endforeach()
