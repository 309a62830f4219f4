#include "record/result_writer.hpp"

#include "json_pretty_writer.hpp"
#include "json_text.hpp"
#include "metrics/kernel_order.hpp"
#include "record/result_json_parts.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string_view>

namespace aorta::detail {
namespace {

// document_text's indent step; the writer reproduces nlohmann's pretty printing around it.
constexpr int writer_indent_step = 2;

void write_nested(std::ostream& out, const nlohmann::json& value, int depth) {
  std::string text;
  append_nested_json(text, value, depth);
  out << text;
}

// A JSON scalar as nlohmann prints it (shortest round-trip doubles); `scratch` is reused so a row
// costs no DOM.
void append_scalar(std::string& out, nlohmann::json& scratch) {
  out += dump_json(scratch);
}

// One element of `kernels` at nesting depth 2, the text write_nested(kernel_row_json(row), 2)
// would print, without building the row's object: keys in the object's (sorted) order. The unit
// test compares the two byte for byte.
void append_kernel_row(std::string& out, const std::string& collector,
                       std::optional<std::uint64_t> launches, std::string_view name,
                       double total_ms, nlohmann::json& scratch) {
  out += "{\n      \"collector\": ";
  append_json_string(out, collector, scratch);
  out += ",\n      \"launches\": ";
  if (launches) {
    out += std::to_string(*launches);
  } else {
    out += "null";
  }
  out += ",\n      \"name\": ";
  append_json_string(out, name, scratch);
  out += ",\n      \"total_ms\": ";
  if (std::isfinite(total_ms)) {
    scratch = total_ms;
    append_scalar(out, scratch);
  } else {
    out += "null";
  }
  out += "\n    }";
}

// Rows go out in chunks of about this many bytes: few writes, little memory.
constexpr std::size_t writer_chunk_bytes = std::size_t{1} << 16;

// The `kernels` array a row at a time, out in chunks: no row object and no DOM per kernel.
class kernel_rows_writer {
public:
  explicit kernel_rows_writer(std::ostream& out) : m_out(out) {
    m_chunk.reserve(writer_chunk_bytes + 1024);
  }

  void add(const std::string& collector, std::optional<std::uint64_t> launches,
           std::string_view name, double total_ms) {
    m_chunk += m_rows == 0 ? "[\n    " : ",\n    ";
    ++m_rows;
    append_kernel_row(m_chunk, collector, launches, name, total_ms, m_scratch);
    if (m_chunk.size() >= writer_chunk_bytes) {
      m_out.write(m_chunk.data(), static_cast<std::streamsize>(m_chunk.size()));
      m_chunk.clear();
    }
  }

  void finish() {
    m_chunk += m_rows == 0 ? "[]" : "\n  ]";
    m_out.write(m_chunk.data(), static_cast<std::streamsize>(m_chunk.size()));
  }

private:
  std::ostream& m_out;
  std::string m_chunk;
  nlohmann::json m_scratch;
  std::size_t m_rows = 0;
};

// The rows, then those compute_metrics would make of each capture in `unrowed`.
void write_kernels(std::ostream& out, const std::vector<kernel_row>& rows,
                   const std::vector<capture>& unrowed) {
  kernel_rows_writer writer(out);
  for (const kernel_row& row : rows)
    writer.add(row.collector, row.launches, row.name, row.total_ms);
  for (const capture& source : unrowed) {
    const kernels_by_time ordered(source);
    for (std::size_t i = 0; i < ordered.size(); ++i)
      writer.add(source.collector, ordered[i].launches, ordered[i].name,
                 ordered[i].total_ns / ns_per_ms);
  }
  writer.finish();
}

}  // namespace

void write_result_document(std::ostream& out, const trial_record& record) {
  write_result_document(out, record, {});
}

void write_result_document(std::ostream& out, const trial_record& record,
                           const std::vector<capture>& unrowed) {
  // Everything but the kernel rows is small: print it through the DOM, in the DOM's key order, and
  // put the rows in at their key one at a time.
  const nlohmann::json head = result_json_without_kernels(record);
  const std::string key_indent(writer_indent_step, ' ');
  out << "{\n";
  bool first = true;
  for (const auto& [key, value] : head.items()) {
    if (!first) out << ",\n";
    first = false;
    out << key_indent << dump_json(nlohmann::json(key)) << ": ";
    if (key == kernels_key) {
      write_kernels(out, record.metrics.kernels, unrowed);
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
