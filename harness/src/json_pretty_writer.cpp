#include "json_pretty_writer.hpp"

#include "json_text.hpp"

#include <cmath>

namespace aorta::detail {
namespace {

constexpr int indent_step = 2;  // document_text's
constexpr std::size_t chunk_bytes = std::size_t{1} << 16;

// Printable ASCII without a quote or backslash: the text nlohmann prints between quotes as it is
// (nearly every name; a dump per string was a fifth of a check's time).
bool prints_as_is(std::string_view text) noexcept {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text, nlohmann::json& scratch) {
  if (prints_as_is(text)) {
    out += '"';
    out += text;
    out += '"';
    return;
  }
  scratch = std::string(text);
  out += dump_json(scratch);
}

void append_nested_json(std::string& out, const nlohmann::json& value, int depth) {
  // A dumped string never holds a raw newline (it is escaped), so each '\n' is a line break.
  const std::string text = dump_json(value, indent_step);
  const std::string shift(static_cast<std::size_t>(depth * indent_step), ' ');
  std::string_view rest = text;
  for (auto line_end = rest.find('\n'); line_end != std::string_view::npos;
       line_end = rest.find('\n')) {
    out += rest.substr(0, line_end + 1);
    out += shift;
    rest.remove_prefix(line_end + 1);
  }
  out += rest;
}

json_pretty_writer::json_pretty_writer(std::ostream& out) : m_out(out) {
  m_buffer.reserve(chunk_bytes + 4096);
}

void json_pretty_writer::line_break() {
  m_buffer += '\n';
  m_buffer.append(m_levels.size() * indent_step, ' ');
}

void json_pretty_writer::before_value() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_levels.empty()) return;
  level& open = m_levels.back();
  if (!open.empty) m_buffer += ',';
  open.empty = false;
  line_break();
}

void json_pretty_writer::flush_if_full() {
  if (m_buffer.size() < chunk_bytes) return;
  m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
  m_buffer.clear();
}

void json_pretty_writer::begin_object() {
  before_value();
  m_buffer += '{';
  m_levels.push_back({true, true});
}

void json_pretty_writer::begin_array() {
  before_value();
  m_buffer += '[';
  m_levels.push_back({false, true});
}

void json_pretty_writer::end() {
  const level closed = m_levels.back();
  m_levels.pop_back();
  if (!closed.empty) line_break();
  m_buffer += closed.is_object ? '}' : ']';
  flush_if_full();
}

void json_pretty_writer::key(std::string_view name) {
  before_value();
  append_json_string(m_buffer, name, m_scratch);
  m_buffer += ": ";
  m_after_key = true;
}

void json_pretty_writer::string(std::string_view text) {
  before_value();
  append_json_string(m_buffer, text, m_scratch);
  flush_if_full();
}

void json_pretty_writer::number(double value) {
  before_value();
  if (std::isfinite(value)) {
    m_scratch = value;
    m_buffer += dump_json(m_scratch);
  } else {
    m_buffer += "null";
  }
}

void json_pretty_writer::number(std::uint64_t value) {
  before_value();
  m_buffer += std::to_string(value);
}

void json_pretty_writer::null() {
  before_value();
  m_buffer += "null";
}

void json_pretty_writer::value(const nlohmann::json& value) {
  before_value();
  append_nested_json(m_buffer, value, static_cast<int>(m_levels.size()));
  flush_if_full();
}

void json_pretty_writer::finish() {
  m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
  m_buffer.clear();
}

}  // namespace aorta::detail
