#include "baseline/default_gate.hpp"

#include "baseline/pc_sample_gate.hpp"

#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "metrics/display_names.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace aorta::detail {

std::optional<ambiguous_policy> parse_ambiguous_policy(std::string_view word) {
  if (word == "fail") return ambiguous_policy::fail;
  if (word == "skip") return ambiguous_policy::skip;
  if (word == "pass") return ambiguous_policy::pass;
  return std::nullopt;
}

namespace {

[[noreturn]] void bad_item(std::string_view text, std::string_view item, std::string_view why) {
  throw usage_error(fmt::format("gate '{}': item '{}' {}. Example: gate: \"{}, alpha 0.05, "
                                "max_trials 30\"",
                                text, item, why, default_gate_text));
}

double read_double(std::string_view text, std::string_view item, std::string_view number) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc{} || end != number.data() + number.size() || !std::isfinite(value) ||
      value < 0) {
    bad_item(text, item, fmt::format("needs a non-negative number, not '{}'", number));
  }
  return value;
}

// "exact" -> 0; "+5%" -> 0.05.
double read_tolerance(std::string_view text, std::string_view item, std::string_view value,
                      bool exact_allowed) {
  if (value == "exact") {
    if (!exact_allowed) {
      bad_item(text, item, "is timed, so it needs a tolerance such as '+5%', not 'exact'");
    }
    return 0.0;
  }
  if (value.starts_with("+-") || value.starts_with("-")) {
    bad_item(text, item, "takes an upward tolerance only: '+5%' (the gate fails on slower, "
                         "never on faster)");
  }
  if (!value.starts_with("+")) bad_item(text, item, "needs '+N%' or 'exact' after the name");
  value.remove_prefix(1);
  if (!value.ends_with("%")) {
    bad_item(text, item, fmt::format("has no unit: write '+{}%'", value));
  }
  value.remove_suffix(1);
  return read_double(text, item, value) / 100.0;
}

gate_row make_row(const std::string& test, std::string label, check_quantity quantity, bool exact,
                  double fraction) {
  gate_row row;
  row.test = test;
  row.label = std::move(label);
  row.quantity = quantity;
  row.exact = exact;
  row.op = (exact && fraction == 0.0) ? compare_op::equal : compare_op::less_equal;
  row.fraction = fraction;
  row.bound_text = row.op == compare_op::equal
                       ? "== baseline"
                       : fmt::format("<= baseline + {:g}%", fraction * 100.0);
  return row;
}

// The tolerance the spec gives the default gate's item ("time", "count", ...); nullopt: not gated.
std::optional<double> tolerance_of(const gate_spec& spec, std::string_view gate_item) {
  if (gate_item == "time") return spec.time;
  if (gate_item == "count") return spec.count;
  if (gate_item == "cycles") return spec.cycles;
  if (gate_item == "ir") return spec.ir;
  if (gate_item == "ncu") return spec.ncu;
  return std::nullopt;
}

// Values of `key` over the trials that have it.
template <typename Get>
std::vector<double> gate_column(const measured_test& test, Get get) {
  std::vector<double> values;
  for (const auto& trial : test.trials) {
    if (const auto value = get(trial)) values.push_back(*value);
  }
  return values;
}

// A function's Ir that moved by less than 0.1% of the whole program's is no regression of the
// program: the dynamic loader's functions move by that much with the environment's size.
double ir_noise_floor(const measured_test& base) {
  std::vector<double> totals;
  for (const auto& trial : base.trials) {
    if (const auto found = trial.metrics.find(std::string(callgrind_total_ir_metric));
        found != trial.metrics.end()) {
      totals.push_back(found->second);
    }
  }
  if (totals.empty()) return 0.0;
  std::sort(totals.begin(), totals.end());
  return 0.001 * totals[totals.size() / 2];
}

// A kernel, scope or function exists on a side when more than half of its trials saw it: one
// trial's cold-cache autotune kernel is neither NEW nor GONE (docs/regression-gate.md).
bool present_in_majority(std::size_t seen, const measured_test& side) {
  return 2 * seen > side.trials.size();
}

