#include "aorta/metrics.hpp"
#include "metrics/pc_sample_metrics.hpp"

#include "checked_sum.hpp"
#include "metrics/kernel_order.hpp"
#include "metrics/number_format.hpp"
#include "metrics/quantity_table.hpp"
#include "metrics/scope_metrics.hpp"
#include "metrics/sorted_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>
#include <utility>

namespace aorta {

namespace detail {

// The capture promises this order, but the metrics must not depend on it.
kernels_by_time::kernels_by_time(const capture& source) : m_kernels(source.kernels) {
  const auto hotter = [](const kernel_stat& a, const kernel_stat& b) {
    return a.total_ns > b.total_ns;
  };
  if (std::is_sorted(m_kernels.begin(), m_kernels.end(), hotter)) return;
  m_sorted.reserve(m_kernels.size());
  for (const auto& kernel : m_kernels) m_sorted.push_back(&kernel);
  std::stable_sort(
      m_sorted.begin(), m_sorted.end(),
      [&hotter](const kernel_stat* a, const kernel_stat* b) { return hotter(*a, *b); });
}

}  // namespace detail

namespace {

using detail::kernels_by_time;
using detail::ns_per_ms;

// total += more when the sum still fits an int64 metric; false (total unchanged) when not.
bool add_metric_count(std::uint64_t& total, std::uint64_t more) {
  constexpr auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (more > limit || total > limit - more) return false;
  total += more;
  return true;
}

void add_kernel_metrics(const capture& source, const std::string& prefix, kernel_rows rows,
                        metric_set& out) {
  const kernels_by_time ordered(source);
  if (rows == kernel_rows::copied) {
    out.kernels.reserve(out.kernels.size() + ordered.size());
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      const kernel_stat& kernel = ordered[i];
      out.kernels.push_back(
          {kernel.name, kernel.launches, kernel.total_ns / ns_per_ms, source.collector});
    }
  }

  bool every_count_known = true;
  bool overflowed = false;
  std::uint64_t launches = 0;
  double total_ns = 0.0;
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const kernel_stat& kernel = ordered[i];
    if (kernel.launches) {
      overflowed = overflowed || !add_metric_count(launches, *kernel.launches);
    } else {
      every_count_known = false;
    }
    total_ns += kernel.total_ns;
  }
  if (!every_count_known) {
    out.notes.push_back(fmt::format(
        "{}_kernel_count omitted: the launch count of at least one kernel is unknown", prefix));
  } else if (overflowed) {
    // Never wrapped: 2^64-1 launches once became -1 and passed `< 100`.
    out.notes.push_back(fmt::format("{}_kernel_count omitted: the launch counts sum past {}, the "
                                    "largest count a metric holds",
                                    prefix, std::numeric_limits<std::int64_t>::max()));
  } else {
    out.values[prefix + std::string(detail::kernel_count_suffix)] =
        static_cast<std::int64_t>(launches);
  }

  if (std::isfinite(total_ns)) {
    out.values[prefix + "_gpu_time_ms"] = total_ns / ns_per_ms;
  } else {
    out.notes.push_back(
        fmt::format("{}_gpu_time_ms omitted: the summed kernel time is not finite", prefix));
  }
  const double top_ns = ordered[0].total_ns;
  if (std::isfinite(top_ns)) {
    out.values[prefix + "_top_kernel_ms"] = top_ns / ns_per_ms;
  } else {
    out.notes.push_back(
        fmt::format("{}_top_kernel_ms omitted: the hottest kernel's time is not finite", prefix));
  }

  std::vector<std::string> top;
  for (std::size_t i = 0; i < ordered.size() && i < top_kernel_limit; ++i) {
    top.push_back(ordered[i].name.str());
  }
  out.values[prefix + "_top_kernels"] = std::move(top);
}

void put_finite(metric_set& out, const std::string& key, double value) {
  if (std::isfinite(value)) {
    out.values[key] = value;
  } else {
    out.notes.push_back(fmt::format("{} omitted: the summed value is not finite", key));
  }
}

std::int64_t as_metric_int(std::uint64_t value) {
  constexpr auto limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(value, limit));
}

void add_function_metrics(const capture& source, metric_set& out) {
  std::vector<const function_cost*> ordered;
  for (const auto& function : source.functions) ordered.push_back(&function);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const function_cost* a, const function_cost* b) {
                     return a->inclusive_ir > b->inclusive_ir;
                   });
  out.values[std::string(detail::callgrind_total_ir_metric)] =
      as_metric_int(ordered.front()->inclusive_ir);
  // Every function row that declares a metric prefix keeps its value here (inclusive and self
  // Ir), so a function quantity given a prefix in the table gets its metric without a line here.
  for (const detail::quantity_declaration& declared : detail::quantity_table()) {
    if (declared.source != detail::value_source::functions || declared.metric_prefix.empty())
      continue;
    for (std::size_t i = 0; i < ordered.size() && i < callgrind_metric_function_limit; ++i) {
      out.values[detail::metric_key(declared.quantity, ordered[i]->name)] =
          as_metric_int(ordered[i]->*declared.reads.function);
    }
  }
  if (ordered.size() > callgrind_metric_function_limit) {
    out.notes.push_back(fmt::format("{}* lists the {} functions with the most inclusive "
                                    "Ir of {}; use ir(REGEX) in a "
                                    "check to reach the others",
                                    detail::inclusive_ir_row().metric_prefix,
                                    callgrind_metric_function_limit, ordered.size()));
  }
}

