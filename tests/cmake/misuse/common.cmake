# Shared preamble of the misuse projects: the module under test and two targets to point at.
# AORTA_PROFILING_MODULE is passed by tests/cmake/CMakeLists.txt.
include("${AORTA_PROFILING_MODULE}")
enable_testing()

set(AORTA_MISUSE_RECIPE "${CMAKE_CURRENT_LIST_DIR}/recipe.yaml")
add_executable(payload IMPORTED)
set_target_properties(payload PROPERTIES IMPORTED_LOCATION /bin/true)
add_library(not_an_executable INTERFACE)
