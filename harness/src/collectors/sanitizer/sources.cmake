# The sanitizer collector (NVIDIA compute-sanitizer): options, wrap, class (its report reader is
# captures/sanitizer_reader.cpp).
target_sources(aorta_harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/sanitizer/sanitizer_options.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/sanitizer/sanitizer_wrap.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/sanitizer/sanitizer_collector.cpp)
