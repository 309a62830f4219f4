#include "captures/sanitizer_reader.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "captures/capture_files.hpp"
#include "checked_sum.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace aorta {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view tool_prefix = "=========";
constexpr std::string_view banner = "COMPUTE-SANITIZER";
// A report's own lines kept as its detail; the rest (backtraces) stay in the log.
constexpr std::size_t max_detail_lines = 4;
constexpr std::size_t max_detail_bytes = 512;
// A kind becomes a metric name; the tool's are short ("Invalid __global__ write of size 4 bytes").
constexpr std::size_t max_kind_bytes = 200;

std::string quoted_excerpt(std::string_view line) {
  constexpr std::size_t shown = 80;
  std::string out(line.substr(0, shown));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return fmt::format("'{}{}'", out, line.size() > shown ? "..." : "");
}

// "16,384" or "3" -> the number; nullopt for anything else or an overflow.
std::optional<std::uint64_t> parse_sanitizer_count(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t value = 0;
  bool digits = false;
  for (const char c : text) {
    if (c == ',') continue;
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    digits = true;
  }
  return digits ? std::optional(value) : std::nullopt;
}

// The number that starts `text` ("3 errors" -> 3), and what follows it.
std::optional<std::pair<std::uint64_t, std::string_view>> leading_count(std::string_view text) {
  text = detail::trim_line(text);
  const std::size_t end = text.find(' ');
  const auto value = parse_sanitizer_count(text.substr(0, end));
  if (!value) return std::nullopt;
  return std::pair{*value, end == std::string_view::npos ? std::string_view{} : text.substr(end + 1)};
}

// "<fn>(args)+0x170 in oob.cu:36" -> {"<fn>(args)", "oob.cu:36"}; without -lineinfo there is no
// " in file:line" part.
std::pair<std::string, std::string> split_site(std::string_view site) {
  site = detail::trim_line(site);
  std::string_view function = site;
  std::string_view location;
  if (const auto in = site.rfind(" in "); in != std::string_view::npos) {
    function = site.substr(0, in);
    location = site.substr(in + 4);
  }
  if (const auto plus = function.rfind("+0x"); plus != std::string_view::npos) {
    function = function.substr(0, plus);
  }
  return {std::string(detail::trim_line(function)), std::string(detail::trim_line(location))};
}

class log_parser {
public:
  explicit log_parser(const fs::path& file) : m_file(file) {}

  sanitizer_report parse(std::string_view text) {
    if (detail::trim_line(text).empty()) fail_truncated("is empty");
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      line(text.substr(start, end - start));
      start = end + 1;
    }
    if (!m_seen_banner) not_a_report("has no line from compute-sanitizer");
    if (!m_seen_summary) {
      fail_truncated("ends without compute-sanitizer's summary line (ERROR SUMMARY, or RACECHECK "
                     "SUMMARY for racecheck)");
    }
    if (m_record_after_summary) {
      fail_truncated("has an error report after its last summary line, so the summary does not "
                     "count it");
    }
    finish_record();
    return merged();
  }

