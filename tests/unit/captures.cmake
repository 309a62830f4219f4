# Unit tests of the captures area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
