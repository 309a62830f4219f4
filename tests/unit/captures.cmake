# Unit tests of the captures area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
# hatchet
aorta_add_unit_test(hatchet SOURCES
  unit/hatchet_reader_test.cpp
  unit/hatchet_scanner_test.cpp
  unit/hatchet_tree_view_test.cpp)