std::vector<gate_row> kernel_gate_rows(const gate_spec& spec, const measured_test& base,
                                       const measured_test& fresh, const std::string& name) {
  std::size_t seen_base = 0;
  std::size_t seen_fresh = 0;
  for (const auto& trial : base.trials) seen_base += trial.kernels.count(name);
  for (const auto& trial : fresh.trials) seen_fresh += trial.kernels.count(name);
  const bool in_base = present_in_majority(seen_base, base);
  const bool in_fresh = present_in_majority(seen_fresh, fresh);
  std::vector<gate_row> rows;
  if (!in_base && !in_fresh) return rows;  // sporadic on both sides: nothing to gate
  const auto sample_of = [&](auto get) {
    return [&name, get](const trial_snapshot& t) -> std::optional<double> {
      const auto found = t.kernels.find(name);
      if (found == t.kernels.end()) return std::nullopt;
      return get(found->second);
    };
  };
  const auto fill = [&](gate_row& row, auto get) {
    if (in_base) row.base = gate_column(base, sample_of(get));
    if (in_fresh) row.fresh = gate_column(fresh, sample_of(get));
  };
  for (const auto& declared : quantity_table()) {
    if (declared.source != value_source::kernels) continue;
    const auto fraction = tolerance_of(spec, declared.gate_item);
    if (!fraction) continue;
    const bool exact = declared.timing == quantity_timing::exact;
    auto row = make_row(base.test, quantity_label(declared, name), declared.quantity, exact,
                        *fraction);
    // A time the profiler could not give (null total_ms) is no sample, never a 0 ms one.
    fill(row, [quantity = declared.quantity](const kernel_sample& s) -> std::optional<double> {
      const auto value = kernel_sample_value(s, quantity);
      return value && std::isfinite(*value) ? value : std::nullopt;
    });
    // A side whose profiler gave no launch count for most trials has no count to compare: the
    // row is not gated (its time row still is), rather than a GONE that fails.
    const bool base_known = !in_base || present_in_majority(row.base.size(), base);
    const bool fresh_known = !in_fresh || present_in_majority(row.fresh.size(), fresh);
    if (!exact || (base_known && fresh_known)) rows.push_back(std::move(row));
  }
  return rows;
}
}  // namespace

gate_spec parse_gate_spec(std::string_view text) {
  gate_spec spec;
  std::set<std::string, std::less<>> seen;
  std::string_view rest = text;
  // Every comma is followed by an item, so "time +5%," is refused rather than read as "time +5%".
  bool more = !text.empty();
  while (more) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    more = comma != std::string_view::npos;
    rest = more ? rest.substr(comma + 1) : std::string_view{};
    if (item.empty()) {
      bad_item(text, item, "is empty (a comma with nothing after it, or two in a row)");
    }
    if (item == "none") continue;
    const auto space = item.find_first_of(" \t");
    if (space == std::string_view::npos) bad_item(text, item, "needs a value after the name");
    const std::string_view name = item.substr(0, space);
    const std::string_view value = trim(item.substr(space));
    if (!seen.insert(std::string(name)).second) bad_item(text, item, "is given twice");
    if (name == "time") {
      spec.time = read_tolerance(text, item, value, false);
    } else if (name == "cycles") {
      spec.cycles = read_tolerance(text, item, value, false);
    } else if (name == "count") {
      spec.count = read_tolerance(text, item, value, true);
    } else if (name == "ir") {
      spec.ir = read_tolerance(text, item, value, true);
    } else if (name == "ncu") {
      spec.ncu = read_tolerance(text, item, value, true);
    } else if (name == "samples") {
      spec.samples = read_tolerance(text, item, value, false);
      if (*spec.samples >= 1.0) bad_item(text, item, "moves at most 100 points: '+5%'");
    } else if (name == "straggler") {
      spec.straggler = read_tolerance(text, item, value, false);
    } else if (name == "alpha") {
      spec.params.alpha = read_double(text, item, value);
      spec.alpha_given = true;
      if (spec.params.alpha <= 0 || spec.params.alpha >= 0.5) {
        bad_item(text, item, "must be between 0 and 0.5 (0.05 is usual)");
      }
    } else if (name == "floor") {
      spec.floor_multiple = value == "off" ? 0.0 : read_double(text, item, value);
      if (spec.floor_multiple > 10) {
        bad_item(text, item, "takes a multiple of the row's noise from 0 to 10 (1 is the default), "
                             "or 'off'");
      }
    } else if (name == "card") {
      if (value != "same" && value != "any") bad_item(text, item, "takes 'same' or 'any'");
      spec.same_card = value == "same";
    } else if (name == "ambiguous") {
      spec.ambiguous = parse_ambiguous_policy(value);
      if (!spec.ambiguous) {
        bad_item(text, item, "takes 'fail', 'skip' or 'pass' (what a row still AMBIGUOUS when "
                             "the trial budget is spent does)");
      }
    } else if (name == "max_trials") {
      const double trials = read_double(text, item, value);
      if (trials != std::floor(trials) || trials < 1 || trials > 10000) {
        bad_item(text, item, "must be a whole number of trials, 1..10000");
      }
      spec.params.max_trials = static_cast<int>(trials);
    } else {
      bad_item(text, item,
               "is unknown; items are time, count, cycles, ir, ncu, samples, straggler, alpha, "
               "max_trials, card, floor, ambiguous, none");
    }
  }
  return spec;
}

