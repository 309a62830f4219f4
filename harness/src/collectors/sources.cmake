# Sources of the collectors area (target_sources on aorta_harness).
