// Process timing modes for the seeded replays of the cells judge (cells_modes_replay_test.cpp) and
// the regression gate (gate_modes_replay_test.cpp): each process settles in the fast or the slow
// mode with even odds, with lognormal noise of its own.
//   - cuda_events: the H100 CUDA-event GEMM (benchmarks/gpu-2026-12-06/gemm-modes.json), 30 or
//     45 us, 3% / 6% noise.
//   - triton_tiles: the H100 Triton GEMM whose processes draw one of two tile configurations
//     (benchmarks/gpu-2026-12-06d/h39), 23.75 or 25.79 us, 1.0% / 1.4% noise: closer together than
//     the change the judges look for, yet their mix moves an A/A past the threshold.
// modes_payload.cpp draws the same per launch (MODES_MODEL names the model).
#pragma once

#include <cmath>
#include <random>

namespace aorta::test {

struct process_mode_model {
  const char* label;          // prefix of the replay's printed line
  const char* payload_model;  // MODES_MODEL of modes_payload.cpp
  double fast_ms, slow_ms, fast_spread, slow_spread;
};

inline constexpr process_mode_model cuda_events{"", "", 0.030, 0.045, 0.03, 0.06};
inline constexpr process_mode_model triton_tiles{"tile modes, ", "tiles", 0.02375,
                                                 0.02579,        0.010,   0.014};

// One process's steady time (the median of its launches after the warm-up rule is within the
// launch noise of it).
inline double process_time_ms(std::mt19937_64& engine, double shift,
                              const process_mode_model& model) {
  const bool slow = std::bernoulli_distribution(0.5)(engine);
  const double noise =
      std::normal_distribution<double>(0.0, slow ? model.slow_spread : model.fast_spread)(engine);
  return (slow ? model.slow_ms : model.fast_ms) * std::exp(noise) * (1.0 + shift);
}

}  // namespace aorta::test
