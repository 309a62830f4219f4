# Unit tests of the recipe area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(options SOURCES
  unit/options_rocprof_test.cpp
  unit/options_proton_test.cpp
  unit/options_ncu_callgrind_test.cpp
  unit/options_validate_test.cpp)
aorta_add_unit_test(recipe SOURCES
  unit/recipe_test.cpp
  unit/recipe_collect_test.cpp
  unit/recipe_override_test.cpp)
