#include "sweep/checked_recipe.hpp"

#include "cells/matrix_checks.hpp"
#include "recipe/ab_cells.hpp"
#include "recipe/cell_plan.hpp"
#include "recipe/yaml_read.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace aorta {

std::vector<check_expression> parse_checks(const recipe& spec,
                                           const std::vector<std::string>& extra) {
  std::vector<std::string> cells;
  if (detail::has_cells(spec)) {
    for (const auto& cell : detail::plan_cells(spec)) cells.push_back(cell.name);
  }
  std::vector<check_expression> checks;
  for (const auto& check : spec.checks) {
    try {
      checks.push_back(check_expression::parse(check.expression));
      if (auto why = detail::unknown_cell_reason(checks.back(), cells); !why.empty()) {
        throw usage_error(why);
      }
    } catch (const usage_error& e) {
      throw recipe_error(fmt::format("{}: check: {}", check.where.to_string(), e.what()));
    }
  }
  for (const auto& text : extra) {
    try {
      checks.push_back(check_expression::parse(text));
      if (auto why = detail::unknown_cell_reason(checks.back(), cells); !why.empty()) {
        throw usage_error(why);
      }
    } catch (const usage_error& e) {
      throw usage_error(fmt::format("--check: {}", e.what()));
    }
  }
  return checks;
}

namespace detail {
namespace {

// Who wrote a gate line, for its refusal: the recipe (at its file:line), the flag, or aorta.
enum class gate_source { recipe_key, flag, built_in };

// The one place a gate line of a run is parsed. A recipe's is refused at its key, as the loader
// refuses every other key; the flag's is named by the flag.
gate_spec parse_gate_from(std::string_view text, gate_source source, const recipe* spec) {
  try {
    return parse_gate_spec(text);
  } catch (const usage_error& e) {
    if (source == gate_source::recipe_key) fail_at(spec->gate_where, "recipe.gate", e.what());
    if (source == gate_source::flag) throw usage_error(fmt::format("--gate: {}", e.what()));
    throw;
  }
}

// --gate over the recipe's gate:, else the default gate unless baseline checks were written out.
std::optional<gate_spec> chosen_gate(const sweep_request& request,
                                     std::optional<gate_spec> from_recipe, const recipe& spec,
                                     const std::vector<check_expression>& checks) {
  if (request.gate) return parse_gate_from(*request.gate, gate_source::flag, &spec);
  if (from_recipe) return from_recipe;
  const bool explicit_checks = std::any_of(checks.begin(), checks.end(),
                                           [](const auto& c) { return c.baseline().has_value(); });
  if (explicit_checks) return std::nullopt;
  return parse_gate_from(default_gate_text, gate_source::built_in, &spec);
}

}  // namespace

checked_recipe check_recipe(const sweep_request& request) {
  checked_recipe loaded{load_recipe(request.recipe_path, request.mitigations_files), {}, {}};
  recipe& spec = loaded.spec;
  // The recipe's gate is refused as its other keys are, before anything else is read, and even
  // when --gate replaces it.
  std::optional<gate_spec> from_recipe;
  if (spec.gate) from_recipe = parse_gate_from(*spec.gate, gate_source::recipe_key, &spec);
  if (request.collect_override) apply_collect_override(spec, *request.collect_override);
  if (request.trials) apply_trials_flag(spec, *request.trials);
  if (request.ab_base || request.ab_head) {
    make_ab_cells(spec, {request.ab_base.value_or(""), request.ab_base_directory},
                  {request.ab_head.value_or(""), request.ab_head_directory}, request.command);
  }
  loaded.checks = parse_checks(spec, request.extra_checks);
  loaded.gate = chosen_gate(request, std::move(from_recipe), spec, loaded.checks);
  return loaded;
}

gate_spec parse_gate_flag(std::string_view text) {
  return parse_gate_from(text, gate_source::flag, nullptr);
}

}  // namespace detail
}  // namespace aorta