private:
  void line(std::string_view raw) {
    if (!raw.starts_with(tool_prefix)) {
      // Payload output (a log of stdout rather than --log-file) is not the tool's; skip it, but a
      // file that does not begin as a report is not one.
      if (!m_seen_banner && !detail::trim_line(raw).empty()) not_a_report(fmt::format("begins with {}",
                                                                         quoted_excerpt(raw)));
      return;
    }
    std::string_view content = raw.substr(tool_prefix.size());
    while (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    if (content.starts_with(' ')) content.remove_prefix(1);
    if (!m_seen_banner) {
      if (detail::trim_line(content) != banner) not_a_report(fmt::format("begins with {}", quoted_excerpt(raw)));
      m_seen_banner = true;
      return;
    }
    if (detail::trim_line(content).empty()) return finish_record();
    if (content.front() == ' ' || content.front() == '\t') return detail_line(detail::trim_line(content));
    header_line(detail::trim_line(content));
  }

  void header_line(std::string_view content) {
    finish_record();
    if (content == banner) return;  // a child process's own banner (--target-processes all)
    if (content.starts_with("ERROR SUMMARY:")) return error_summary(content);
    if (content.starts_with("RACECHECK SUMMARY:")) return racecheck_summary(content);
    if (content.starts_with("LEAK SUMMARY:")) {
      m_report.notes.push_back(std::string(content));
      return;
    }
    if (content == "Target application returned an error") {
      m_report.notes.push_back("the payload exited with an error status under compute-sanitizer");
      return;
    }
    if (m_seen_summary) m_record_after_summary = true;
    m_current.emplace();
    if (content.starts_with("Error: ")) {
      content.remove_prefix(7);
    } else if (content.starts_with("Warning: ")) {
      m_current->severity = "warning";
      content.remove_prefix(9);
    }
    m_current->kind = std::string(content.substr(0, max_kind_bytes));
    if (content.starts_with("Leaked ")) {
      m_current->kind = "Leak";
      add_detail(content);
    } else if (content.starts_with("Program hit ")) {
      api_error(content);
    } else if (content.starts_with("Race reported between ")) {
      race(content.substr(22));
    }
    while (!m_current->kind.empty() && m_current->kind.back() == ':') m_current->kind.pop_back();
  }

  // "Program hit cudaErrorLaunchFailure (error 719) due to "..." on CUDA API call to X."
  void api_error(std::string_view content) {
    const std::string_view rest = content.substr(12);
    m_current->kind = fmt::format("CUDA API error {}", rest.substr(0, rest.find(' ')));
    if (const auto call = rest.rfind(" on CUDA API call to "); call != std::string_view::npos) {
      std::string_view api = rest.substr(call + 21);
      while (!api.empty() && api.back() == '.') api.remove_suffix(1);
      m_current->location = std::string(api);
    }
    add_detail(content);
  }

  // "Write access at <fn>+0x240 in oob.cu:42"; the other access follows on the next line.
  void race(std::string_view rest) {
    const auto at = rest.find(" access at ");
    if (at == std::string_view::npos) return;
    m_current->kind = fmt::format("Race between {} access", rest.substr(0, at));
    auto [function, location] = split_site(rest.substr(at + 11));
    m_current->kernel = std::move(function);
    m_current->location = std::move(location);
  }

  void detail_line(std::string_view content) {
    if (!m_current || m_in_backtrace) return;
    if (content.starts_with("Saved host backtrace") || content.starts_with("Host Frame:") ||
        content.starts_with("Device Frame:")) {
      m_in_backtrace = true;
      return;
    }
    if (content.starts_with("at ") && m_current->kernel.empty()) {
      auto [function, location] = split_site(content.substr(3));
      m_current->kernel = std::move(function);
      if (m_current->location.empty()) m_current->location = std::move(location);
      return;
    }
    // racecheck's second access: "and Read access at <fn>+0x290 in oob.cu:45 [16384 hazards]"
    if (content.starts_with("and ") && m_current->kind.starts_with("Race between ")) {
      const auto at = content.find(" access at ");
      if (at != std::string_view::npos && m_current->kind.find(" and ") == std::string::npos) {
        m_current->kind += fmt::format(" and {} access", content.substr(4, at - 4));
      }
    }
    add_detail(content);
  }

  void add_detail(std::string_view text) {
    if (m_detail_lines >= max_detail_lines || m_current->detail.size() >= max_detail_bytes) return;
    ++m_detail_lines;
    if (!m_current->detail.empty()) m_current->detail += "; ";
    m_current->detail += std::string(text.substr(0, max_detail_bytes));
  }

  void finish_record() {
    if (m_current) m_records.push_back(std::move(*m_current));
    m_current.reset();
    m_in_backtrace = false;
    m_detail_lines = 0;
  }

  // "ERROR SUMMARY: 3 errors", and after a print limit "ERROR SUMMARY: 97 errors were not printed".
  void error_summary(std::string_view content) {
    const auto parsed = leading_count(content.substr(14));
    if (!parsed || !(parsed->second.starts_with("error"))) unknown_summary(content);
    if (parsed->second.find("not printed") != std::string_view::npos) {
      m_report.notes.push_back(fmt::format(
          "{} errors were counted but not printed (compute-sanitizer's --print-limit): "
          "sanitizer_error_count includes them, the error list does not",
          parsed->first));
      return;
    }
    add_total(parsed->first);
  }

  // "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
  void racecheck_summary(std::string_view content) {
    const auto open = content.find('(');
    const auto errors = open == std::string_view::npos
                            ? std::nullopt
                            : leading_count(content.substr(open + 1));
    if (!errors || !errors->second.starts_with("error")) unknown_summary(content);
    add_total(errors->first);
  }

  void add_total(std::uint64_t errors) {
    m_report.errors = detail::add_count(m_report.errors, errors, m_file.string(), "error total");
    m_seen_summary = true;
    m_record_after_summary = false;
  }

  sanitizer_report merged() {
    std::map<std::tuple<std::string, std::string, std::string, std::string>, std::size_t> at;
    for (auto& record : m_records) {
      const auto key = std::tuple{record.severity, record.kind, record.kernel, record.location};
      const auto [where, added] = at.try_emplace(key, m_report.findings.size());
      if (added) {
        m_report.findings.push_back(std::move(record));
      } else {
        ++m_report.findings[where->second].count;
      }
    }
    return std::move(m_report);
  }

  [[noreturn]] void not_a_report(const std::string& why) const {
    throw capture_error(fmt::format(
        "{}: not a compute-sanitizer text report: it {}, where compute-sanitizer's --log-file "
        "report begins with '========= COMPUTE-SANITIZER'. Fix: point aorta at the --log-file "
        "output; aorta does not read --xml --save reports or cuda-memcheck's older format "
        "(rerun under compute-sanitizer, or with collect: sanitizer).",
        m_file.string(), why));
  }

  [[noreturn]] void fail_truncated(std::string_view why) const {
    throw capture_error(fmt::format(
        "{}: compute-sanitizer report {}: it is truncated (the tool was killed, timed out or "
        "crashed before it finished), so its errors cannot be trusted. Fix: rerun the trial; if it "
        "timed out, raise timeout_per_trial.",
        m_file.string(), why));
  }

  [[noreturn]] void unknown_summary(std::string_view content) const {
    throw capture_error(fmt::format(
        "{}: compute-sanitizer summary line {} is not in a format this reader knows (it reads "
        "'ERROR SUMMARY: N errors' and 'RACECHECK SUMMARY: N hazards displayed (E errors, W "
        "warnings)', as compute-sanitizer 2025.3 writes them). Fix: check `compute-sanitizer "
        "--version`; a newer format needs the reader updated (harness/src/collectors/sanitizer/).",
        m_file.string(), quoted_excerpt(content)));
  }

  fs::path m_file;
  sanitizer_report m_report;
  std::vector<finding> m_records;
  std::optional<finding> m_current;
  bool m_seen_banner = false;
  bool m_seen_summary = false;
  bool m_record_after_summary = false;
  bool m_in_backtrace = false;
  std::size_t m_detail_lines = 0;
};

