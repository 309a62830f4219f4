#include "recipe/cell_plan.hpp"

#include "option_text.hpp"
#include "recipe/yaml_read.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace aorta::detail {
namespace {

// Files aorta writes beside the cell directories (result.json: the refusal record of a run that
// never started).
constexpr std::array<std::string_view, 7> reserved_cell_names{
    "matrix.json", "matrix.md", "perf.md", "report.json", "report.html", "gate.json", "result.json"};

// Every mitigation by name, built once: resolving an axis entry looks names up here instead of
// scanning the definitions (which made 10^5 entries on the axis take 637 s).
using mitigation_index = std::unordered_map<std::string_view, const mitigation_def*>;

mitigation_index index_mitigations(const recipe& spec) {
  mitigation_index index;
  index.reserve(spec.mitigations.size());
  for (const auto& m : spec.mitigations) index.emplace(m.name, &m);
  return index;
}

std::vector<std::string> split_plus(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t plus = text.find('+', start);
    parts.emplace_back(trim(text.substr(start, plus == std::string::npos ? plus : plus - start)));
    if (plus == std::string::npos) return parts;
    start = plus + 1;
  }
}

std::string join_plus(const std::vector<std::string>& parts) {
  std::string joined;
  for (const auto& part : parts) joined += (joined.empty() ? "" : "+") + part;
  return joined;
}

std::vector<std::string> defined_names(const recipe& spec, bool mitigations) {
  std::vector<std::string> names{no_change_name};
  if (mitigations) {
    for (const auto& m : spec.mitigations) names.push_back(m.name);
  } else {
    for (const auto& d : spec.diagnostics) names.push_back(d.name);
  }
  return names;
}

// The first names of a list that may hold 10^5 of them: a message names a few, and says how many
// more there are.
std::string join_some(const std::vector<std::string>& names) {
  constexpr std::size_t shown = 20;
  if (names.size() <= shown) return join(names);
  return fmt::format("{} and {} more",
                     join(std::vector<std::string>(names.begin(), names.begin() + shown)),
                     names.size() - shown);
}

[[noreturn]] void undefined(const axis_item& item, const std::string& name, const std::string& axis,
                            const std::vector<std::string>& known) {
  const std::string block = axis == "mitigation_axis" ? "mitigations" : "diagnostics";
  fail_at(item.where, "recipe." + axis,
          fmt::format("'{}' is not defined.{} Defined: {}. Fix: define it under {}: or use one of "
                      "those names ('none' means no change).",
                      name, did_you_mean(name, known), join_some(known), block));
}

void check_no_repeats(const std::vector<axis_item>& axis, const std::string& key) {
  std::unordered_set<std::string_view> seen;
  for (const auto& item : axis) {
    if (!seen.insert(item.text).second) {
      fail_at(item.where, "recipe." + key,
              fmt::format("'{}' appears twice, which would make two cells of one name. Fix: "
                          "keep one.",
                          item.text));
    }
  }
}

// `a+g`, `a + g` and `g+a` are one stack: spaces around '+' are not part of a name, and the order
// of a stack only orders the args its mitigations append. Two entries of one stack would run the
// same settings as two cells.
void check_distinct_stacks(const std::vector<axis_item>& axis) {
  std::unordered_map<std::string, const axis_item*> first;  // sorted stack -> its first entry
  for (const auto& item : axis) {
    auto parts = split_plus(item.text);
    const std::string written = join_plus(parts);
    std::sort(parts.begin(), parts.end());
    const auto [seen, inserted] = first.emplace(join_plus(parts), &item);
    if (inserted) continue;
    const axis_item& earlier = *seen->second;
    const bool same_order = join_plus(split_plus(earlier.text)) == written;
    fail_at(item.where, "recipe.mitigation_axis",
            fmt::format("'{}' {} '{}' (at {}), which would run the same settings as a second "
                        "cell. Fix: keep one.",
                        item.text,
                        same_order ? "is the same stack as"
                                   : "stacks the same mitigations, in another order, as",
                        earlier.text, earlier.where.to_string()));
  }
}

