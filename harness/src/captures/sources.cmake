# Sources of the captures area (target_sources on aorta_harness).
