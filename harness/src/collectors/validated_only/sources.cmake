# numerics, layer_numerics, amd_log (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/validated_only/validated_only_collectors.cpp)
