# Hostile inputs, round three (issue 46), second part: the size of a cells recipe, names that make
# one stack into several cells, an unreadable part of a capture and a damaged baseline.
set(hostile3l "${CMAKE_CURRENT_BINARY_DIR}/hostile3_load_inputs")
file(MAKE_DIRECTORY "${hostile3l}")

# Cells recipes of N mitigations on the axis (plus `none`) under D diagnostics of no collector.
function(hostile3_cells_recipe file mitigations diagnostics)
  set(axis "none")
  set(defined "")
  foreach(i RANGE 1 ${mitigations})
    string(APPEND axis ", m${i}")
    string(APPEND defined "  m${i}: {env: {MODE: v${i}}}\n")
  endforeach()
  set(diagnostic_axis "none")
  set(diagnostic_defs "")
  if(diagnostics GREATER 1)
    math(EXPR last "${diagnostics} - 1")
    foreach(i RANGE 1 ${last})
      string(APPEND diagnostic_axis ", d${i}")
      string(APPEND diagnostic_defs "  d${i}: []\n")
    endforeach()
    set(diagnostic_defs "diagnostics:\n${diagnostic_defs}")
  endif()
  file(WRITE "${file}" "schema_version: 1\nmode: probe\ncollect: []\n"
    "mitigation_axis: [${axis}]\ndiagnostic_axis: [${diagnostic_axis}]\n"
    "mitigations:\n${defined}${diagnostic_defs}")
endfunction()

# 2,048 + 1 mitigations x 2 diagnostics = 4,098 cells, two past max_cells: refused at load, before
# any cell is planned (10,000 cells ended in std::bad_alloc, exit 70, with nothing written).
hostile3_cells_recipe("${hostile3l}/cells_4098.yaml" 2048 2)
aorta_cli_test(hostile3.cells_over_the_limit_refused RC 64 TIMEOUT 30
  CLEAN "${out}/hostile3.cells_over_the_limit_refused"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/cells_4098.yaml"
          --output "${out}/hostile3.cells_over_the_limit_refused" --dry-run -- /bin/true
  OUTPUT "recipe.mitigation_axis: 2049 mitigation\\(s\\) x 2 diagnostic\\(s\\) would make more than 4096 cells \\(max_cells\\)"
  NO_FILES "${out}/hostile3.cells_over_the_limit_refused/none.none")
aorta_cli_test(hostile3.cells_over_the_limit_validate RC 64 TIMEOUT 30
  COMMAND "${aorta}" validate "${hostile3l}/cells_4098.yaml"
  OUTPUT "would make more than 4096 cells \\(max_cells\\)")
# 2,047 + 1 mitigations x 2 diagnostics = 4,096 cells, the most allowed: a dry run plans them all
# within the timeout. Every cell held a copy of the whole recipe, so this took about 8 GB and
# minutes (3,000 cells: 2.5 GB); benchmarks/recipe_load measures the figures.
hostile3_cells_recipe("${hostile3l}/cells_4096.yaml" 2047 2)
aorta_cli_test(hostile3.cells_at_the_limit_dry_run RC 0 TIMEOUT 120
  CLEAN "${out}/hostile3.cells_at_the_limit_dry_run"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/cells_4096.yaml"
          --output "${out}/hostile3.cells_at_the_limit_dry_run" --dry-run --seed 1 -- /bin/true
  OUTPUT "4096 cell\\(s\\)" "dry run: recipe valid, 4096 cell\\(s\\), nothing launched")

# One stack written three ways made three cells running the same settings.
set(stack_defs "mitigations:\n  a: {env: {A: '1'}}\n  g: {env: {G: '1'}}\n")
file(WRITE "${hostile3l}/stack_reordered.yaml"
  "schema_version: 1\nmode: probe\nmitigation_axis: [none, a+g, g+a]\n${stack_defs}")
