# Unit tests of the metrics area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(metrics SOURCES unit/metrics_test.cpp)
aorta_add_unit_test(check SOURCES unit/check_test.cpp)
aorta_add_unit_test(report SOURCES unit/report_test.cpp)
aorta_add_unit_test(display_names SOURCES unit/display_names_test.cpp)
