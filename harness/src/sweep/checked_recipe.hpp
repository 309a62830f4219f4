// The recipe a run judges by, parsed once: the recipe file as the run's flags change it, its
// checks and the flags' checks, and the gate. `aorta validate`, `aorta check --recipe` and
// `aorta sweep run` take it from here, so the three refuse the same text with the same words (a
// recipe's mistake at its file:line, a flag's named by the flag).
#pragma once

#include "aorta/check.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "baseline/default_gate.hpp"

#include <optional>
#include <vector>

namespace aorta::detail {

struct checked_recipe {
  recipe spec;
  std::vector<check_expression> checks;  // the recipe's, then the --check ones
  // The gate line the run judges by: --gate, else the recipe's gate:, else the default gate
  // unless baseline checks were written out; nullopt: those checks alone are judged.
  std::optional<gate_spec> gate;
};

// Throws recipe_error (a recipe's mistake) or usage_error (a flag's); both exit 64. Reads
// recipe_path, mitigations_files, collect_override, trials, the A/B flags, extra_checks and gate.
[[nodiscard]] checked_recipe check_recipe(const sweep_request& request);

// A `--gate` flag's text parsed by the same code as a run's (`compare`, `bisect`): its refusal
// is named by the flag, as `sweep run --gate` names it.
[[nodiscard]] gate_spec parse_gate_flag(std::string_view text);

}  // namespace aorta::detail
