#include "checks/scope_checks.hpp"

#include "captures/compact_index.hpp"
#include "metrics/quantity_table.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

namespace aorta::detail {

namespace {

constexpr std::size_t listed_frames = 10;

// Paths in messages are written out to this many levels. A call stack may be 200,000 frames deep:
// written out, one listed frame made a message megabytes long, and proving its plain PATH unique
// compiled a regex per level (ten listed frames at the bottom of such a stack: 38 s, 688 MB).
constexpr std::size_t written_out_levels = 16;
constexpr std::size_t kept_at_each_end = 3;

std::size_t frame_levels(const capture& source, std::size_t frame) {
  std::size_t levels = 0;
  for (; frame != context_frame::no_parent; frame = source.frames[frame].parent) ++levels;
  return levels;
}

// A frame as a message names it: within written_out_levels, the PATH a check writes for it
// (check_form) or its names joined by '/'; deeper, the top and bottom names around a count of
// the levels left out.
std::string message_path(const capture& source, std::size_t frame, bool check_form) {
  const std::size_t levels = frame_levels(source, frame);
  if (levels <= written_out_levels)
    return check_form ? frame_check_path(source, frame) : frame_display_path(source, frame);
  std::vector<std::string_view> names;
  names.reserve(levels);
  for (std::size_t f = frame; f != context_frame::no_parent; f = source.frames[f].parent)
    names.push_back(source.frames[f].name);
  std::reverse(names.begin(), names.end());
  const auto append = [&](std::string& out, std::string_view name) {
    out += check_form ? escape_scope_element(name) : std::string(name);
  };
  std::string out;
  for (std::size_t i = 0; i < kept_at_each_end; ++i) {
    if (i != 0) out += '/';
    append(out, names[i]);
  }
  out += fmt::format("/...({} levels)...", levels - 2 * kept_at_each_end);
  for (std::size_t i = levels - kept_at_each_end; i < levels; ++i) {
    out += '/';
    append(out, names[i]);
  }
  return out;
}

std::string listed(const capture& source, const std::vector<std::size_t>& frames) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < frames.size() && i < listed_frames; ++i)
    names.push_back(message_path(source, frames[i], true));
  std::string out = fmt::format("{}", fmt::join(names, ", "));
  if (frames.size() > listed_frames)
    out += fmt::format(", ... ({} more)", frames.size() - listed_frames);
  return out;
}

// How to make an ambiguous path select one frame: the first match's PATH when it is short enough
// to write out.
std::string one_frame_example(const capture& source, std::size_t first) {
  const std::size_t levels = frame_levels(source, first);
  if (levels <= written_out_levels)
    return fmt::format(", e.g. under({})", frame_check_path(source, first));
  return fmt::format(" (the first lies {} levels deep, too deep to write out here)", levels);
}

struct resolved {
  const capture* source = nullptr;
  std::size_t frame = context_frame::no_parent;
  std::string reason;
};

resolved resolve(const std::vector<capture>& captures, const scope_path& path) {
  const capture* source = nullptr;
  for (const capture& each : captures) {
    if (!each.placements.empty()) {
      source = &each;
      break;
    }
  }
  if (source == nullptr) {
    std::vector<std::string> with_kernels;
    for (const capture& each : captures)
      if (!each.kernels.empty()) with_kernels.push_back(each.collector);
    if (with_kernels.empty())
      return {nullptr, 0, "no capture has kernels, so no scope to look under"};
    return {
        nullptr, 0,
        fmt::format(
            "the {} capture does not record where kernels ran, so under({}) cannot "
            "be measured (Proton data: tree or trace and rocpd do, unless the tree was too large: "
            "see the capture's notes); drop under(...)",
            fmt::join(with_kernels, ", "), path.text())};
  }
  const std::vector<std::size_t> matches = path.resolve(*source);
  if (matches.size() == 1) return {source, matches.front(), {}};
  if (matches.empty()) {
    std::vector<std::size_t> all;
    for (std::size_t id = 0; id < source->frames.size(); ++id) all.push_back(id);
    return {nullptr, 0,
            all.empty() ? fmt::format("no frame matches under({}): the {} capture has no scopes "
                                      "or call-path frames, only kernels at the top level",
                                      path.text(), source->collector)
                        : fmt::format("no frame matches under({}); the {} capture's frames: {}",
                                      path.text(), source->collector, listed(*source, all))};
  }
  return {nullptr, 0,
          fmt::format("under({}) is ambiguous: it matches {} frames: {}; write more of the path "
                      "(or anchor it with a leading '/') so it selects one{}",
                      path.text(), matches.size(), listed(*source, matches),
                      one_frame_example(*source, matches.front()))};
}

}  // namespace