// What a stack has set so far: each variable (and the command, the trials) with the mitigation
// that set it, so a second one that disagrees can be named beside the first.
struct stack_owners {
  std::unordered_map<std::string, const mitigation_def*> by_setting;
  std::unordered_set<std::string> unset;
};

// One axis entry resolved: its stacked mitigations merged, conflicts refused.
cell_plan resolve_mitigation(const recipe& spec, const mitigation_index& index,
                             const axis_item& item) {
  cell_plan cell;
  cell_changes changes;
  const auto parts = split_plus(item.text);
  cell.mitigation = join_plus(parts);
  cell.trials = spec.trials;
  stack_owners owners;
  std::unordered_set<std::string_view> stacked;
  const mitigation_def* trials_from = nullptr;
  for (const auto& part : parts) {
    if (part == no_change_name && parts.size() == 1) {
      cell.mitigations.push_back(part);
      return cell;  // `none`: no changes
    }
    const auto entry = index.find(part);
    if (entry == index.end()) {
      if (part == no_change_name) {
        fail_at(item.where, "recipe.mitigation_axis",
                fmt::format("'{}' stacks 'none', which changes nothing. Fix: drop it from the "
                            "stack.",
                            item.text));
      }
      undefined(item, part, "mitigation_axis", defined_names(spec, true));
    }
    const mitigation_def& found = *entry->second;
    if (!stacked.insert(part).second) {
      fail_at(item.where, "recipe.mitigation_axis",
              fmt::format("'{}' stacks '{}' twice. Fix: name it once.", item.text, part));
    }
    cell.mitigations.push_back(part);
    const auto clash = [&](const std::string& variable, const std::string& what) {
      // No structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
      const auto inserted = owners.by_setting.emplace(variable, &found);
      if (inserted.second) return;
      const mitigation_def& previous = *inserted.first->second;
      fail_at(item.where, "recipe.mitigation_axis",
              fmt::format("'{}' stacks mitigations that disagree on {}: '{}' (at {}) and '{}' "
                          "(at {}) {}. Fix: stack only mitigations that agree, or define one "
                          "mitigation with the combined settings.",
                          item.text, variable, previous.name, previous.where.to_string(),
                          found.name, found.where.to_string(), what));
    };
    for (const auto& [name, value] : found.env_set) {
      const auto same = changes.env_set.find(name);
      if (same != changes.env_set.end() && same->second == value) continue;
      clash(name, fmt::format("both set it, to different values ('{}' and '{}')",
                              same == changes.env_set.end() ? std::string("unset") : same->second,
                              value));
      changes.env_set[name] = value;
    }
    for (const auto& name : found.env_unset) {
      if (owners.unset.contains(name)) continue;
      clash(name, "one sets it and the other removes it");
      owners.unset.insert(name);
      changes.env_unset.push_back(name);
    }
    changes.extra_args.insert(changes.extra_args.end(), found.extra_args.begin(),
                           found.extra_args.end());
    if (found.command) {
      clash("the command", "both replace it");
      changes.command = found.command;
    }
    if (!found.working_directory.empty()) changes.working_directory = found.working_directory;
    if (found.trials) {
      if (trials_from != nullptr && *trials_from->trials != *found.trials) {
        owners.by_setting.insert_or_assign("trials", trials_from);
        clash("trials", "both set it, to different counts");
      }
      trials_from = &found;
      cell.trials = *found.trials;
    }
  }
  cell.changes = std::make_shared<const cell_changes>(std::move(changes));
  return cell;
}

void check_cell_name(const cell_plan& cell, const axis_item& where) {
  if (std::find(reserved_cell_names.begin(), reserved_cell_names.end(), cell.name) !=
      reserved_cell_names.end()) {
    fail_at(where.where, "recipe.mitigation_axis",
            fmt::format("the cell '{}' would take the name of a file aorta writes beside the "
                        "cells ({}). Fix: rename the mitigation or the diagnostic.",
                        cell.name, join({reserved_cell_names.begin(), reserved_cell_names.end()})));
  }
  if (cell.name.size() > max_cell_name_length) {
    fail_at(where.where, "recipe.mitigation_axis",
            fmt::format("the cell '{}...' has a name of {} bytes, longer than a directory name "
                        "may be ({}, max_cell_name_length). Fix: stack fewer mitigations, or "
                        "define one mitigation with the combined settings.",
                        cell.name.substr(0, 60), cell.name.size(), max_cell_name_length));
  }
}

