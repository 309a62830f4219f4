# cmake -DBUILD_DIR=<aorta build> -DPREFIX=<dir> [-DCONFIG=<cfg>] -DPROJECT_SOURCE_DIR=<src>
#       -P install_check.cmake
# Installs aorta into an empty PREFIX and inspects what landed: the package files, the binaries,
# the headers, and an export that names neither aorta's build-only targets nor its build paths.
foreach(var IN ITEMS BUILD_DIR PREFIX PROJECT_SOURCE_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_check.cmake: pass -D${var}=...")
  endif()
endforeach()

file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} exited ${result}")
endif()

file(GLOB package_dir LIST_DIRECTORIES true "${PREFIX}/lib*/cmake/Aorta")
if(NOT package_dir)
  message(FATAL_ERROR "no <prefix>/lib*/cmake/Aorta directory was installed")
endif()
set(problems "")
foreach(file IN ITEMS
    "${package_dir}/AortaConfig.cmake"
    "${package_dir}/AortaConfigVersion.cmake"
    "${package_dir}/AortaTargets.cmake"
    "${package_dir}/AortaProfiling.cmake"
    "${package_dir}/AortaProfilingArguments.cmake"
    "${package_dir}/AortaProfilingSettings.cmake"
    "${package_dir}/AortaProfilingInternals.cmake"
    "${package_dir}/AortaProfilingRecipeScan.cmake"
    "${PREFIX}/bin/aorta"
    "${PREFIX}/include/aorta/error.hpp"
    "${PREFIX}/include/aorta/recipe.hpp")
  if(NOT EXISTS "${file}")
    string(APPEND problems "  missing ${file}\n")
  endif()
endforeach()
file(GLOB harness_library "${PREFIX}/lib*/libaorta_harness.*")
if(NOT harness_library)
  string(APPEND problems "  missing the harness library <prefix>/lib*/libaorta_harness.*\n")
endif()

file(GLOB target_files "${package_dir}/AortaTargets*.cmake")
foreach(file IN LISTS target_files)
  file(READ "${file}" text)
  if(text MATCHES "aorta_warnings")
    string(APPEND problems "  ${file} names aorta_warnings, a build-only target\n")
  endif()
  foreach(build_path IN ITEMS "${BUILD_DIR}" "${PROJECT_SOURCE_DIR}")
    string(FIND "${text}" "${build_path}" at)
    if(NOT at EQUAL -1)
      string(APPEND problems "  ${file} names the build path ${build_path}\n")
    endif()
  endforeach()
endforeach()
file(READ "${package_dir}/AortaTargets.cmake" targets)
foreach(target IN ITEMS Aorta::harness Aorta::aorta)
  if(NOT targets MATCHES "add_(library|executable)\\(${target} ")
    string(APPEND problems "  AortaTargets.cmake does not define ${target}\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "the aorta install in ${PREFIX} is wrong:\n${problems}")
endif()
message(STATUS "aorta installed into ${PREFIX}: package, binaries and headers present")
