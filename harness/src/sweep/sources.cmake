# Sources of the sweep area (target_sources on aorta_harness).
