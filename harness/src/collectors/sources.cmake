# Sources of the collectors area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/option_text.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/validation.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/rocprof_options.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/proton_options.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/ncu_options.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/collectors/callgrind_options.cpp)
