// What `aorta sweep run` adds around a payload: /bin/true alone against /bin/true under aorta with
// no collector (recipe load, trial directory, command.json, teeing, result.json). Target: under
// 5 ms added, median of the repetitions.
#include "aorta/launch_plan.hpp"
#include "process/process.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

fs::path scratch_dir() {
  static const fs::path dir = [] {
    fs::path path = fs::temp_directory_path() / ("aorta-overhead-" + std::to_string(::getpid()));
    fs::create_directories(path);
    std::ofstream(path / "recipe.yaml") << "schema_version: 1\nmode: probe\ntrials: 1\n"
                                           "mitigation_axis: [none]\ndiagnostic_axis: [none]\n";
    return path;
  }();
  return dir;
}

void run_quietly(benchmark::State& state, std::vector<std::string> argv) {
  aorta::process_spec spec;
  spec.argv = std::move(argv);
  spec.environment = aorta::current_environment();
  spec.echo = false;
  for (auto _ : state) {
    const auto result = aorta::run_process(spec);
    if (!result.succeeded()) {
      state.SkipWithError(("command failed: " + result.describe()).c_str());
      break;
    }
  }
}

void true_alone(benchmark::State& state) {
  run_quietly(state, {"/bin/true"});
}

// The build's path is baked in; AORTA_BENCH_AORTA points at a copy elsewhere (a build carried to
// another machine).
std::string aorta_executable() {
  const char* override_path = std::getenv("AORTA_BENCH_AORTA");
  return override_path != nullptr && *override_path != '\0' ? override_path : AORTA_EXECUTABLE;
}

void true_under_aorta(benchmark::State& state) {
  const fs::path dir = scratch_dir();
  run_quietly(state,
              {aorta_executable(), "sweep", "run", "--recipe", (dir / "recipe.yaml").string(),
               "--output", (dir / "out").string(), "--", "/bin/true"});
}

BENCHMARK(true_alone)->Unit(benchmark::kMillisecond)->Repetitions(15)->ReportAggregatesOnly(true);
BENCHMARK(true_under_aorta)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(15)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
