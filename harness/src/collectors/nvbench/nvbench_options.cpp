// nvbench option schema: every value arrives as text, like the other collectors.
#include "collectors/nvbench/nvbench_options.hpp"

#include "option_text.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace aorta {

namespace {

constexpr std::string_view nvbench_name = "nvbench";

template <typename Number>
std::optional<Number> whole_text(std::string_view digits) {
  Number value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

// "all", or device ids separated by commas ("0", "0,1"): nvbench's --devices.
std::string parse_devices(const std::string& text) {
  const std::string trimmed{detail::trim(text)};
  if (trimmed == "all") return trimmed;
  const auto ids = detail::split_list(trimmed);
  std::vector<std::string> kept;
  for (const auto& id : ids) {
    const auto value = whole_text<long long>(detail::trim(id));
    if (!value || *value < 0 || *value > max_nvbench_device) {
      detail::fail_option(nvbench_name, "devices",
                          fmt::format("expected 'all' or device ids 0 to {} separated by commas, "
                                      "got '{}'. Fix: e.g. devices: \"0\" (nvbench's --devices)",
                                      max_nvbench_device, text));
    }
    kept.push_back(std::to_string(*value));
  }
  if (kept.empty())
    detail::fail_option(nvbench_name, "devices",
                        "is empty. Fix: e.g. devices: \"0\", or leave it out");
  return detail::join(kept, ",");
}

std::uint64_t parse_min_samples(const std::string& text) {
  const auto value = whole_text<std::uint64_t>(detail::trim(text));
  if (!value || *value == 0 || *value > max_nvbench_min_samples) {
    detail::fail_option(
        nvbench_name, "min_samples",
        fmt::format("expected a whole number from 1 to {}, got '{}'. Fix: e.g. min_samples: "
                    "20 (nvbench's --min-samples: the fewest cold runs per state)",
                    max_nvbench_min_samples, text));
  }
  return *value;
}

double parse_seconds(std::string_view key, const std::string& text) {
  const auto value = whole_text<double>(detail::trim(text));
  if (!value || !std::isfinite(*value) || *value <= 0.0 || *value > max_nvbench_seconds) {
    detail::fail_option(
        nvbench_name, key,
        fmt::format("expected seconds above 0 and at most {}, got '{}'. Fix: e.g. {}: "
                    "\"0.5\" (nvbench's --{})",
                    max_nvbench_seconds, text, key, key == "min_time" ? "min-time" : key));
  }
  return *value;
}

bool parse_sample_times(const std::string& text) {
  const auto value = detail::parse_bool_text(text);
  if (!value) {
    detail::fail_option(
        nvbench_name, "sample_times",
        fmt::format("expected a boolean, got '{}'; allowed: true, false (also 1/0, yes/no, "
                    "on/off, any case). Fix: sample_times: true to read nvbench's per-sample "
                    "times (--jsonbin), or leave it out for nvbench's mean (--json)",
                    text));
  }
  return *value;
}

}  // namespace

nvbench_options parse_nvbench_options(const option_map& options) {
  detail::reject_unknown_options(nvbench_name, options,
                                 {"devices", "min_samples", "min_time", "timeout", "sample_times"});
  nvbench_options parsed;
  if (const auto* devices = detail::find_option(options, "devices")) {
    parsed.devices = parse_devices(devices->text);
  }
  if (const auto* samples = detail::find_option(options, "min_samples")) {
    parsed.min_samples = parse_min_samples(samples->text);
  }
  if (const auto* min_time = detail::find_option(options, "min_time")) {
    parsed.min_time = parse_seconds("min_time", min_time->text);
  }
  if (const auto* timeout = detail::find_option(options, "timeout")) {
    parsed.timeout = parse_seconds("timeout", timeout->text);
  }
  if (const auto* sample_times = detail::find_option(options, "sample_times")) {
    parsed.sample_times = parse_sample_times(sample_times->text);
  }
  return parsed;
}

}  // namespace aorta
