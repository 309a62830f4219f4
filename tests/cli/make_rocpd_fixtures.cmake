# cmake -DGENERATOR=<make_rocpd.py> -DOUT=<dir> -P make_rocpd_fixtures.cmake: the rocpd databases
# of formats.cmake (tests/fixtures/rocpd/README.md), written fresh each run.
file(REMOVE_RECURSE "${OUT}")
function(make_db case)
  file(MAKE_DIRECTORY "${OUT}/${case}")
  execute_process(COMMAND python3 "${GENERATOR}" "${OUT}/${case}/aorta_results.db" ${ARGN}
                  COMMAND_ERROR_IS_FATAL ANY)
endfunction()
make_db(direct --layout direct)
make_db(timestamp --layout timestamp)
make_db(future --schema-version 9)
make_db(notrocpd --no-metadata)
# One database under a name of rocprofv3's -o choosing, read as a single file.
file(MAKE_DIRECTORY "${OUT}/single")
execute_process(COMMAND python3 "${GENERATOR}" "${OUT}/single/host-4242.db" --layout direct
                COMMAND_ERROR_IS_FATAL ANY)
file(MAKE_DIRECTORY "${OUT}/corrupt")
file(WRITE "${OUT}/corrupt/aorta_results.db" "SQLite format 3 but not really")