std::vector<gate_row> default_gate_rows(const gate_spec& spec, const measured_test& base,
                                        const measured_test& fresh) {
  std::set<std::string> kernels;
  std::set<std::string> metric_keys;
  for (const auto* test : {&base, &fresh}) {
    for (const auto& trial : test->trials) {
      for (const auto& [name, sample] : trial.kernels) kernels.insert(name);
      for (const auto& [key, value] : trial.metrics) metric_keys.insert(key);
    }
  }
  std::vector<gate_row> rows;
  for (const auto& name : kernels) {
    auto kernel_rows = kernel_gate_rows(spec, base, fresh, name);
    rows.insert(rows.end(), kernel_rows.begin(), kernel_rows.end());
  }
  for (const auto& key : metric_keys) {
    const quantity_declaration* declared = declaration_of_metric(key);
    if (declared == nullptr) continue;
    const auto fraction = tolerance_of(spec, declared->gate_item);
    if (!fraction) continue;
    const std::string_view name = std::string_view(key).substr(declared->metric_prefix.size());
    const check_quantity quantity = declared->quantity;
    auto row = make_row(base.test, quantity_label(*declared, name), quantity,
                        declared->timing == quantity_timing::exact, *fraction);
    const auto get = [&](const trial_snapshot& t) -> std::optional<double> {
      const auto found = t.metrics.find(key);
      if (found == t.metrics.end()) return std::nullopt;
      return found->second;
    };
    row.base = gate_column(base, get);
    row.fresh = gate_column(fresh, get);
    if (!present_in_majority(row.base.size(), base) && !present_in_majority(row.fresh.size(), fresh)) {
      continue;
    }
    if (!present_in_majority(row.base.size(), base)) row.base.clear();
    if (!present_in_majority(row.fresh.size(), fresh)) row.fresh.clear();
    // Ir moves by a few instructions with the environment: the program's share decides.
    if (declared->source == value_source::functions) {
      row.noise_floor = ir_noise_floor(base);
      row.system_frame = is_system_frame(name);
    }
    rows.push_back(std::move(row));
  }
  for (auto& row : rows) raise_to_noise_floor(row, spec.floor_multiple);
  if (spec.samples) {
    auto sampled = pc_sample_gate_rows(*spec.samples, base, fresh);
    rows.insert(rows.end(), sampled.begin(), sampled.end());
  }
  return rows;
}

std::vector<gate_row> check_rows(const std::vector<check_expression>& checks,
                                 const measured_test& base, const measured_test& fresh) {
  std::vector<gate_row> rows;
  for (const auto& check : checks) {
    if (!check.baseline()) continue;
    gate_row row;
    row.test = base.test;
    row.label = check.text();
    row.quantity = check.quantity();
    row.exact = is_exact_quantity(check.quantity(), check.argument());
    row.op = check.op();
    row.fraction = check.baseline()->fraction;
    row.bound_text = fmt::format("{} {}", to_string(check.op()), check.baseline()->text);
    std::string why;
    row.base = measure_all(check, base, why);
    row.fresh = measure_all(check, fresh, why);
    if (!row.base.empty() && row.fresh.empty()) {
      // Measured in the baseline, not now: the kernel or function vanished, which fails as GONE
      // in `compare` too (an UNKNOWN row fails only `sweep run --baseline`).
      row.evidence = fmt::format("not measured in the new run: {}", why.empty() ? "-" : why);
    } else if (row.base.empty() || row.fresh.empty()) {
      row.why_unknown = why.empty() ? "not measured" : why;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace aorta::detail
