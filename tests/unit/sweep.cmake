# Unit tests of the sweep area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
