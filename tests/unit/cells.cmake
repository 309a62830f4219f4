# Unit tests of the cells area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(cells SOURCES
  unit/cells_recipe_test.cpp
  unit/cells_confound_test.cpp
  unit/cells_attribution_test.cpp
  unit/cell_check_test.cpp
  unit/cells_strict_test.cpp)
