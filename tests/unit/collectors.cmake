# Unit tests of the collectors area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(collectors SOURCES
  unit/rocprof_wrap_test.cpp
  unit/ncu_wrap_test.cpp
  unit/callgrind_wrap_test.cpp
  unit/proton_wrap_test.cpp
  unit/proton_env_wrap_test.cpp)
# plan_launch and the registry; links the option parsers of validation.cpp and *_options.cpp.
aorta_add_unit_test(collectors_registry SOURCES unit/registry_wrap_test.cpp)
