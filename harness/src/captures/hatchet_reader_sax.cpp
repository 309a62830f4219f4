#include "captures/hatchet_reader_sax.hpp"

#include "checked_sum.hpp"
#include "captures/literal_equal.hpp"
#include "text_trim.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <string>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

constexpr std::string_view chrome_trace_hint =
    "this looks like a chrome trace; the proton collector parses data: tree (set data: tree "
    "in the recipe, or point aorta at the .hatchet output)";

// The first `limit` bytes of `text`, not ending inside a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t limit) noexcept {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) --end;
  return text.substr(0, end);
}

// Clinger's fast path: [-]digits[.digits] with at most 15 digits. The digits and 10^k (k <= 15)
// are exact doubles, so one IEEE division gives the correctly rounded value from_chars gives, at
// a fraction of its cost (a trace has a duration per event). nullopt: not of that form.
std::optional<double> short_decimal(std::string_view text) noexcept {
  static constexpr std::array<double, 16> powers_of_ten{
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  constexpr std::size_t max_digits = 15;
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  // Wraps past 2^64 only for inputs the digit count below refuses.
  std::uint64_t digits = 0;
  const auto take_digits = [&p, end, &digits] {
    const char* const start = p;
    for (; p != end && static_cast<unsigned char>(*p - '0') < 10; ++p)
      digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
    return static_cast<std::size_t>(p - start);
  };
  const std::size_t whole = take_digits();
  if (whole == 0) return std::nullopt;
  std::size_t fraction = 0;
  if (p != end && *p == '.') {
    ++p;
    fraction = take_digits();
    if (fraction == 0) return std::nullopt;
  }
  if (p != end || whole + fraction > max_digits) return std::nullopt;
  const double value = static_cast<double>(digits) / powers_of_ten[fraction];
  return negative ? -value : value;
}

}  // namespace

