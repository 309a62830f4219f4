#include "record/result_writer.hpp"

#include "json_text.hpp"
#include "record/result_json_parts.hpp"

#include <sstream>
#include <string_view>

namespace aorta::detail {
namespace {

// document_text's indent step; the writer reproduces nlohmann's pretty printing around it.
constexpr int indent_step = 2;

// `value` printed as nlohmann prints it nested `depth` levels deep: its own indented dump with every
// line after the first shifted right. A dumped string never holds a raw newline (it is escaped),
// so each '\n' in the dump is a line break of the layout.
void write_nested(std::ostream& out, const nlohmann::json& value, int depth) {
  const std::string text = dump_json(value, indent_step);
  const std::string shift(static_cast<std::size_t>(depth * indent_step), ' ');
  std::string_view rest = text;
  for (auto line_end = rest.find('\n'); line_end != std::string_view::npos;
       line_end = rest.find('\n')) {
    out << rest.substr(0, line_end + 1) << shift;
    rest.remove_prefix(line_end + 1);
  }
  out << rest;
}

void write_kernels(std::ostream& out, const std::vector<kernel_row>& rows) {
  if (rows.empty()) {
    out << "[]";
    return;
  }
  const std::string element_indent(2 * indent_step, ' ');
  out << "[\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i != 0) out << ",\n";
    out << element_indent;
    write_nested(out, kernel_row_json(rows[i]), 2);
  }
  out << '\n' << std::string(indent_step, ' ') << ']';
}

}  // namespace

void write_result_document(std::ostream& out, const trial_record& record) {
  // Everything but the kernel rows is small: print it through the DOM, in the DOM's key order, and
  // put the rows in at their key one at a time.
  const nlohmann::json head = result_json_without_kernels(record);
  const std::string key_indent(indent_step, ' ');
  out << "{\n";
  bool first = true;
  for (const auto& [key, value] : head.items()) {
    if (!first) out << ",\n";
    first = false;
    out << key_indent << dump_json(nlohmann::json(key)) << ": ";
    if (key == kernels_key) {
      write_kernels(out, record.metrics.kernels);
    } else {
      write_nested(out, value, 1);
    }
  }
  out << "\n}\n";
}

std::string result_document_text(const trial_record& record) {
  std::ostringstream text;
  write_result_document(text, record);
  return std::move(text).str();
}

}  // namespace aorta::detail
