// rocprof option schema (docs/recipes.md): every value arrives as text, as in the original.
#include "collectors/rocprof/rocprof_options.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace aorta {

namespace {

constexpr std::string_view rocprof_name = "rocprof";

const std::vector<std::string>& rocprof_option_keys() {
  static const std::vector<std::string> keys{"trace", "output_format",        "stats",
                                             "pmc",   "kernel_include_regex", "summary_units"};
  return keys;
}

const std::vector<std::string>& trace_domains() {
  static const std::vector<std::string> domains{"kernel", "hip",    "hip_runtime", "memory_copy",
                                                "rccl",   "marker", "scratch"};
  return domains;
}

void push_unique(std::vector<std::string>& items, std::string item) {
  if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(std::move(item));
}

std::vector<std::string> parse_trace(const std::string& text) {
  std::vector<std::string> domains;
  for (const auto& token : detail::split_list(detail::to_lower(text))) {
    if (std::find(trace_domains().begin(), trace_domains().end(), token) == trace_domains().end()) {
      detail::fail_option(
          rocprof_name, "trace",
          fmt::format("unknown trace domain '{}'; allowed: {}.{} Fix: list one or more "
                      "of those, separated by commas or spaces (e.g. \"kernel,hip\").",
                      token, detail::join(trace_domains()),
                      detail::did_you_mean(token, trace_domains())));
    }
    push_unique(domains, token);
  }
  if (domains.empty()) {
    detail::fail_option(rocprof_name, "trace",
                        fmt::format("names no trace domain; allowed: {}. Fix: name at least one "
                                    "(the default is \"kernel\"), or remove the option.",
                                    detail::join(trace_domains())));
  }
  return domains;
}

}  // namespace

rocprof_options parse_rocprof_options(const option_map& options) {
  detail::reject_unknown_options(rocprof_name, options, rocprof_option_keys());
  rocprof_options parsed;

  if (const auto* trace = detail::find_option(options, "trace")) {
    parsed.trace = parse_trace(trace->text);
  }
  if (const auto* format = detail::find_option(options, "output_format")) {
    parsed.output_format = detail::to_lower(detail::trim(format->text));
    detail::require_one_of(rocprof_name, "output_format", parsed.output_format,
                           {"csv", "json", "pftrace", "otf2", "rocpd"}, "a rocprofv3 output format",
                           "pick one of those; only csv is parsed into metrics (the default).");
  }
  if (const auto* stats = detail::find_option(options, "stats")) {
    const auto value = detail::parse_bool_text(stats->text);
    if (!value) {
      detail::fail_option(
          rocprof_name, "stats",
          fmt::format("expected a boolean, got '{}'; allowed: true, false (also 1/0, "
                      "yes/no, on/off, any case). Fix: write stats: true or "
                      "stats: false.",
                      stats->text));
    }
    parsed.stats = *value;
  }
  if (const auto* pmc = detail::find_option(options, "pmc")) {
    for (auto& counter : detail::split_list(pmc->text)) push_unique(parsed.pmc, std::move(counter));
    if (parsed.pmc.empty()) {
      detail::fail_option(
          rocprof_name, "pmc",
          "names no counter; allowed: one or more hardware counter names separated by "
          "commas or spaces (e.g. \"SQ_WAVES,GRBM_COUNT\"). Fix: name at least one "
          "counter, or remove the option.");
    }
  }
  if (const auto* regex = detail::find_option(options, "kernel_include_regex")) {
    if (detail::trim(regex->text).empty()) {
      detail::fail_option(
          rocprof_name, "kernel_include_regex",
          "is blank; allowed: a non-empty regular expression of kernel names to collect "
          "(e.g. \"Cijk|gemm\"). Fix: give a pattern, or remove the option to collect every "
          "kernel.");
    }
    parsed.kernel_include_regex = regex->text;
  }
  if (const auto* units = detail::find_option(options, "summary_units")) {
    parsed.summary_units = detail::to_lower(detail::trim(units->text));
    detail::require_one_of(rocprof_name, "summary_units", *parsed.summary_units,
                           {"sec", "msec", "usec", "nsec"}, "a rocprofv3 summary unit",
                           "pick one of those, or remove the option.");
  }
  return parsed;
}

}  // namespace aorta
