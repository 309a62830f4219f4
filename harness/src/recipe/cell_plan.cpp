#include "recipe/cell_plan.hpp"

#include "option_text.hpp"
#include "recipe/yaml_read.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace aorta::detail {
namespace {

// Files aorta writes beside the cell directories.
constexpr std::array<std::string_view, 5> reserved_cell_names{"matrix.json", "matrix.md",
                                                              "perf.md", "report.html",
                                                              "gate.json"};

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

std::vector<std::string> defined_names(const recipe& spec, bool mitigations) {
  std::vector<std::string> names{no_change_name};
  if (mitigations) {
    for (const auto& m : spec.mitigations) names.push_back(m.name);
  } else {
    for (const auto& d : spec.diagnostics) names.push_back(d.name);
  }
  return names;
}

[[noreturn]] void undefined(const axis_item& item, const std::string& name, const std::string& axis,
                            const std::vector<std::string>& known) {
  const std::string block = axis == "mitigation_axis" ? "mitigations" : "diagnostics";
  fail_at(item.where, "recipe." + axis,
          fmt::format("'{}' is not defined.{} Defined: {}. Fix: define it under {}: or use one of "
                      "those names ('none' means no change).",
                      name, did_you_mean(name, known), join(known), block));
}

void check_no_repeats(const std::vector<axis_item>& axis, const std::string& key) {
  std::set<std::string> seen;
  for (const auto& item : axis) {
    if (!seen.insert(item.text).second) {
      fail_at(item.where, "recipe." + key,
              fmt::format("'{}' appears twice, which would make two cells of one name. Fix: "
                          "keep one.",
                          item.text));
    }
  }
}

// One axis entry resolved: its stacked mitigations merged, conflicts refused.
cell_plan resolve_mitigation(const recipe& spec, const axis_item& item) {
  cell_plan cell;
  cell.mitigation = item.text;
  cell.trials = spec.trials;
  const auto parts = split_plus(item.text);
  const auto known = defined_names(spec, true);
  std::map<std::string, std::string> owner;  // variable -> the mitigation that touches it
  const mitigation_def* trials_from = nullptr;
  for (const auto& part : parts) {
    if (part == no_change_name && parts.size() == 1) {
      cell.mitigations.push_back(part);
      return cell;
    }
    const auto found = std::find_if(spec.mitigations.begin(), spec.mitigations.end(),
                                    [&](const mitigation_def& m) { return m.name == part; });
    if (found == spec.mitigations.end()) {
      if (part == no_change_name) {
        fail_at(item.where, "recipe.mitigation_axis",
                fmt::format("'{}' stacks 'none', which changes nothing. Fix: drop it from the "
                            "stack.",
                            item.text));
      }
      undefined(item, part, "mitigation_axis", known);
    }
    if (std::find(cell.mitigations.begin(), cell.mitigations.end(), part) !=
        cell.mitigations.end()) {
      fail_at(item.where, "recipe.mitigation_axis",
              fmt::format("'{}' stacks '{}' twice. Fix: name it once.", item.text, part));
    }
    cell.mitigations.push_back(part);
    const auto clash = [&](const std::string& variable, const std::string& what) {
      // No structured binding: clang 14 (the fuzz build) cannot capture one in the lambda below.
      const auto inserted = owner.emplace(variable, found->name);
      if (inserted.second) return;
      const std::string& previous_owner = inserted.first->second;
      fail_at(item.where, "recipe.mitigation_axis",
              fmt::format("'{}' stacks mitigations that disagree on {}: '{}' (at {}) and '{}' "
                          "(at {}) {}. Fix: stack only mitigations that agree, or define one "
                          "mitigation with the combined settings.",
                          item.text, variable, previous_owner,
                          std::find_if(spec.mitigations.begin(), spec.mitigations.end(),
                                       [&](const mitigation_def& m) {
                                         return m.name == previous_owner;
                                       })->where.to_string(),
                          found->name, found->where.to_string(), what));
    };
    for (const auto& [name, value] : found->env_set) {
      const auto same = cell.env_set.find(name);
      if (same != cell.env_set.end() && same->second == value) continue;
      clash(name, fmt::format("both set it, to different values ('{}' and '{}')",
                              same == cell.env_set.end() ? std::string("unset") : same->second,
                              value));
      cell.env_set[name] = value;
    }
    for (const auto& name : found->env_unset) {
      if (std::find(cell.env_unset.begin(), cell.env_unset.end(), name) != cell.env_unset.end()) {
        continue;
      }
      clash(name, "one sets it and the other removes it");
      cell.env_unset.push_back(name);
    }
    cell.extra_args.insert(cell.extra_args.end(), found->extra_args.begin(),
                           found->extra_args.end());
    if (found->command) {
      clash("the command", "both replace it");
      cell.command = found->command;
    }
    if (found->trials) {
      if (trials_from != nullptr && *trials_from->trials != *found->trials) {
        owner.erase("trials");
        owner.emplace("trials", trials_from->name);
        clash("trials", "both set it, to different counts");
      }
      trials_from = &*found;
      cell.trials = *found->trials;
    }
  }
  return cell;
}

void check_cell_name(const cell_plan& cell, const axis_item& where) {
  if (std::find(reserved_cell_names.begin(), reserved_cell_names.end(), cell.name) !=
      reserved_cell_names.end()) {
    fail_at(where.where, "recipe.mitigation_axis",
            fmt::format("the cell '{}' would take the name of a report file aorta writes beside "
                        "the cells. Fix: rename the mitigation or the diagnostic.",
                        cell.name));
  }
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
                          did_you_mean(wanted, names), join(names)));
    }
  }
}

}  // namespace

