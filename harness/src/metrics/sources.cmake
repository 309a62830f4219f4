# Sources of the metrics area (target_sources on aorta_harness).
