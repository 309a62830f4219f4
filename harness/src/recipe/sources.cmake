# Sources of the recipe area (target_sources on aorta_harness).