// The collectors of each diagnostic_axis entry (null for `none`), each list held once and shared by
// the cells of that diagnostic.
std::vector<std::shared_ptr<const std::vector<collector_request>>> diagnostic_collectors(
    const recipe& spec) {
  std::unordered_map<std::string_view, const diagnostic_def*> index;
  index.reserve(spec.diagnostics.size());
  for (const auto& d : spec.diagnostics) index.emplace(d.name, &d);
  std::vector<std::shared_ptr<const std::vector<collector_request>>> collectors;
  for (const auto& entry : spec.diagnostic_axis) {
    if (entry.text == no_change_name) {
      collectors.emplace_back();
      continue;
    }
    const auto found = index.find(entry.text);
    if (found == index.end()) {
      undefined(entry, entry.text, "diagnostic_axis", defined_names(spec, false));
    }
    collectors.push_back(
        std::make_shared<const std::vector<collector_request>>(found->second->collect));
  }
  return collectors;
}

// Refused before any cell is planned, so the refusal costs nothing however large the axes are.
void check_cell_count(const recipe& spec) {
  const std::size_t mitigations = spec.mitigation_axis.size();
  const std::size_t diagnostics = spec.diagnostic_axis.size();
  // Divided, not multiplied, so no count of entries can overflow the product.
  if (mitigations == 0 || diagnostics == 0 || mitigations <= max_cells / diagnostics) return;
  const auto& where = mitigations >= diagnostics ? spec.mitigation_axis.front().where
                                                 : spec.diagnostic_axis.front().where;
  fail_at(where, mitigations >= diagnostics ? "recipe.mitigation_axis" : "recipe.diagnostic_axis",
          fmt::format("{} mitigation(s) x {} diagnostic(s) would make more than {} cells "
                      "(max_cells), aorta's limit on the cells of one recipe: each cell is a "
                      "directory of trials and a row of every confound table. Fix: split the "
                      "matrix over several recipes (one test each), or put fewer entries on the "
                      "axes.",
                      mitigations, diagnostics, max_cells));
}

void check_confound(const recipe& spec, const std::vector<cell_plan>& cells) {
  if (!spec.confound) return;
  if (cells.size() < 2) {
    fail_at(spec.confound->where, "recipe.confound",
            fmt::format("judges cells against a baseline cell, but the recipe has {} cell(s). "
                        "Fix: put at least two entries on mitigation_axis (e.g. [none, fast]), "
                        "or remove confound:.",
                        cells.size()));
  }
  if (spec.confound->baseline_cell) {
    const auto& wanted = *spec.confound->baseline_cell;
    const bool exists = std::any_of(cells.begin(), cells.end(),
                                    [&](const cell_plan& c) { return c.name == wanted; });
    if (!exists) {
      std::vector<std::string> names;
      for (const auto& c : cells) names.push_back(c.name);
      fail_at(spec.confound->where, "recipe.confound.baseline_cell",
              fmt::format("'{}' is not a cell.{} Cells: {}. Fix: name one of them.", wanted,
                          did_you_mean(wanted, names), join_some(names)));
    }
  }
}

}  // namespace

const cell_changes& changes_of(const cell_plan& cell) {
  static const cell_changes none;
  return cell.changes ? *cell.changes : none;
}

bool has_cells(const recipe& spec) {
  const auto only_none = [](const std::vector<axis_item>& axis) {
    return axis.size() == 1 && axis.front().text == no_change_name;
  };
  return !only_none(spec.mitigation_axis) || !only_none(spec.diagnostic_axis);
}

