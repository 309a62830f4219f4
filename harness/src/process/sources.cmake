# Sources of the process area (target_sources on aorta_harness).
