# Unit tests of the process area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
