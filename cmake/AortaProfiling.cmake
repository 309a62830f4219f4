# aorta_add_profiled_test() lives here; see the CMake integration work (issue 4).
include_guard(GLOBAL)