aorta_cli_test(hostile3.stack_in_another_order_refused RC 64
  COMMAND "${aorta}" validate "${hostile3l}/stack_reordered.yaml"
  OUTPUT "stack_reordered\\.yaml:[0-9]+:[0-9]+: recipe\\.mitigation_axis: 'g\\+a' stacks the same mitigations, in another order, as 'a\\+g' \\(at [^)]*stack_reordered\\.yaml:[0-9]+:[0-9]+\\)")
file(WRITE "${hostile3l}/stack_spaced.yaml"
  "schema_version: 1\nmode: probe\nmitigation_axis: [none, a+g, 'a + g']\n${stack_defs}")
aorta_cli_test(hostile3.stack_with_spaces_refused RC 64
  COMMAND "${aorta}" validate "${hostile3l}/stack_spaced.yaml"
  OUTPUT "'a \\+ g' is the same stack as 'a\\+g'")
# Alone, `a + g` is the cell a+g: spaces around '+' are not part of the directory name.
file(WRITE "${hostile3l}/stack_spaced_alone.yaml"
  "schema_version: 1\nmode: probe\nmitigation_axis: [none, 'a + g']\n${stack_defs}")
aorta_cli_test(hostile3.stack_with_spaces_names_the_cell RC 0
  CLEAN "${out}/hostile3.stack_with_spaces_names_the_cell"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/stack_spaced_alone.yaml"
          --output "${out}/hostile3.stack_with_spaces_names_the_cell" --trials 1 --seed 1
          -- /bin/true
  OUTPUT "cell a\\+g: mitigations \\[a\\+g\\]"
  FILES "${out}/hostile3.stack_with_spaces_names_the_cell/a+g/trial_0/result.json"
  NO_FILES "${out}/hostile3.stack_with_spaces_names_the_cell/a + g")

# Mitigation `result` under diagnostic `json` made a cell directory named like the refusal record
# aorta writes beside the cells.
file(WRITE "${hostile3l}/cell_result_json.yaml"
  "schema_version: 1\nmode: probe\nmitigations:\n  result: {env: {R: '1'}}\ndiagnostics:\n  json: []\nmitigation_axis: [none, result]\ndiagnostic_axis: [none, json]\n")
aorta_cli_test(hostile3.cell_named_result_json_refused RC 64
  COMMAND "${aorta}" validate "${hostile3l}/cell_result_json.yaml"
  OUTPUT "the cell 'result\\.json' would take the name of a file aorta writes beside the cells")

# A stack whose cell name would be longer than a directory name may be.
set(long_stack "")
set(long_defs "")
foreach(i RANGE 1 30)
  list(APPEND long_stack "mitigation_number_${i}")
  string(APPEND long_defs "  mitigation_number_${i}: {env: {V${i}: x}}\n")
endforeach()
list(JOIN long_stack "+" long_stack)
file(WRITE "${hostile3l}/long_stack.yaml"
  "schema_version: 1\nmode: probe\nmitigation_axis: [none, ${long_stack}]\nmitigations:\n${long_defs}")
aorta_cli_test(hostile3.cell_name_too_long_refused RC 64
  COMMAND "${aorta}" validate "${hostile3l}/long_stack.yaml"
  OUTPUT "has a name of [0-9]+ bytes, longer than a directory name may be \\(255, max_cell_name_length\\)")