hatchet_metric classify_hatchet_metric(std::string_view key, double& ns_per_unit) noexcept {
  if (key.empty()) return hatchet_metric::ignored;
  switch (key.front()) {
  case 'c':
    if (equals_literal(key, "count")) return hatchet_metric::count;
    if (equals_literal(key, "cycles")) return hatchet_metric::cycles;
    return hatchet_metric::ignored;
  case 'n':
    if (equals_literal(key, "num_samples")) return hatchet_metric::samples;
    if (equals_literal(key, "num_stalled_samples")) return hatchet_metric::stalled_samples;
    return equals_literal(key, "normalized_cycles") ? hatchet_metric::normalized_cycles
                                                    : hatchet_metric::ignored;
  case 's':
    // Proton names each stall reason of a PC sample `stalled_<reason>` (cupti and rocprofiler).
    return key.size() > pc_stall_prefix.size() && key.starts_with(pc_stall_prefix)
               ? hatchet_metric::stall_reason
               : hatchet_metric::ignored;
  case 'd':
    return equals_literal(key, "device_type") ? hatchet_metric::device_type
                                              : hatchet_metric::ignored;
  case 't': break;
  default: return hatchet_metric::ignored;
  }
  // "time (<unit>)": the text before '(' is exactly "time"; "(inc)" columns are inclusive.
  if (key.find("(inc)") != std::string_view::npos) return hatchet_metric::ignored;
  const std::size_t open = key.find('(');
  const std::size_t close = key.find(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    return hatchet_metric::ignored;
  if (trim(key.substr(0, open), " ") != "time" || !trim(key.substr(close + 1), " ").empty())
    return hatchet_metric::ignored;
  const std::string_view unit = trim(key.substr(open + 1, close - open - 1), " ");
  if (unit == "ns")
    ns_per_unit = 1.0;
  else if (unit == "us")
    ns_per_unit = 1e3;
  else if (unit == "ms")
    ns_per_unit = 1e6;
  else if (unit == "s")
    ns_per_unit = 1e9;
  else
    return hatchet_metric::ignored;
  return hatchet_metric::time;
}

std::optional<double> parse_metric_number(std::string_view text) noexcept {
  if (const std::optional<double> quick = short_decimal(text)) return quick;
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_launch_count(std::string_view text) noexcept {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec == std::errc() && end == text.data() + text.size() && !text.empty())
    return n <= max_count ? std::optional(n) : std::nullopt;
  // Not a plain integer: 3.0 and 3e2 are accepted, 1.9, -1 and NaN are not.
  const std::optional<double> v = parse_metric_number(text);
  if (!v || !std::isfinite(*v) || *v < 0.0 || std::floor(*v) != *v ||
      *v >= static_cast<double>(max_count))
    return std::nullopt;
  return static_cast<std::uint64_t>(*v);
}

hatchet_sax_base::role hatchet_sax_base::top_element_role(std::uint32_t index) {
  if (index == 0) return role::node;
  if (index == 1) return role::devices;
  throw json_shape_error("a third element in the top-level array (expected exactly "
                         "[root node, device table])");
}

void hatchet_sax_base::wrong_type(role r, std::string_view found) {
  const std::string got(found);
  switch (r) {
  case role::top:
    if (got == "an object")
      throw json_shape_error("the document is a JSON object, expected a JSON array "
                             "[root node, device table]; " +
                             std::string(chrome_trace_hint));
    throw json_shape_error("the document is " + got +
                           ", expected a JSON array "
                           "[root node, device table] as Proton writes for data: tree");
  case role::node:
    throw json_shape_error("found " + got +
                           " where a tree node {\"frame\": {...}, "
                           "\"metrics\": {...}, \"children\": [...]} was expected");
  case role::frame:
    throw json_shape_error("\"frame\" is " + got + ", expected an object with a \"name\"");
  case role::frame_name:
  case role::node_name: throw json_shape_error("the frame name is " + got + ", expected a string");
  case role::metrics:
    throw json_shape_error("\"metrics\" is " + got + ", expected an object of metric values");
  case role::children:
    throw json_shape_error("\"children\" is " + got + ", expected an array of nodes");
  case role::devices:
    throw json_shape_error("the device table (element 2 of the top-level array) is " + got +
                           ", expected an object {\"CUDA\"|\"HIP\": {\"<id>\": {...}}}");
  case role::device_kind:
  case role::device:
    throw json_shape_error("a device table entry is " + got +
                           ", expected an object {\"<id>\": {\"arch\": ..., ...}}");
  default: throw json_shape_error("unexpected " + got);
  }
}

void hatchet_sax_base::unexpected_node_key(std::string_view key) {
  if (equals_literal(key, "traceEvents") || equals_literal(key, "ph") || equals_literal(key, "ts"))
    throw json_shape_error("a node has the key \"" + std::string(key) + "\"; " +
                           std::string(chrome_trace_hint));
}

void hatchet_sax_base::on_metric_value(std::string_view text, bool is_string) {
  hatchet_node& node = current();
  const auto rejected = [&] {
    std::string r = m_metric_key;
    r += " = ";
    if (is_string) r += '"';
    r += text.empty() && !is_string ? std::string_view("null") : text;
    if (is_string) r += '"';
    return r;
  };
  switch (m_metric) {
  case hatchet_metric::ignored:
    if (is_string && keeps_as_text()) keep_text(text, text.size());
    return;
  case hatchet_metric::device_type:
    // Cycle metrics write the enum's number as a string (proton DeviceType: HIP, CUDA, CPU).
    if (text == "0")
      node.device_type = "HIP";
    else if (text == "1")
      node.device_type = "CUDA";
    else if (text == "2")
      node.device_type = "CPU";
    else if (is_string)
      node.device_type.assign(text);
    return;
  case hatchet_metric::time: {
    if (node.time_ns) return;  // the first usable time key wins
    const std::optional<double> v = parse_metric_number(text);
    const double ns = v ? *v * m_metric_scale : 0.0;
    if (!v || !std::isfinite(*v) || *v < 0.0 || !std::isfinite(ns)) {
      if (node.rejected_time.empty()) node.rejected_time = rejected();
      return;
    }
    node.time_ns = ns;
    return;
  }
  case hatchet_metric::count: {
    const std::optional<std::uint64_t> n = parse_launch_count(text);
    if (n) {
      node.count = hatchet_node::count_state::valid;
      node.launches = *n;
    } else {
      node.count = hatchet_node::count_state::invalid;
      node.rejected_count = rejected();
    }
    return;
  }
  case hatchet_metric::cycles:
  case hatchet_metric::normalized_cycles: {
    const std::optional<double> v = parse_metric_number(text);
    if (!v || !std::isfinite(*v) || *v < 0.0) {
      if (node.rejected_cycles.empty()) node.rejected_cycles = rejected();
      return;
    }
    (m_metric == hatchet_metric::cycles ? node.cycles : node.normalized_cycles) = *v;
    return;
  }
  case hatchet_metric::samples:
  case hatchet_metric::stalled_samples:
  case hatchet_metric::stall_reason: on_sample_count(node, text, rejected); return;
  }
}

void hatchet_sax_base::on_sample_count(hatchet_node& node, std::string_view text,
                                       const std::function<std::string()>& rejected) {
  // A sample count is a whole number of samples: a fraction, a sign or a value past 2^64 is a
  // damaged file, and the sink refuses the node rather than count part of it.
  const std::optional<std::uint64_t> n = parse_launch_count(text);
  if (!n) {
    if (node.rejected_samples.empty())
      node.rejected_samples = fmt::format(
          "{} is not a sample count (an integer from 0 to {})", rejected(), max_count);
    return;
  }
  if (m_metric == hatchet_metric::samples) {
    node.samples = *n;
  } else if (m_metric == hatchet_metric::stalled_samples) {
    node.stalled_samples = *n;
  } else if (*n != 0 && node.stalls.size() < pc_stall_max_reasons) {
    node.stalls.push_back({m_metric_key.substr(pc_stall_prefix.size()), *n});
  } else if (*n != 0 && node.rejected_samples.empty()) {
    node.rejected_samples =
        fmt::format("more than {} stall reasons (pc_stall_max_reasons)", pc_stall_max_reasons);
  }
}

bool hatchet_sax_base::keeps_as_text() const noexcept {
  // device_id is Proton's own string-valued metric of kernel and cycle entries (TreeData.cpp).
  return m_metric == hatchet_metric::ignored && !m_nodes.empty() && m_depth != 0 &&
         !equals_literal(m_metric_key, "device_id");
}

void hatchet_sax_base::keep_text(std::string_view text, std::size_t full_bytes) {
  hatchet_node& node = current();
  if (node.texts.size() >= text_metric_max_count) {
    ++node.texts_dropped;
    return;
  }
  hatchet_text_value value{m_metric_key, {}, full_bytes};
  if (full_bytes > text_metric_max_bytes) {
    value.text = utf8_prefix(text, text_metric_max_bytes);
    value.text += "...";
  } else {
    value.text = text;
  }
  node.texts.push_back(std::move(value));
}

namespace {

// Appends `piece` while `out` is below the limit; `total` counts every byte either way.
void append_bounded(std::string& out, std::size_t& total, std::string_view piece) {
  total += piece.size();
  // One byte past the limit tells keep_text the value was cut.
  const std::size_t room = text_metric_max_bytes + 1;
  if (out.size() < room) out.append(piece.substr(0, room - out.size()));
}

}  // namespace

void hatchet_sax_base::capture_open(char bracket) {
  if (m_capture_depth == 0) {
    m_capture.clear();
    m_capture_bytes = 0;
  } else if (m_capture_comma) {
    append_bounded(m_capture, m_capture_bytes, ",");
  }
  append_bounded(m_capture, m_capture_bytes, std::string_view(&bracket, 1));
  ++m_capture_depth;
  m_capture_comma = false;
}

void hatchet_sax_base::capture_close(char bracket) {
  append_bounded(m_capture, m_capture_bytes, std::string_view(&bracket, 1));
  m_capture_comma = true;
  if (--m_capture_depth == 0) keep_text(m_capture, m_capture_bytes);
}

void hatchet_sax_base::capture_key(std::string_view key) {
  capture_scalar(key, true);
  append_bounded(m_capture, m_capture_bytes, ":");
  m_capture_comma = false;
}

void hatchet_sax_base::capture_scalar(std::string_view text, bool is_string) {
  if (m_capture_comma) append_bounded(m_capture, m_capture_bytes, ",");
  m_capture_comma = true;
  if (!is_string) {
    append_bounded(m_capture, m_capture_bytes, text.empty() ? std::string_view("null") : text);
    return;
  }
  append_bounded(m_capture, m_capture_bytes, "\"");
  std::size_t plain = 0;  // start of the run of characters that need no escape
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    append_bounded(m_capture, m_capture_bytes, text.substr(plain, i - plain));
    const std::string escaped =
        c == '"' ? "\\\"" : c == '\\' ? "\\\\" : fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    append_bounded(m_capture, m_capture_bytes, escaped);
    plain = i + 1;
  }
  append_bounded(m_capture, m_capture_bytes, text.substr(plain));
  append_bounded(m_capture, m_capture_bytes, "\"");
}

}  // namespace aorta::detail
