# Unit tests of the reporting area: the events stages emit and the reporters that show them.
aorta_add_unit_test(reporting SOURCES unit/reporter_test.cpp)
