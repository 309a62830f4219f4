// ncu option schema: every value arrives as text, like the original's collectors.
#include "collectors/ncu/ncu_options.hpp"

#include "aorta/name_regex.hpp"
#include "checks/ncu_checks.hpp"
#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

namespace aorta {

namespace {

constexpr std::string_view ncu_name = "ncu";
constexpr std::string_view kernel_time_metric = "gpu__time_duration.sum";

const std::vector<std::string>& ncu_option_keys() {
  static const std::vector<std::string> keys{"metrics", "clock_control", "kernel_name",
                                             "launch_skip", "launch_count"};
  return keys;
}

// Named sets a recipe can ask for instead of spelling ncu's names: the quantities of what a
// kernel does rather than how fast (instructions executed, bytes through DRAM and L2), which a
// gate can hold nearly exactly (docs/collectors.md lists them; names checked on the H200 with
// `ncu --query-metrics`).
const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& metric_sets() {
  static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> sets{
      {"instructions", {"smsp__inst_executed.sum"}},
      {"bytes", {"dram__bytes.sum", "lts__t_bytes.sum"}},
      {"work", {"smsp__inst_executed.sum", "dram__bytes.sum", "lts__t_bytes.sum"}},
  };
  return sets;
}

std::vector<std::string> expand_metric_sets(const std::vector<std::string>& requested) {
  std::vector<std::string> names;
  for (const auto& item : requested) {
    const auto set = std::find_if(metric_sets().begin(), metric_sets().end(),
                                  [&](const auto& entry) { return entry.first == item; });
    if (set == metric_sets().end()) {
      names.push_back(item);
    } else {
      names.insert(names.end(), set->second.begin(), set->second.end());
    }
  }
  return names;
}

std::vector<std::string> parse_metrics(const std::string& text) {
  const auto requested = expand_metric_sets(detail::split_list(text));
  if (requested.empty()) {
    detail::fail_option(
        ncu_name, "metrics",
        fmt::format("names no metric; allowed: ncu metric names separated by commas "
                    "or spaces (e.g. \"sm__throughput.avg.pct_of_peak_sustained_"
                    "elapsed\"), or a set: instructions, bytes, work. Fix: name at "
                    "least one, or remove the option ({} "
                    "is always collected).",
                    kernel_time_metric));
  }
  for (const auto& metric : requested) {
    if (!detail::is_ncu_metric_name(metric)) {
      detail::fail_option(
          ncu_name, "metrics",
          fmt::format("'{}' is not an ncu metric name (letters, digits, '_' and '.', "
                      "with a '__' as in smsp__inst_executed.sum) nor a set "
                      "(instructions, bytes, work). Fix: correct it; "
                      "`ncu --query-metrics` lists the GPU's metrics.",
                      metric));
    }
  }
  // Kernel time comes from this metric, so it is always first whatever the recipe lists.
  std::vector<std::string> metrics{std::string(kernel_time_metric)};
  for (const auto& metric : requested) {
    if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) {
      metrics.push_back(metric);
    }
  }
  return metrics;
}

std::string parse_count(const option_map& options, std::string_view key, bool zero_allowed) {
  const auto* option = detail::find_option(options, key);
  std::string digits{detail::trim(option->text)};
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  const bool is_zero = all_digits && digits.find_first_not_of('0') == std::string::npos;
  if (!all_digits || (is_zero && !zero_allowed)) {
    detail::fail_option(
        ncu_name, key,
        fmt::format("expected a whole number {}, got '{}'. Fix: write digits only, e.g. "
                    "{}: \"{}\".",
                    zero_allowed ? ">= 0" : ">= 1", option->text, key, zero_allowed ? "0" : "1"));
  }
  return digits;
}

}  // namespace

ncu_options parse_ncu_options(const option_map& options) {
  detail::reject_unknown_options(ncu_name, options, ncu_option_keys());
  ncu_options parsed;
  if (const auto* metrics = detail::find_option(options, "metrics")) {
    parsed.metrics = parse_metrics(metrics->text);
  }
  if (const auto* clock = detail::find_option(options, "clock_control")) {
    parsed.clock_control = detail::to_lower(detail::trim(clock->text));
    detail::require_one_of(ncu_name, "clock_control", parsed.clock_control, {"none", "base"},
                           "an ncu clock control",
                           "use none (measure the card at its own clocks, the default) or base "
                           "(lock to base clocks).");
  }
  if (const auto* kernel = detail::find_option(options, "kernel_name")) {
    if (detail::trim(kernel->text).empty()) {
      detail::fail_option(ncu_name, "kernel_name",
                          "is blank; allowed: a non-empty ECMAScript regular expression of "
                          "kernel names to profile. Fix: give a pattern, or remove the option "
                          "to profile every kernel.");
    }
    // std::regex compiles by recursive descent, reads counts into an int and expands repeats
    // without a bound: the length limit and RE2 (bounded memory, repeats <= 1000) come first.
    if (kernel->text.size() > max_ncu_kernel_regex_bytes) {
      detail::fail_option(ncu_name, "kernel_name",
                          fmt::format("is {} bytes, longer than {} (max_ncu_kernel_regex_bytes). "
                                      "Fix: a shorter pattern naming the kernels to profile.",
                                      kernel->text.size(), max_ncu_kernel_regex_bytes));
    }
    try {
      (void)name_regex::compile(kernel->text);
    } catch (const std::invalid_argument& e) {
      detail::fail_option(ncu_name, "kernel_name",
                          fmt::format("'{}' is not a regex aorta can check ({}). Fix: correct "
                                      "the pattern, escaping special characters such as ( [ + "
                                      "with a backslash.",
                                      kernel->text, e.what()));
    }
    try {
      const std::regex compiled(kernel->text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      detail::fail_option(ncu_name, "kernel_name",
                          fmt::format("'{}' is not a valid ECMAScript regular expression ({}). "
                                      "Fix: correct the pattern, escaping special characters "
                                      "such as ( [ + with a backslash.",
                                      kernel->text, e.what()));
    }
    parsed.kernel_name = kernel->text;
  }
  if (detail::find_option(options, "launch_skip") != nullptr) {
    parsed.launch_skip = parse_count(options, "launch_skip", true);
  }
  // ncu refuses a launch count of 0, so it is caught here rather than at run time.
  if (detail::find_option(options, "launch_count") != nullptr) {
    parsed.launch_count = parse_count(options, "launch_count", false);
  }
  return parsed;
}

}  // namespace aorta
