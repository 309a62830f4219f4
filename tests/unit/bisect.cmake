# Unit tests of the bisect area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(bisect SOURCES
  unit/bisect_verdict_test.cpp)