# A subdirectory of a capture that cannot be read was skipped without a word, so a partial capture
# was checked as whole. As root, permissions do not bind: the check then runs without the
# capabilities that override them (setpriv), as an ordinary user would.
set(partial "${out}/hostile3.unreadable_capture_part")
file(WRITE "${hostile3l}/unreadable_part.sh" [=[
# $1 aorta, $2 a rocprofv3 capture to copy, $3 where to build the partial capture
mkdir -p "$3/capture/part" && cp "$2"/*.csv "$3/capture/" && chmod 000 "$3/capture/part" || exit 2
if [ "$(id -u)" = 0 ]; then
  setpriv --bounding-set=-dac_override,-dac_read_search -- "$1" check --collector rocprof "$3/capture"
else
  "$1" check --collector rocprof "$3/capture"
fi
rc=$?
chmod 755 "$3/capture/part"
exit $rc
]=])
aorta_cli_test(hostile3.unreadable_capture_part RC 1
  CLEAN "${partial}"
  COMMAND sh "${hostile3l}/unreadable_part.sh" "${aorta}"
          "${PROJECT_SOURCE_DIR}/tests/fixtures/rocprof/flat_stats" "${partial}"
  OUTPUT "cannot list [^ ]*capture/part inside the rocprofv3 output directory [^ ]*capture: Permission denied; the capture would be judged without what it holds")

# compare against a baseline directory whose baseline is damaged said it "holds no result.json".
set(damaged "${out}/hostile3.compare_damaged_baseline")
aorta_cli_test(hostile3.compare_damaged_baseline RC 1
  CLEAN "${damaged}"
  COMMAND sh -c "'${aorta}' sweep run --recipe '${recipes}/plain.yaml' --output '${damaged}/new/t' -- /bin/true > /dev/null && '${aorta}' baseline record '${damaged}/new/t' --into '${damaged}/baselines' > /dev/null && printf '{\"schema_version\": 1,' > '${damaged}/baselines/t.json' && exec '${aorta}' compare '${damaged}/baselines' '${damaged}/new'"
  OUTPUT "baselines/t\\.json: cannot be read as a baseline \\([^\n]*is not valid JSON"
  NOT_OUTPUT "holds no result\\.json")

# One mitigation of 10,000 arguments under 2,048 diagnostics (4,096 cells): its settings, each
# trial's command and the records kept for the judges were copied per cell (about 1.3 GB per copy
# here, the dry run ended in std::bad_alloc under this limit). Now they are shared, made per trial
# and dropped once written, so the dry run fits in 1 GB of address space. Not under the
# sanitizers, whose shadow memory takes more address space than the limit allows.
if(NOT CMAKE_CXX_FLAGS MATCHES "fsanitize")
  string(REPEAT "a, " 9999 many_args)
  set(diagnostic_defs "")
  set(diagnostic_axis "none")
  foreach(i RANGE 1 2047)
    string(APPEND diagnostic_defs "  d${i}: []\n")
    string(APPEND diagnostic_axis ", d${i}")
  endforeach()
  file(WRITE "${hostile3l}/wide_mitigation.yaml"
    "schema_version: 1\nmode: probe\nmitigations:\n  big: {args: [${many_args}a]}\n"
    "diagnostics:\n${diagnostic_defs}mitigation_axis: [none, big]\n"
    "diagnostic_axis: [${diagnostic_axis}]\n")
  aorta_cli_test(hostile3.wide_mitigation_in_bounded_memory RC 0 TIMEOUT 120
    CLEAN "${out}/hostile3.wide_mitigation_in_bounded_memory"
    COMMAND sh -c "ulimit -v 1000000 && exec \"$0\" sweep run --recipe \"$1\" --output \"$2\" --dry-run --seed 1 -- /bin/true"
            "${aorta}" "${hostile3l}/wide_mitigation.yaml"
            "${out}/hostile3.wide_mitigation_in_bounded_memory"
    OUTPUT "dry run: recipe valid, 4096 cell\\(s\\), nothing launched")
endif()

# The schedule holds one entry per trial: 4,096 cells of 10^6 trials each ended in std::bad_alloc
# (exit 70). More than max_scheduled_trials (10^7) in all is refused before anything runs.
aorta_cli_test(hostile3.scheduled_trials_flag_refused RC 64 TIMEOUT 30
  CLEAN "${out}/hostile3.scheduled_trials_flag_refused"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/cells_4096.yaml" --trials 1000000
          --output "${out}/hostile3.scheduled_trials_flag_refused" --dry-run -- /bin/true
  OUTPUT "error: --trials: 4096 cell\\(s\\) would run 4096000000 trials in all, more than 10000000 \\(max_scheduled_trials\\)"
  NOT_OUTPUT "recipe: 4096 cell")
# The recipe's own counts are 1; only --trials makes the 13 cells' 13,000,000 trials, so the
# message names --trials (it said "<recipe>: recipe:", the file that had asked for 13 trials).
hostile3_cells_recipe("${hostile3l}/cells_13.yaml" 12 1)
aorta_cli_test(hostile3.scheduled_trials_names_the_flag RC 64 TIMEOUT 30
  CLEAN "${out}/hostile3.scheduled_trials_names_the_flag"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/cells_13.yaml" --trials 1000000
          --output "${out}/hostile3.scheduled_trials_names_the_flag" --dry-run -- /bin/true
  OUTPUT "error: --trials: 13 cell\\(s\\) would run 13000000 trials in all"
  NOT_OUTPUT "cells_13\\.yaml"
  NO_FILES "${out}/hostile3.scheduled_trials_names_the_flag/none")
file(READ "${hostile3l}/cells_4096.yaml" cells_4096_text)
file(WRITE "${hostile3l}/cells_4096_many_trials.yaml" "trials: 3000\n${cells_4096_text}")
aorta_cli_test(hostile3.scheduled_trials_recipe_refused RC 64 TIMEOUT 30
  COMMAND "${aorta}" validate "${hostile3l}/cells_4096_many_trials.yaml"
  OUTPUT "cells_4096_many_trials\\.yaml: recipe: 4096 cell\\(s\\) would run 12288000 trials in all")
# Ten mitigations of their own trials: count and `none`. At 1,000,000 each they ask 10,000,001
# trials: the recipe is the source, refused at load whatever --trials would make of it. At 999,999
# each (9,999,991) the recipe is within the limit and `--trials 20` makes 11 x 20: accepted (it was
# refused, "recipe: ... 10000010 trials", when only the recipe's trials: took the flag's count).
function(hostile3_own_trials_recipe file trials)
  set(axis "none")
  set(defined "")
  foreach(i RANGE 1 10)
    string(APPEND axis ", m${i}")
    string(APPEND defined "  m${i}: {env: {MODE: v${i}}, trials: ${trials}}\n")
  endforeach()
  file(WRITE "${file}" "schema_version: 1\nmode: probe\ncollect: []\n"
    "mitigation_axis: [${axis}]\nmitigations:\n${defined}")
endfunction()
hostile3_own_trials_recipe("${hostile3l}/own_trials_over.yaml" 1000000)
aorta_cli_test(hostile3.scheduled_trials_names_the_recipe RC 64 TIMEOUT 30
  CLEAN "${out}/hostile3.scheduled_trials_names_the_recipe"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/own_trials_over.yaml" --trials 1
          --output "${out}/hostile3.scheduled_trials_names_the_recipe" --dry-run -- /bin/true
  OUTPUT "own_trials_over\\.yaml: recipe: 11 cell\\(s\\) would run 10000001 trials in all"
  NOT_OUTPUT "--trials: 11")
hostile3_own_trials_recipe("${hostile3l}/own_trials_within.yaml" 999999)
aorta_cli_test(hostile3.scheduled_trials_flag_replaces_every_count RC 0 TIMEOUT 30
  CLEAN "${out}/hostile3.scheduled_trials_flag_replaces_every_count"
  COMMAND "${aorta}" sweep run --recipe "${hostile3l}/own_trials_within.yaml" --trials 20
          --output "${out}/hostile3.scheduled_trials_flag_replaces_every_count" --dry-run
          -- /bin/true
  OUTPUT "11 cell\\(s\\), interleaved" "cell m10: mitigations \\[m10\\], collectors \\[\\], 20 trial\\(s\\)")
