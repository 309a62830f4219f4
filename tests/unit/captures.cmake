# Unit tests of the captures area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
# csv
aorta_add_unit_test(csv_scanner SOURCES unit/csv_scanner_test.cpp)
aorta_add_unit_test(rocprof_reader SOURCES unit/rocprof_reader_test.cpp)
aorta_add_unit_test(ncu_reader SOURCES unit/ncu_reader_test.cpp)
