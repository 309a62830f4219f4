# Unit tests of the collectors area: aorta_add_unit_test(<stem> SOURCES unit/<file>.cpp ...).
aorta_add_unit_test(collectors SOURCES
  unit/rocprof_wrap_test.cpp
  unit/ncu_wrap_test.cpp
  unit/callgrind_wrap_test.cpp
  unit/proton_wrap_test.cpp
  unit/proton_env_wrap_test.cpp)
# plan_launch and the registry; links the option parsers of validation.cpp and *_options.cpp.
aorta_add_unit_test(collectors_registry SOURCES unit/registry_wrap_test.cpp)
# collector_platforms and --platforms: which lane a recipe belongs on.
aorta_add_unit_test(collectors_platform SOURCES unit/platform_test.cpp)
# The sanitizer collector (compute-sanitizer): options, argv, report reader, its metrics and checks.
aorta_add_unit_test(collectors_sanitizer SOURCES
  unit/sanitizer_options_wrap_test.cpp
  unit/sanitizer_reader_test.cpp)
# Which collector wrote a file: each collector's recognises(), over every fixture.
aorta_add_unit_test(collectors_format_detection SOURCES unit/format_detection_test.cpp)
# Every collector folder is registered, and the registry holds nothing else.
aorta_add_unit_test(collectors_registry_folders SOURCES unit/registry_folders_test.cpp)
# the layer table of docs/architecture.md against every include of harness/src (issue 40)
aorta_add_unit_test(layer_table SOURCES unit/layer_table_test.cpp)
# Version probes: their temporary output only in a private directory (issue 18).
aorta_add_unit_test(collectors_version_probe SOURCES unit/version_probe_test.cpp)
# gbench: options and the appended flags
aorta_add_unit_test(gbench_options SOURCES unit/gbench_options_test.cpp)
# nvbench: options, the appended flags and the companion rule
aorta_add_unit_test(nvbench_options SOURCES unit/nvbench_options_test.cpp)