// ncu_counter.<metric>/<kernel> for the counters of the hottest kernels; ncu's metric names hold
// no '/', so the first one after the prefix ends the metric.
void add_counter_metrics(const capture& source, metric_set& out) {
  std::set<std::string, std::less<>> hottest;
  const kernels_by_time ordered(source);
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    if (hottest.size() == ncu_counter_kernel_limit) break;
    hottest.insert(ordered[i].name.str());
  }
  std::size_t left_out = 0;
  for (const kernel_counter& counter : source.counters) {
    if (!hottest.empty() && !hottest.contains(counter.kernel)) {
      ++left_out;
      continue;
    }
    put_finite(out, ncu_counter_key(counter.metric, counter.kernel), counter.value);
  }
  if (left_out > 0) {
    out.notes.push_back(fmt::format("{}* holds the counters of the {} kernels with the "
                                    "most time; {} counters of the other kernels are left out",
                                    detail::counter_row().metric_prefix,
                                    ncu_counter_kernel_limit, left_out));
  }
}

// "Invalid __global__ write of size 4 bytes" -> "invalid_global_write_of_size_4_bytes": a kind
// as a metric-name suffix ([a-z0-9_], which the check grammar's METRIC accepts).
std::string kind_key(const std::string& kind) {
  std::string key;
  for (const char c : kind) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum) {
      key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (!key.empty() && key.back() != '_') {
      key += '_';
    }
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key.empty() ? "unnamed" : key;
}

// The error count of each kind, most errors first (then by name), and whether a sum overflowed.
std::vector<std::pair<std::string, std::uint64_t>> errors_by_kind(const capture& source,
                                                                  bool& overflowed) {
  std::map<std::string, std::uint64_t> by_kind;
  for (const auto& each : source.findings) {
    if (each.severity == "error")
      overflowed = !add_metric_count(by_kind[kind_key(each.kind)], each.count) || overflowed;
  }
  std::vector<std::pair<std::string, std::uint64_t>> ordered(by_kind.begin(), by_kind.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return ordered;
}

void add_finding_metrics(const capture& source, const std::string& prefix, metric_set& out) {
  out.values[prefix + "_error_count"] = as_metric_int(*source.reported_errors);
  bool overflowed = false;
  const auto kinds = errors_by_kind(source, overflowed);
  std::uint64_t other = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i < finding_metric_kind_limit)
      out.values[prefix + "_errors." + kinds[i].first] = as_metric_int(kinds[i].second);
    else
      overflowed = !add_metric_count(other, kinds[i].second) || overflowed;
  }
  if (kinds.size() > finding_metric_kind_limit) {
    // One metric per kind would let a hostile report make a million metrics; the rest are summed.
    out.values[prefix + "_errors_in_other_kinds"] = as_metric_int(other);
    out.notes.push_back(fmt::format(
        "{}_errors.* lists the {} error kinds with the most errors of {}; the errors of the other "
        "{} kinds are summed in {}_errors_in_other_kinds ({}_error_count counts them all)",
        prefix, finding_metric_kind_limit, kinds.size(), kinds.size() - finding_metric_kind_limit,
        prefix, prefix));
  }
  if (overflowed)
    out.notes.push_back(fmt::format("{}_errors.*: a count summed past {} and was kept at that "
                                    "value",
                                    prefix, std::numeric_limits<std::int64_t>::max()));
  std::uint64_t warnings = 0;
  for (const auto& each : source.findings) {
    if (each.severity != "error") (void)add_metric_count(warnings, each.count);
  }
  if (warnings > 0) out.values[prefix + "_warning_count"] = as_metric_int(warnings);
}

// Text metrics by name; two different metrics whose names are spelled alike (a frame "a/b" and
// frames a > b) give neither value, with a note, instead of one silently replacing the other.
void add_text_metrics(const capture& source, const std::string& prefix, metric_set& out) {
  std::map<std::string, const text_metric*> named;
  std::set<std::string> ambiguous;
  for (const text_metric& text : source.text_metrics) {
    const std::string name = text_metric_name(prefix, text);
    const auto [where, fresh] = named.try_emplace(name, &text);
    if (fresh) continue;
    if (ambiguous.insert(name).second)
      out.notes.push_back(fmt::format(
          "text metric {} is left out: frames [{}] and [{}] both give that name (a frame name "
          "holds '/' or ':'), so neither value can be told apart",
          name, fmt::join(where->second->path, " > "), fmt::join(text.path, " > ")));
  }
  for (const auto& [name, text] : named) {
    if (ambiguous.count(name) == 0) out.values.insert_or_assign(name, text->text);
  }
}

}  // namespace

