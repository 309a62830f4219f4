// A simulated GPU benchmark for the multi-modal replay (cells_modes_replay_test.cpp): one process
// = one trial, writing Google Benchmark JSON as the gbench collector asks (--benchmark_out=PATH).
// Each process settles in one of two modes, 30 us or 45 us with probability 1/2 (the H100 GEMM of
// benchmarks/gpu-2026-12-06/gemm-modes.json), with lognormal process noise of 3% (fast mode) or
// 6% (slow mode), 2% launch noise, and 20 launches of which the first three are 8x, 5x and 1.5x
// slow (warm-up). MODES_SHIFT (a cell's environment) makes every launch 1 + shift slower.
// MODES_MODEL=tiles draws instead the modes of a Triton GEMM whose processes pick one of two tile
// configurations (benchmarks/gpu-2026-12-06d/h39, H100): 23.75 us or 25.79 us, 1.0% / 1.4% process
// noise, 1.5% launch noise.
// The seed is MODES_SEED and the trial's place in the output directory (cell/trial_N), so a
// replay is the same on every machine.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

// "<cell>/trial_<N>" from ".../<cell>/trial_<N>/gbench/gbench.json".
std::string trial_place(const std::string& out) {
  const std::filesystem::path trial = std::filesystem::path(out).parent_path().parent_path();
  return (trial.parent_path().filename() / trial.filename()).string();
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--benchmark_out=", 16) == 0) out = argv[i] + 16;
  }
  if (out.empty()) {
    std::fprintf(stderr, "modes_payload: needs --benchmark_out=PATH (run it under gbench)\n");
    return 64;
  }
  const char* seed = std::getenv("MODES_SEED");
  const char* shift = std::getenv("MODES_SHIFT");
  const char* model = std::getenv("MODES_MODEL");
  const bool tiles = model != nullptr && std::strcmp(model, "tiles") == 0;
  std::mt19937_64 engine(fnv1a(std::string(seed ? seed : "0") + "|" + trial_place(out)));
  const bool slow = std::bernoulli_distribution(0.5)(engine);
  const double spread = tiles ? (slow ? 0.014 : 0.010) : (slow ? 0.06 : 0.03);
  const double process = std::exp(std::normal_distribution<double>(0.0, spread)(engine));
  const double mode_us = tiles ? (slow ? 25.79 : 23.75) : (slow ? 45.0 : 30.0);
  const double scale = mode_us * process * (1.0 + (shift ? std::atof(shift) : 0.0));
  std::normal_distribution<double> launch_noise(0.0, tiles ? 0.015 : 0.02);
  FILE* file = std::fopen(out.c_str(), "w");
  if (file == nullptr) return 1;
  std::fprintf(file,
               "{\"context\": {\"num_cpus\": 1, \"mhz_per_cpu\": 0, \"json_schema_version\": 1},\n"
               "\"benchmarks\": [\n");
  constexpr int launches = 20;
  const double warmup[] = {8.0, 5.0, 1.5};
  for (int i = 0; i < launches; ++i) {
    const double us = scale * std::exp(launch_noise(engine)) * (i < 3 ? warmup[i] : 1.0);
    std::fprintf(
        file,
        "{\"name\": \"BM_gemm\", \"run_type\": \"iteration\", \"repetitions\": %d, "
        "\"repetition_index\": %d, \"threads\": 1, \"iterations\": 1, \"real_time\": %.4f, "
        "\"cpu_time\": %.4f, \"time_unit\": \"us\"}%s\n",
        launches, i, us, us, i + 1 < launches ? "," : "");
  }
  std::fprintf(file, "]}\n");
  return std::fclose(file) == 0 ? 0 : 1;
}
