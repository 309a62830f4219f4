# Sources of the recipe area (target_sources on aorta_harness).
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/yaml_read.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/collect_block.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/recipe_loader.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/recipe_keys.cpp)
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/cells_block.cpp)
# The cells of a recipe (mitigations x diagnostics, the A/B short form).
target_sources(aorta_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/cell_plan.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/recipe/ab_cells.cpp)