bool has_cells(const recipe& spec) {
  const auto only_none = [](const std::vector<axis_item>& axis) {
    return axis.size() == 1 && axis.front().text == no_change_name;
  };
  return !only_none(spec.mitigation_axis) || !only_none(spec.diagnostic_axis);
}

std::vector<cell_plan> plan_cells(const recipe& spec) {
  check_no_repeats(spec.mitigation_axis, "mitigation_axis");
  check_no_repeats(spec.diagnostic_axis, "diagnostic_axis");
  const auto known_diagnostics = defined_names(spec, false);
  const bool diagnostic_in_name =
      spec.diagnostic_axis.size() != 1 || spec.diagnostic_axis.front().text != no_change_name;
  std::vector<cell_plan> cells;
  for (const auto& mitigation : spec.mitigation_axis) {
    const cell_plan resolved = resolve_mitigation(spec, mitigation);
    for (const auto& diagnostic : spec.diagnostic_axis) {
      cell_plan cell = resolved;
      cell.diagnostic = diagnostic.text;
      if (diagnostic.text != no_change_name) {
        const auto found = std::find_if(spec.diagnostics.begin(), spec.diagnostics.end(),
                                        [&](const diagnostic_def& d) {
                                          return d.name == diagnostic.text;
                                        });
        if (found == spec.diagnostics.end()) {
          undefined(diagnostic, diagnostic.text, "diagnostic_axis", known_diagnostics);
        }
        cell.collect = found->collect;
      }
      cell.name = diagnostic_in_name ? fmt::format("{}.{}", cell.mitigation, cell.diagnostic)
                                     : cell.mitigation;
      check_cell_name(cell, mitigation);
      cells.push_back(std::move(cell));
    }
  }
  check_confound(spec, cells);
  return cells;
}

std::optional<std::size_t> reference_cell(const std::vector<cell_plan>& cells,
                                          std::size_t baseline, std::size_t cell) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].mitigation == cells[baseline].mitigation &&
        cells[i].diagnostic == cells[cell].diagnostic) {
      if (i == cell) return std::nullopt;
      return i;
    }
  }
  return std::nullopt;
}

std::size_t find_cell(const std::vector<cell_plan>& cells, const std::string& name,
                      const std::string& origin) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].name == name) return i;
    names.push_back(cells[i].name);
  }
  throw usage_error(fmt::format("{} '{}': no such cell.{} Cells: {}. Fix: name one of them.",
                                origin, name, did_you_mean(name, names), join(names)));
}

}  // namespace aorta::detail