std::string text_metric_name(const std::string& collector, const text_metric& metric) {
  std::string name = collector + "_text.";
  for (std::size_t i = 0; i < metric.path.size(); ++i) {
    if (i != 0) name += '/';
    name += metric.path[i];
  }
  if (!metric.path.empty()) name += ':';
  name += metric.key;
  return name;
}

std::string ncu_counter_key(std::string_view metric, std::string_view kernel) {
  return detail::metric_key(detail::counter_row().quantity, fmt::format("{}/{}", metric, kernel));
}

// Totals of a PC-sampling capture, and the hottest kernels' and lines' samples for the gate
// (metrics/pc_sample_metrics.hpp); the rest of the lines stay in the capture (aorta view).
void add_sample_metrics(const capture& source, const std::string& prefix, metric_set& out) {
  std::uint64_t samples = 0;
  std::uint64_t stalled = 0;
  const std::string where = source.artifact_dir.string();
  for (const pc_sample_line& line : source.pc_samples) {
    samples = detail::add_count(samples, line.samples, where, "PC samples");
    stalled = detail::add_count(stalled, line.stalled, where, "stalled PC samples");
  }
  out.values[prefix + "_pc_samples"] = static_cast<std::int64_t>(samples);
  out.values[prefix + "_pc_stalled_samples"] = static_cast<std::int64_t>(stalled);
  detail::add_pc_sample_detail_metrics(source, prefix, out);
}

metric_set compute_metrics(const capture& source, kernel_rows rows) {
  metric_set out;
  const std::string& prefix = source.collector;
  out.values[prefix + "_artifact_dir"] = source.artifact_dir.string();
  if (!source.backend.empty()) out.values[prefix + "_backend"] = source.backend;
  if (!source.kernels.empty()) add_kernel_metrics(source, prefix, rows, out);
  if (!source.scopes.empty()) detail::add_scope_metrics(source, out);
  if (!source.functions.empty()) add_function_metrics(source, out);
  if (!source.counters.empty()) add_counter_metrics(source, out);
  if (source.reported_errors) add_finding_metrics(source, prefix, out);
  if (!source.pc_samples.empty()) add_sample_metrics(source, prefix, out);
  add_text_metrics(source, prefix, out);
  for (const numeric_metric& number : source.numeric_metrics)
    put_finite(out, prefix + "." + number.key, number.value);
  return out;
}

void move_kernel_rows(capture& source, metric_set& out) {
  const kernels_by_time ordered(source);
  out.kernels.reserve(out.kernels.size() + ordered.size());
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    kernel_stat& moved =
        source.kernels[static_cast<std::size_t>(&ordered[i] - source.kernels.data())];
    out.kernels.push_back(
        {std::move(moved.name), moved.launches, moved.total_ns / ns_per_ms, source.collector});
  }
  source.kernels = std::vector<kernel_stat>();  // freed: `= {}` would keep the capacity
}

void merge_metrics(metric_set& into, metric_set&& from) {
  // Nodes move whole, not copied key and value (100,000 scope metrics).
  detail::merge_sorted(
      into.values, from.values,
      [&into](const std::string& name, const metric_value& kept, const metric_value& replaced) {
        into.notes.push_back(
            fmt::format("metric {} was produced twice; the later value {} replaced {}", name,
                        format_metric_value(kept), format_metric_value(replaced)));
      });
  if (into.kernels.empty())
    into.kernels = std::move(from.kernels);
  else
    into.kernels.insert(into.kernels.end(), std::make_move_iterator(from.kernels.begin()),
                        std::make_move_iterator(from.kernels.end()));
  into.notes.insert(into.notes.end(), std::make_move_iterator(from.notes.begin()),
                    std::make_move_iterator(from.notes.end()));
}

void merge_metrics(metric_set& into, const metric_set& from) {
  merge_metrics(into, metric_set(from));
}

std::optional<double> numeric_value(const metric_value& value) {
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return static_cast<double>(*integer);
  if (const auto* real = std::get_if<double>(&value)) return *real;
  return std::nullopt;
}

std::string format_metric_value(const metric_value& value) {
  struct formatter {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return detail::format_number(v); }
    std::string operator()(const std::string& v) const { return v; }
    std::string operator()(const std::vector<std::string>& v) const {
      return fmt::format("{}", fmt::join(v, ", "));
    }
  };
  return std::visit(formatter{}, value);
}

}  // namespace aorta