std::vector<cell_plan> plan_cells(const recipe& spec) {
  check_cell_count(spec);
  check_no_repeats(spec.mitigation_axis, "mitigation_axis");
  check_no_repeats(spec.diagnostic_axis, "diagnostic_axis");
  const mitigation_index mitigations = index_mitigations(spec);
  // Each entry resolved first, so an undefined or repeated name is refused as such before two
  // entries are compared as stacks.
  std::vector<cell_plan> resolved;
  resolved.reserve(spec.mitigation_axis.size());
  for (const auto& mitigation : spec.mitigation_axis) {
    resolved.push_back(resolve_mitigation(spec, mitigations, mitigation));
  }
  check_distinct_stacks(spec.mitigation_axis);
  const bool diagnostic_in_name =
      spec.diagnostic_axis.size() != 1 || spec.diagnostic_axis.front().text != no_change_name;
  const auto diagnostics = diagnostic_collectors(spec);
  std::vector<cell_plan> cells;
  cells.reserve(spec.mitigation_axis.size() * spec.diagnostic_axis.size());
  for (std::size_t m = 0; m < spec.mitigation_axis.size(); ++m) {
    const axis_item& mitigation = spec.mitigation_axis[m];
    for (std::size_t d = 0; d < spec.diagnostic_axis.size(); ++d) {
      cell_plan cell = resolved[m];
      cell.diagnostic = spec.diagnostic_axis[d].text;
      cell.collect = diagnostics[d];
      cell.name = diagnostic_in_name ? fmt::format("{}.{}", cell.mitigation, cell.diagnostic)
                                     : cell.mitigation;
      check_cell_name(cell, mitigation);
      cells.push_back(std::move(cell));
    }
  }
  check_confound(spec, cells);
  check_scheduled_trials(
      cells, spec.path.empty() ? "recipe" : fmt::format("{}: recipe", spec.path.string()), true);
  return cells;
}

void check_scheduled_trials(const std::vector<cell_plan>& cells, const std::string& origin,
                            bool from_recipe) {
  std::size_t total = 0;
  for (const auto& cell : cells) {
    total += static_cast<std::size_t>(std::max(cell.trials, 0));  // each <= 10^6: no overflow
  }
  if (total <= max_scheduled_trials) return;
  const std::string message = fmt::format(
      "{}: {} cell(s) would run {} trials in all, more than {} (max_scheduled_trials), aorta's "
      "limit on the trials of one run. Fix: give fewer trials (trials:, a mitigation's trials: or "
      "--trials) or fewer cells.",
      origin, cells.size(), total, max_scheduled_trials);
  if (from_recipe) throw recipe_error(message);
  throw usage_error(message);
}

void apply_trials_flag(recipe& spec, int trials) {
  auto cells = plan_cells(spec);
  for (auto& cell : cells) cell.trials = trials;
  check_scheduled_trials(cells, "--trials", false);
  spec.trials = trials;
  for (auto& mitigation : spec.mitigations) {
    if (mitigation.trials) mitigation.trials = trials;
  }
}

std::vector<std::optional<std::size_t>> reference_cells(const std::vector<cell_plan>& cells,
                                                        std::size_t baseline) {
  std::unordered_map<std::string_view, std::size_t> baseline_by_diagnostic;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].mitigation == cells[baseline].mitigation) {
      baseline_by_diagnostic.try_emplace(cells[i].diagnostic, i);
    }
  }
  std::vector<std::optional<std::size_t>> references(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto found = baseline_by_diagnostic.find(cells[i].diagnostic);
    if (found != baseline_by_diagnostic.end() && found->second != i) references[i] = found->second;
  }
  return references;
}

std::size_t find_cell(const std::vector<cell_plan>& cells, const std::string& name,
                      const std::string& origin) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].name == name) return i;
    names.push_back(cells[i].name);
  }
  throw usage_error(fmt::format("{} '{}': no such cell.{} Cells: {}. Fix: name one of them.",
                                origin, name, did_you_mean(name, names), join_some(names)));
}

}  // namespace aorta::detail
