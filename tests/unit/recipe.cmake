# Unit tests of the recipe area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
