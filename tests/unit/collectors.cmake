# Unit tests of the collectors area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
