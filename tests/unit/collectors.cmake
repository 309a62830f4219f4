# Unit tests of the collectors area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(collectors SOURCES
  unit/rocprof_wrap_test.cpp
  unit/ncu_wrap_test.cpp
  unit/callgrind_wrap_test.cpp
  unit/proton_wrap_test.cpp
  unit/proton_env_wrap_test.cpp)