std::string read_sanitizer_file(const fs::path& file) {
  try {
    return detail::read_input_file(file, detail::max_log_file_bytes, "max_log_file_bytes");
  } catch (const detail::input_error& e) {
    throw capture_error(e.what());
  }
}

}  // namespace

sanitizer_report parse_sanitizer_log(std::string_view text, const fs::path& file) {
  return log_parser(file).parse(text);
}

capture read_sanitizer_capture(const fs::path& dir_or_file) {
  capture out;
  out.collector = "sanitizer";
  auto inputs = detail::find_capture_inputs(
      dir_or_file, [](const std::string& name) { return name.ends_with(".log"); }, "sanitizer",
      "compute-sanitizer report (*.log)");
  out.artifact_dir = inputs.artifact_dir;
  out.notes = std::move(inputs.notes);
  if (inputs.files.empty()) return out;
  std::uint64_t errors = 0;
  for (const fs::path& file : inputs.files) {
    sanitizer_report report = parse_sanitizer_log(read_sanitizer_file(file), file);
    errors = detail::add_count(errors, report.errors, file.string(), "error total");
    out.files.push_back(file);
    for (auto& each : report.findings) out.findings.push_back(std::move(each));
    for (auto& note : report.notes) out.notes.push_back(fmt::format("{}: {}", file.string(), note));
  }
  std::uint64_t listed = 0;
  for (const auto& each : out.findings) {
    if (each.severity == "error") listed += each.count;
  }
  // The summary counts errors past --print-limit that are not listed; a tool-level error ("Error:
  // Target application terminated before ...") is listed but not always counted. The gate takes
  // the larger, so neither can pass unseen.
  out.reported_errors = std::max(errors, listed);
  if (listed != errors) {
    out.notes.push_back(fmt::format("the report lists {} error(s) and its summary counts {}; "
                                    "sanitizer_error_count is the larger",
                                    listed, errors));
  }
  return out;
}

}  // namespace aorta
