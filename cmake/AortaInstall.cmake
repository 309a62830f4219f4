# Install rules and the Aorta CMake package, for find_package(Aorta) from an install prefix or
# from this build tree. Included by the top-level CMakeLists.txt when AORTA_ENABLE_INSTALL is ON.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(AORTA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Aorta" CACHE STRING
  "Where the Aorta package configuration is installed, relative to the prefix")
mark_as_advanced(AORTA_INSTALL_CMAKEDIR)

# aorta_warnings carries only compile options for aorta's own sources, yet CMake records a static
# library's private links in its link interface as $<LINK_ONLY:...>, and export() of the build
# tree keeps $<BUILD_INTERFACE:...> content ($<BUILD_LOCAL_INTERFACE:...> needs CMake 3.26). Drop
# it from the link interface so neither package names it; it has no link items, so nothing that
# links the harness loses anything.
get_target_property(_aorta_harness_interface aorta_harness INTERFACE_LINK_LIBRARIES)
list(FILTER _aorta_harness_interface EXCLUDE REGEX "aorta_warnings")
set_target_properties(aorta_harness PROPERTIES
  INTERFACE_LINK_LIBRARIES "${_aorta_harness_interface}")

install(TARGETS aorta_harness aorta EXPORT AortaTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/include/aorta"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.hpp")

install(EXPORT AortaTargets
  NAMESPACE Aorta::
  DESTINATION "${AORTA_INSTALL_CMAKEDIR}")

# A static harness carries its private dependencies in its link interface, so the package must
# find them too; a shared one does not need them.
get_target_property(_aorta_harness_type aorta_harness TYPE)
if(_aorta_harness_type STREQUAL "STATIC_LIBRARY")
  set(AORTA_PACKAGE_STATIC_HARNESS ON)
else()
  set(AORTA_PACKAGE_STATIC_HARNESS OFF)
endif()

# The build tree is a package too (Aorta_DIR=<build>/aorta-package): the same config, the build
# tree's targets, and a copy of the module next to them, as in the install.
set(_aorta_build_package_dir "${PROJECT_BINARY_DIR}/aorta-package")
export(EXPORT AortaTargets
  NAMESPACE Aorta::
  FILE "${_aorta_build_package_dir}/AortaTargets.cmake")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/AortaConfig.cmake.in"
  "${_aorta_build_package_dir}/AortaConfig.cmake"
  INSTALL_DESTINATION "${AORTA_INSTALL_CMAKEDIR}")
write_basic_package_version_file(
  "${_aorta_build_package_dir}/AortaConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
# AortaProfiling.cmake includes its internals from its own directory, so they travel together.
foreach(_aorta_module IN ITEMS AortaProfiling AortaProfilingArguments AortaProfilingSettings
    AortaProfilingInternals AortaProfilingRecipeScan)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/${_aorta_module}.cmake"
    "${_aorta_build_package_dir}/${_aorta_module}.cmake" COPYONLY)
endforeach()

install(FILES
  "${_aorta_build_package_dir}/AortaConfig.cmake"
  "${_aorta_build_package_dir}/AortaConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/AortaProfiling.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/AortaProfilingArguments.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/AortaProfilingSettings.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/AortaProfilingInternals.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/AortaProfilingRecipeScan.cmake"
  DESTINATION "${AORTA_INSTALL_CMAKEDIR}")
