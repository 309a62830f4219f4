#[=======================================================================[.rst:
AortaProfiling
--------------

Register a program run under a profiler, checked by aorta, as a CTest test.

This module is loaded by ``find_package(Aorta)`` and by ``add_subdirectory()`` of the aorta
source tree; it needs the ``Aorta::aorta`` executable target that both provide.

.. command:: aorta_add_profiled_test

  Add a test that runs ``aorta sweep run`` on a payload::

    aorta_add_profiled_test(
      NAME <name>
      RECIPE <file>
      COMMAND <argv>... | TARGET <target> [ARGS <arg>...]
      [COLLECT <collector>...]
      [CHECK <expression>...]
      [MEASURE <metric>...]
      [GPUS <count>]
      [TIMEOUT <seconds>]
      [WORKING_DIRECTORY <dir>]
      [LABELS <label>...]
      [OUTPUT_DIR <dir>]
      [TRIALS <n>]
      [BASELINE <dir> | history[:<branch>]]
      [GATE <spec>]
      [ENVIRONMENT <var>=<value>...]
      [PROPERTIES <property> <value>...]
      [COMMAND|ARGS ... -- <literal argument>...]
    )

  The test runs::

    aorta sweep run --recipe <file> --output <OUTPUT_DIR>/<name>
                    [--collectors <c1>,<c2>] [--check <expression>]... [--measure <metric>]...
                    [--require-profiler] [--require-checks] --timeout <seconds>
                    --ctest-measurements -- <payload argv>

  and passes when the payload passes and every check holds, fails when either does not, and
  is reported as skipped (``SKIP_RETURN_CODE 77``) when this machine lacks the profiler or the
  GPU the recipe needs.

  No typo passes silently. A word in a list (``ARGS``, ``COMMAND``, ``CHECK``, ``LABELS``, ...)
  that is a keyword in another case (``check``) or an upper-case word within two edits of a
  keyword (``CHECKS``, ``CHEKS``, ``LABEL``, ``ARG``) stops the configure step with "did you
  mean"; so does any unknown argument, in any case. Values are kept exactly as given, as
  ``add_test()`` keeps them: a ``;`` inside a value and an empty ``""`` argument reach aorta and
  the payload unchanged. When
  such a token is really meant for the payload, put it after ``--`` in ``ARGS`` or ``COMMAND``:
  everything after the first ``--`` there is passed literally (a further ``--`` included) and
  ends the keywords, so ``--`` and what follows must come last::

    aorta_add_profiled_test(NAME t RECIPE r.yaml TARGET tool ARGS --mode fast -- CHECKS LABEL)

  The options are:

  ``NAME <name>``
    Required. The CTest test name, also the name of the test's own output directory, so it may
    hold only letters, digits and ``_ . + -`` and must not start with ``.`` or ``-``.

  ``RECIPE <file>``
    Required. The aorta recipe (YAML or JSON) naming the collectors and their options. A
    relative path is taken relative to ``CMAKE_CURRENT_SOURCE_DIR``. The file must exist at
    configure time; editing it re-runs the configure step.

    When an aorta executable is available at configure time, the recipe is validated then
    with ``aorta validate <file> [--collect ...] [--check ...] [--gate ...]`` (so are ``CHECK``
    and ``GATE``) and a bad recipe stops the configure step
    with aorta's own message. The executable used is ``AORTA_EXECUTABLE`` when that variable
    is set, otherwise the ``IMPORTED_LOCATION`` of an imported ``Aorta::aorta`` (the case
    after ``find_package(Aorta)``). When aorta is built by the same project (the
    ``add_subdirectory()`` case) it does not exist yet at configure time, so validation is
    skipped; a bad recipe then makes the test fail with exit code 64 and the same message.
    Set ``AORTA_VALIDATE_RECIPES`` to ``OFF`` to skip validation altogether.

  ``COMMAND <argv>...``
    The payload command line, run as given (no shell). Generator expressions are allowed.
    Exactly one of ``COMMAND`` and ``TARGET`` is required.

  ``TARGET <target>``
    An executable target of this project (or an imported one) to run as the payload, through
    ``$<TARGET_FILE:<target>>``. The target's ``TEST_LAUNCHER`` property and, when
    cross-compiling, its ``CROSSCOMPILING_EMULATOR`` property prefix the payload in that order,
    as ``add_test()`` does for its own targets. Both are read when this function is called
    (``add_test()`` cannot split a list that a generator expression yields), so set them before
    the call; ``CMAKE_TEST_LAUNCHER`` and ``CMAKE_CROSSCOMPILING_EMULATOR`` do that when the
    target is created.

  ``ARGS <arg>...``
    Arguments for the ``TARGET`` payload. Only valid with ``TARGET``.

  ``COLLECT <collector>...``
    Override the recipe's collector list (``--collect``); the recipe's option blocks are kept
    for the collectors named here. Default: the recipe's own ``collect:`` list.

  ``CHECK <expression>...``
    Check expressions evaluated after the run, in addition to the recipe's ``check:`` list,
    each passed as one ``--check`` argument, e.g. ``"count(add_kernel) == 20"``. They are
    parsed at configure time together with the recipe (``aorta validate <recipe> --check
    <expression>...``) when an aorta executable exists then; see ``RECIPE`` for when it does
    not (the test then fails at its start with exit 64 and the parser's message).

    A test with no check at all (none here, none in the recipe) judges only the payload's exit
    status and says so in its output (``no checks ran``). With the option
    ``AORTA_REQUIRE_CHECKS`` ``ON`` such a test fails with exit 64 instead. The regression gate
    counts as a check: a test with ``BASELINE`` or ``GATE`` is not refused.

  ``MEASURE <metric>...``
    Metrics shown in the test's output and reported to CTest/CDash as ``<CTestMeasurement>``
    besides those the checks read (``--measure``); ``all`` shows every metric but callgrind's
    dynamic-loader and libc functions. Default: ``AORTA_DEFAULT_MEASURE``. Each check's
    computed value is always a measurement, named ``check: <expression>``.

  ``GPUS <count>``
    How many GPUs the test needs, a whole number from 0 to 1048576 (refused at configure
    time otherwise; CTest would abort on a number past 64 bits). Default: ``AORTA_DEFAULT_GPUS``,
    else ``0``. When above ``0`` the test gets ``RESOURCE_GROUPS`` asking for ``<count>``
    distinct GPUs (``gpus:1`` groups), so ``ctest -j --resource-spec-file <spec>`` never gives
    one GPU to two tests at once; aorta maps the ids CTest hands out
    (``CTEST_RESOURCE_GROUP_<i>_GPUS``) onto ``CUDA_VISIBLE_DEVICES`` (NVIDIA) or
    ``ROCR_VISIBLE_DEVICES`` (AMD) itself, never ``HIP_VISIBLE_DEVICES``, which Proton on AMD
    refuses.

  ``TIMEOUT <seconds>``
    The CTest ``TIMEOUT`` of the test, 0.001 to 2592000 seconds (a recipe ``timeout``'s range).
    Default: ``AORTA_DEFAULT_TIMEOUT``, else ``600``. aorta
    gets ``--timeout`` a tenth less (at most 10 s less), so it stops the payload itself and
    records the timeout in ``result.json`` (and the report) before CTest would kill it; a
    shorter recipe ``timeout`` still wins.

  ``WORKING_DIRECTORY <dir>``
    Where the test runs. Default: ``CMAKE_CURRENT_BINARY_DIR``.

  ``LABELS <label>...``
    Extra CTest labels, after ``AORTA_DEFAULT_LABELS``. Every test is labelled ``profiling``
    and ``aorta:<collector>`` for each collector: those of ``COLLECT`` when given, otherwise
    the names found by a simple line scan of the recipe's top-level ``collect:`` key (a flow
    list ``[a, b]``, a block list ``- a`` or a block mapping ``a:``); when the scan finds
    nothing it can read, the label is just ``aorta``. A recipe with cells adds the collectors
    of the diagnostics on its ``diagnostic_axis`` (scanned the same way), since their cells run
    them. So ``ctest -L aorta:callgrind`` runs every callgrind test.

  ``OUTPUT_DIR <dir>``
    The root of all results. The test writes into ``<dir>/<name>`` (one directory per test,
    so ``ctest -j`` never mixes two tests' files). A relative path is taken relative to
    ``CMAKE_BINARY_DIR``. Default: ``AORTA_DEFAULT_OUTPUT_DIR``, else
    ``${CMAKE_BINARY_DIR}/aorta-results``.

  ``TRIALS <n>``
    How many times the payload runs (``--trials``, replacing the recipe's ``trials:``), 1 to
    1000000 as ``--trials``. Default: ``AORTA_DEFAULT_TRIALS``, else the recipe's own count.

  ``BASELINE <dir>`` or ``BASELINE history[:<branch>]``
    The regression gate (``docs/regression-gate.md``): judge this run against
    ``<dir>/<name>.json``, recorded earlier on the same kind of machine; or, with
    ``history`` or ``history:<branch>``, against the branch's trials of the test ``<name>``
    in the store ``AORTA_HISTORY_STORE`` (which must then be set) since its last change
    point, at most ``AORTA_HISTORY_BASELINE_COMMITS`` commits (empty: 20) (``--baseline
    history[:BRANCH] --history <store>``, ``docs/history.md``). ``history`` alone takes the
    branch git has checked out in the test's working directory. A directory named ``history``
    is given as ``./history``. With history, a store without the test's trials on the branch
    is a failure, never a skip, and there is no ``aorta_baseline.<name>`` target. A relative path is
    taken relative to ``CMAKE_CURRENT_SOURCE_DIR`` (baselines live in the source tree and are
    reviewed as diffs). Default: ``AORTA_DEFAULT_BASELINE``, else no gate. A missing baseline or
    one from another machine is a skip naming the fix, a failure with
    ``AORTA_REQUIRE_BASELINE=ON``. Each test with a baseline adds a target
    ``aorta_baseline.<name>`` to ``aorta_baselines``, which records the last ctest run's results
    into the baseline folder: ``cmake --build <build> --target aorta_baselines``. A recipe
    with cells (which are judged against each other) takes no ``BASELINE``, ``GATE`` or
    ``CHECK`` against ``baseline``: with an aorta at configure time, each is refused then.

  ``GATE <spec>``
    The default gate against the baseline (``--gate``), e.g. ``"time +5%, count exact"``.
    Default: ``AORTA_DEFAULT_GATE``, else the recipe's ``gate:``, else
    ``time +5%, count exact, cycles +5%, ir exact, samples +5%`` when no ``CHECK`` compares with
    ``baseline``.

  ``ENVIRONMENT <var>=<value>...``
    Set as the test's ``ENVIRONMENT`` property (aorta passes it on to the payload).

  ``PROPERTIES <property> <value>...``
    Further test properties, applied last with ``set_tests_properties()``, so they override
    any property set above.

  ``cmake --build <build> --target aorta_profiled_tests`` builds what the profiled tests run:
  aorta itself when the project builds it (the ``add_subdirectory()`` case) and each ``TARGET``
  payload, nothing else; ``ctest -L profiling`` can follow without building the whole project.

  Properties set on every test: ``LABELS`` (above), ``SKIP_RETURN_CODE 77``, ``TIMEOUT``,
  ``ATTACHED_FILES <OUTPUT_DIR>/<name>/trial_0/result.json`` (for CDash, pass or fail; for a
  recipe with cells, the files such a run writes: ``<OUTPUT_DIR>/<name>/matrix.json`` and
  ``matrix.md``),
  ``FIXTURES_REQUIRED aorta_report`` and ``RESOURCE_GROUPS`` when ``GPUS`` is above ``0``;
  with CMake 3.27 or newer also ``TIMEOUT_SIGNAL_NAME SIGTERM`` and
  ``TIMEOUT_SIGNAL_GRACE_PERIOD 10``, so a CTest timeout reaches the payload's whole process
  group through aorta instead of killing aorta alone. Give the recipe a ``timeout`` below the
  test's ``TIMEOUT`` to have aorta itself stop the payload and record why.

  The first test written to a given ``OUTPUT_DIR`` root also registers the report test
  ``aorta_report`` (``aorta report <OUTPUT_DIR>``, label ``profiling``, ``report.html``
  attached) as the cleanup of the fixture ``aorta_report``, and ``aorta_report.begin``
  (``aorta report --begin-run <OUTPUT_DIR>``) as its setup, so the aggregate ``perf.md``,
  ``report.json`` and HTML report are written once after the last profiled test and cover the
  tests of this ``ctest`` invocation: results left by earlier runs are listed as stale with their
  date, not aggregated. When no test wrote anything the report says ``0 trials`` and passes. A
  second root gets ``aorta_report.2`` (and ``aorta_report.2.begin``), and so on.

  When ``AORTA_HISTORY_STORE`` is set (an SQLite file, relative to the top build directory unless
  absolute, or a ``postgresql://`` URL; empty, the default, means none), each report fixture also
  gets the cleanup test ``aorta_report.history`` (``aorta_report.2.history``, ...), which runs
  after the report: ``aorta history add <OUTPUT_DIR> --history <store>`` in
  ``CMAKE_SOURCE_DIR``, so the commit and branch are those of the project's git checkout
  (``docs/history.md``). Results already in the store are left out, so each ``ctest`` run adds
  the runs it wrote.

  When the option ``AORTA_REQUIRE_PROFILER`` is ``ON`` the test passes ``--require-profiler``:
  a missing profiler or GPU is then a failure (exit 1, ``required profiler unavailable:
  <reason>``) instead of a skip. Use it on CI lanes that own the hardware.

  ``AORTA_LANE_PLATFORMS`` (e.g. ``nvidia``, ``amd``, ``cpu,nvidia``; empty means all) names the
  platforms a lane covers and is passed as ``--platforms``. A test whose recipe can only capture
  elsewhere (``rocprof`` or a Proton AMD backend on an NVIDIA lane, ``callgrind`` on a GPU-only
  lane) is then Skipped as *not applicable*, even with ``AORTA_REQUIRE_PROFILER``; the tests that
  belong on the lane still fail when their profiler is missing.

  Project-wide defaults, read at each call: ``AORTA_DEFAULT_TIMEOUT``,
  ``AORTA_DEFAULT_LABELS``, ``AORTA_DEFAULT_OUTPUT_DIR``, ``AORTA_DEFAULT_GPUS``,
  ``AORTA_DEFAULT_MEASURE``, ``AORTA_DEFAULT_TRIALS``, ``AORTA_DEFAULT_BASELINE``,
  ``AORTA_DEFAULT_GATE``.

Usage example
^^^^^^^^^^^^^

.. code-block:: cmake

  find_package(Aorta 0.1 REQUIRED)
  enable_testing()

  add_executable(hot_loop hot_loop.cpp)
  aorta_add_profiled_test(NAME hot_loop.callgrind
    RECIPE ${CMAKE_CURRENT_SOURCE_DIR}/callgrind.yaml
    TARGET hot_loop ARGS --iterations 1000
    CHECK "ir(expensive) / ir(cheap) >= 10")

  aorta_add_profiled_test(NAME vecadd
    RECIPE recipe.yaml
    GPUS 1
    CHECK "count(add_kernel) == 20" "proton_gpu_time_ms < 5"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/vecadd.py --iters 20)

Then ``ctest -L profiling`` runs both, and
``ctest -L profiling -j8 --resource-spec-file gpus.json`` spreads them over the GPUs that
``ci/make-resource-spec.sh`` listed in ``gpus.json``.
#]=======================================================================]

include_guard(GLOBAL)

# Cache entries are global, so a consumer of the installed package gets the same switches as
# aorta's own build; option() leaves a value that is already set alone.
option(AORTA_REQUIRE_PROFILER
  "Fail (instead of skip) profiled tests whose profiler or GPU is missing" OFF)
option(AORTA_REQUIRE_CHECKS
  "Fail (exit 64) profiled tests that have no check at all, from CHECK or the recipe" OFF)
option(AORTA_REQUIRE_BASELINE
  "Fail (instead of skip) gated tests whose baseline is missing or from another machine" OFF)
option(AORTA_VALIDATE_RECIPES
  "Validate recipes with an existing aorta executable at configure time" ON)
set(AORTA_LANE_PLATFORMS "" CACHE STRING
  "Platforms this test lane covers (cpu, nvidia, amd, comma-separated); empty means all")
set(AORTA_HISTORY_STORE "" CACHE STRING
  "History store that ctest adds its results to: SQLite path or postgresql:// URL; empty: none")
set(AORTA_HISTORY_BASELINE_COMMITS "" CACHE STRING
  "BASELINE history: at most this many commits since the last change point; empty: aorta's 20")
set(AORTA_EXECUTABLE "" CACHE FILEPATH
  "An aorta executable used to validate recipes at configure time (optional)")
mark_as_advanced(AORTA_VALIDATE_RECIPES AORTA_EXECUTABLE)

block(SCOPE_FOR POLICIES)
cmake_policy(VERSION 3.25)

# The _aorta_* helpers; the path is this file's own directory, read while it is being included.
include("${CMAKE_CURRENT_LIST_DIR}/AortaProfilingArguments.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AortaProfilingSettings.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AortaProfilingInternals.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AortaProfilingRecipeScan.cmake")

# What the profiled tests run: `cmake --build <build> --target aorta_profiled_tests` builds aorta
# (when this project builds it) and every TARGET payload, and nothing else.
if(NOT TARGET aorta_profiled_tests)
  add_custom_target(aorta_profiled_tests)
endif()

function(aorta_add_profiled_test)
  # Forwarded one quoted argument at a time: ${ARGV} would split values holding `;` and drop
  # empty ones, which add_test() keeps.
  set(arguments "")
  set(index 0)
  while(index LESS ARGC)
    _aorta_code_append(arguments "${ARGV${index}}")
    math(EXPR index "${index} + 1")
  endwhile()
  cmake_language(EVAL CODE "_aorta_parse_profiled_test_arguments(${arguments})")
  _aorta_resolve_profiled_test_settings()

  if(NOT TARGET Aorta::aorta)
    if(AORTA_EXECUTABLE)
      add_executable(Aorta::aorta IMPORTED GLOBAL)
      set_target_properties(Aorta::aorta PROPERTIES IMPORTED_LOCATION "${AORTA_EXECUTABLE}")
    else()
      message(FATAL_ERROR "${fn}: there is no Aorta::aorta target; call find_package(Aorta) "
        "or add_subdirectory() of the aorta sources first, or set AORTA_EXECUTABLE.")
    endif()
  endif()

  set(collect_joined "")
  if(count_COLLECT GREATER 0)
    _aorta_keyword_code(COLLECT collect_code)
    cmake_language(EVAL CODE "set(collectors ${collect_code})")
    list(JOIN collectors "," collect_joined)
  else()
    _aorta_scan_recipe_collectors("${recipe}" collectors)
  endif()
  # A diagnostic's cells run its collectors in place of these: label the test with them too.
  _aorta_scan_recipe_cells("${recipe}" has_cells diagnostic_collectors)
  list(APPEND collectors ${diagnostic_collectors})
  list(REMOVE_DUPLICATES collectors)

  # Re-run the configure step (and so the validation) whenever the recipe changes.
  string(REPLACE ";" "\\;" recipe_dependency "${recipe}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${recipe_dependency}")
  _aorta_validate_at_configure_time()
  if(NOT baseline_dir STREQUAL "")
    _aorta_baseline_target("${arg_NAME}" "${output_dir}" "${baseline_dir}")
  endif()
  _aorta_register_profiled_test("${collectors}")
endfunction()

endblock()
