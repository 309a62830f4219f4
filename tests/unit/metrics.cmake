# Unit tests of the metrics area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