std::optional<scope_argument> split_scope_argument(std::string_view argument) {
  argument = trim(argument, blanks);
  constexpr std::string_view opener = "under(";
  if (!argument.starts_with(opener)) return std::nullopt;
  int depth = 0;
  bool in_bracket = false;
  for (std::size_t i = opener.size() - 1; i < argument.size(); ++i) {
    const char c = argument[i];
    if (c == '\\') {
      ++i;
    } else if (in_bracket) {
      in_bracket = c != ']';
    } else if (c == '[') {
      in_bracket = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      scope_argument out;
      out.path = std::string(trim(argument.substr(opener.size(), i - opener.size()), blanks));
      if (out.path.empty())
        throw std::invalid_argument("under() needs a scope path, e.g. under(prefill)");
      std::string_view rest = trim(argument.substr(i + 1), blanks);
      if (rest.empty()) return out;
      if (rest.front() != ',')
        throw std::invalid_argument(
            fmt::format("after under({}) expected the end of the argument or ', REGEX', found '{}'",
                        out.path, rest));
      rest = trim(rest.substr(1), blanks);
      if (rest.empty())
        throw std::invalid_argument(
            fmt::format("a kernel regex after 'under({}),' (or drop the comma)", out.path));
      out.kernels = std::string(rest);
      return out;
    }
  }
  throw std::invalid_argument("a ')' closing 'under('");
}

scoped_measure scoped_kernel_quantity(const std::vector<capture>& captures, check_quantity quantity,
                                      const scope_path& path, const name_regex& kernels) {
  const resolved where = resolve(captures, path);
  if (where.source == nullptr) return {std::nullopt, where.reason};
  double total = 0.0;
  std::size_t matched = 0;
  std::vector<std::string> unknown;
  const auto read = declaration_of(quantity).reads.kernel;
  const auto under_frame = [&](const placed_kernel& placed) {
    return placed.frame != context_frame::no_parent &&
           frame_within(*where.source, placed.frame, where.frame);
  };
  for (const placed_kernel& placed : where.source->placements) {
    if (!under_frame(placed) || !kernels.search(placed.kernel.name)) continue;
    ++matched;
    if (const std::optional<double> value = read(placed.kernel))
      total += *value;
    else
      unknown.push_back(placed.kernel.name.str());
  }
  const std::string scope = message_path(*where.source, where.frame, false);
  if (!unknown.empty())
    return {std::nullopt, fmt::format("the launch count of {} under {} is unknown",
                                      fmt::join(unknown, ", "), scope)};
  if (matched == 0) {
    std::set<std::string> within;  // for "did you mean", only when nothing matched
    for (const placed_kernel& placed : where.source->placements) {
      if (under_frame(placed)) within.insert(placed.kernel.name.str());
    }
    return {0.0,
            kernels.pattern().empty()
                ? fmt::format("no kernel ran under {}", scope)
                : fmt::format("no kernel under {} matches '{}'", scope, kernels.pattern()),
            true,
            {within.begin(), within.end()}};
  }
  return {total, {}};
}

scoped_top scoped_top_kernel(const std::vector<capture>& captures, const scope_path& path) {
  const resolved where = resolve(captures, path);
  if (where.source == nullptr) return {std::nullopt, where.reason};
  std::map<std::string, double> totals;
  for (const placed_kernel& placed : where.source->placements) {
    if (placed.frame != context_frame::no_parent &&
        frame_within(*where.source, placed.frame, where.frame))
      totals[placed.kernel.name.str()] += placed.kernel.total_ns;
  }
  if (totals.empty())
    return {std::nullopt,
            fmt::format("no kernel ran under {}", message_path(*where.source, where.frame, false))};
  auto top = totals.begin();
  for (auto it = totals.begin(); it != totals.end(); ++it)
    if (it->second > top->second) top = it;
  return {top->first, {}};
}

namespace {

// Whether `name` spells the scope entry's name, without building that name.
bool spells(const scope_stat& entry, std::string_view name) {
  if (entry.kernel.empty()) return name == entry.scope;
  return name.size() == entry.kernel.size() + 1 + entry.scope.size() &&
         name.starts_with(entry.kernel) && name[entry.kernel.size()] == '/' &&
         name.ends_with(entry.scope);
}

}  // namespace

scope_names known_scope_names(const capture& source, std::size_t listed) {
  // One reused name and a flat index over the entries: a string and a hash-set node per scope
  // were a fifth of a failed cycles() check on 100,000 scopes.
  std::vector<const scope_stat*> distinct;
  compact_index index;
  std::string name;
  for (const scope_stat& entry : source.scopes) {
    name.clear();
    if (!entry.kernel.empty()) name.append(entry.kernel).push_back('/');
    name.append(entry.scope);
    const auto same = [&](std::uint32_t at) { return spells(*distinct[at], name); };
    if (index.find_or_insert(compact_hash(name), distinct.size(), same) != distinct.size())
      continue;
    distinct.push_back(&entry);
  }
  scope_names names;
  names.total = distinct.size();
  for (std::size_t i = 0; i < distinct.size() && i < listed; ++i) {
    const scope_stat& entry = *distinct[i];
    names.first.push_back(entry.kernel.empty() ? entry.scope : entry.kernel + "/" + entry.scope);
  }
  return names;
}

}  // namespace aorta::detail
