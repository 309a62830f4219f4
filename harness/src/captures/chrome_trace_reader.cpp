#include "captures/chrome_trace_reader.hpp"

#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_file_scan.hpp"
#include "captures/literal_equal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace aorta::detail {

namespace {

// One event's text field, in a byte buffer kept from event to event: std::string's assign was
// a library call per field of every event.
class field_text {
public:
  void assign(std::string_view text) {
    if (text.size() > m_bytes.size()) m_bytes.resize(std::max(text.size(), 2 * m_bytes.size()));
    if (!text.empty()) std::memcpy(m_bytes.data(), text.data(), text.size());
    m_size = text.size();
  }
  void clear() noexcept { m_size = 0; }
  [[nodiscard]] std::string_view view() const noexcept { return {m_bytes.data(), m_size}; }

private:
  std::vector<char> m_bytes;
  std::size_t m_size = 0;
};

// SAX sink for the trace: only the keys a kernel event needs are kept; everything else is skipped.
class chrome_trace_sax {
public:
  explicit chrome_trace_sax(chrome_trace_totals& out) : m_out(out) {}

  void begin_object() {
    const role r = value_role();
    if (r == role::top) {
      m_stack.push_back(role::top_object);
    } else if (r == role::events) {
      begin_event();
      m_stack.push_back(role::event);
    } else if (r == role::args) {
      m_stack.push_back(role::args);
    } else if (r == role::call_stack_entry || r == role::event_field) {
      shape_error(r, "an object");
    } else {
      m_stack.push_back(role::skip);
    }
  }
  void end_object() {
    const role r = m_stack.back();
    m_stack.pop_back();
    if (r == role::event) end_event();
  }
  void begin_array() {
    const role r = value_role();
    if (r == role::top || r == role::events_key) {
      m_stack.push_back(role::events);
    } else if (r == role::call_stack) {
      m_stack.push_back(role::call_stack);
    } else if (r == role::call_stack_entry || r == role::event_field) {
      shape_error(r, "an array");
    } else {
      m_stack.push_back(role::skip);
    }
  }
  void end_array() { m_stack.pop_back(); }

  void key(std::string_view k) {
    m_key_role = role::skip;
    switch (m_stack.back()) {
    case role::top_object:
      if (equals_literal(k, "traceEvents")) m_key_role = role::events_key;
      break;
    case role::event:
      m_field = field_of(k);
      if (m_field != field::other)
        m_key_role = role::event_field;
      else if (equals_literal(k, "args"))
        m_key_role = role::args;
      break;
    case role::args:
      if (equals_literal(k, "call_stack")) m_key_role = role::call_stack;
      break;
    default: break;
    }
  }

  void string_value(std::string_view s) { scalar(s, true); }
  void number(std::string_view raw) { scalar(raw, false); }
  void boolean(bool /*value*/) { scalar("", false); }
  void null() { scalar("", false); }

private:
  enum class role : std::uint8_t {
    top,
    top_object,
    events_key,
    events,
    event,
    event_field,
    args,
    call_stack,
    call_stack_entry,
    skip
  };

  enum class field : std::uint8_t { name, ph, dur, cat, ts, other };

  // By length first: one compare of the bytes per key, not one per candidate (seven keys on
  // every event).
  static field field_of(std::string_view k) noexcept {
    switch (k.size()) {
    case 2:
      if (equals_literal(k, "ph")) return field::ph;
      return equals_literal(k, "ts") ? field::ts : field::other;
    case 3:
      if (equals_literal(k, "dur")) return field::dur;
      return equals_literal(k, "cat") ? field::cat : field::other;
    case 4: return equals_literal(k, "name") ? field::name : field::other;
    default: return field::other;
    }
  }

  static std::string_view field_name(field f) noexcept {
    switch (f) {
    case field::name: return "name";
    case field::ph: return "ph";
    case field::dur: return "dur";
    case field::cat: return "cat";
    case field::ts: return "ts";
    case field::other: break;
    }
    return "";
  }

  role value_role() const {
    if (m_stack.empty()) return role::top;
    switch (m_stack.back()) {
    case role::events: return role::events;
    case role::call_stack: return role::call_stack_entry;
    case role::skip: return role::skip;
    default: return m_key_role;
    }
  }

  [[noreturn]] void shape_error(role r, std::string_view found) const {
    if (r == role::call_stack_entry)
      throw json_shape_error(
          fmt::format("a call_stack entry is {}, expected a frame name string", found));
    throw json_shape_error(fmt::format("the event field \"{}\" is {}, expected a string or number",
                                       field_name(m_field), found));
  }

  void begin_event() {
    m_name.clear();
    m_complete = false;
    m_kernel_category = false;
    m_category.clear();
    m_duration.clear();
    m_start.clear();
    m_has_name = m_has_duration = m_has_start = false;
    m_frame_ends.clear();
  }

  // Most scalars are skipped (tid, ts, other keys) or, without a tree, call_stack frame names
  // already known to be strings: those return here, inline, before the full dispatch's call.
  [[gnu::always_inline]] void scalar(std::string_view text, bool is_string) {
    const role r = value_role();
    if (r == role::skip) return;
    if (r == role::call_stack_entry && is_string) {
      // A tree that is not kept, or was dropped, places every kernel at the root whatever its
      // frames: their names are not stored.
      if (m_out.tree.keeps_tree() && !m_out.tree.dropped()) push_frame_name(text);
      return;
    }
    dispatch_scalar(r, text, is_string);
  }

  // Frame names go back to back into one reused buffer: a std::string per entry cost an
  // assignment call per frame of every event.
  void push_frame_name(std::string_view text) {
    const std::size_t used = m_frame_ends.empty() ? 0 : m_frame_ends.back();
    if (text.size() > m_frame_bytes.size() - used)
      m_frame_bytes.resize(std::max(m_frame_bytes.size() * 2, used + text.size()));
    if (!text.empty()) std::memcpy(m_frame_bytes.data() + used, text.data(), text.size());
    m_frame_ends.push_back(used + text.size());
  }

  [[nodiscard]] std::string_view frame_name(std::size_t i) const noexcept {
    const std::size_t start = i == 0 ? 0 : m_frame_ends[i - 1];
    return {m_frame_bytes.data() + start, m_frame_ends[i] - start};
  }

  void dispatch_scalar(role r, std::string_view text, bool is_string) {
    if (r == role::top)
      throw json_shape_error("the document is a single value, expected a chrome trace object "
                             "{\"traceEvents\": [...]} or an array of events");
    if (r == role::events) throw json_shape_error("a trace event is not an object");
    if (r == role::call_stack_entry) shape_error(r, "not a string");  // strings stop in scalar()
    if (r != role::event_field) return;
    switch (m_field) {
    case field::name:
      m_name.assign(text);
      m_has_name = is_string;
      break;
    case field::ph: m_complete = equals_literal(text, "X"); break;
    case field::cat:
      // Only another category's name is ever reported, so "kernel" itself is never copied.
      m_kernel_category = equals_literal(text, "kernel");
      if (!m_kernel_category) m_category.assign(text);
      break;
    case field::dur:
      m_duration.assign(text);
      m_has_duration = true;
      break;
    case field::ts:
      m_start.assign(text);
      m_has_start = !is_string;
      break;
    case field::other: break;
    }
  }

  void note(std::string text) {
    if (m_out.notes.size() < 50) m_out.notes.push_back(std::move(text));
  }

  void end_event() {
    if (!m_complete) return;
    if (!m_kernel_category) {
      ++m_out.other_complete_events;
      if (m_out.other_category.empty()) m_out.other_category = m_category;
      return;
    }
    if (!m_has_name) {
      note("a kernel event without a string \"name\" was skipped");
      return;
    }
    const std::optional<double> us =
        m_has_duration ? parse_metric_number(m_duration.view()) : std::nullopt;
    // Skipping the event would lower the kernel's time and could pass a `<` check: an error.
    if (!us || !std::isfinite(*us) || *us < 0.0)
      throw json_shape_error(
          fmt::format("kernel '{}': \"dur\" {} is not a finite non-negative number of microseconds",
                      m_name.view(), m_has_duration ? m_duration.view() : "is missing and"));
    // call_stack is ["ROOT", frames..., kernel]: the frames in between place the launch.
    std::size_t first = 0;
    std::size_t last = m_frame_ends.size();
    if (first < last && frame_name(first) == "ROOT") ++first;
    if (first < last && frame_name(last - 1) == m_name.view()) --last;
    std::size_t frame = context_frame::no_parent;
    for (std::size_t i = first; i < last; ++i) frame = m_out.tree.child(frame, frame_name(i));
    // "ts" only orders the launches for the warm-up rule; without a finite one, file order does.
    const std::optional<double> start =
        m_has_start ? parse_metric_number(m_start.view()) : std::nullopt;
    m_out.launches.add(m_out.tree, frame, m_name.view(),
                       start && std::isfinite(*start) ? *start : std::nan(""), *us * 1e3);
    ++m_out.kernel_events;
  }

  chrome_trace_totals& m_out;
  std::vector<role> m_stack;
  role m_key_role = role::skip;
  field m_field = field::other;
  field_text m_name;
  bool m_complete = false;         // "ph" is "X"
  bool m_kernel_category = false;  // "cat" is "kernel"; m_category holds any other
  std::string m_category;
  field_text m_duration;
  field_text m_start;
  bool m_has_name = false;
  bool m_has_duration = false;
  bool m_has_start = false;
  std::vector<char> m_frame_bytes;        // this event's call_stack entries, back to back
  std::vector<std::size_t> m_frame_ends;  // entry i ends at m_frame_ends[i]
};

}  // namespace

void scan_chrome_trace(json_chunk_reader reader, std::size_t chunk_size, chrome_trace_totals& out) {
  chrome_trace_sax sax(out);
  json_scanner<chrome_trace_sax> scanner(sax, std::move(reader), chunk_size);
  scanner.allow_document_sequence();
  scanner.run();
}

void read_chrome_trace_file(const std::filesystem::path& file, chrome_trace_totals& out) {
  out.tree.set_source(file.string());
  scan_hatchet_file(file, [&](json_chunk_reader reader) {
    scan_chrome_trace(std::move(reader), json_default_chunk_size, out);
  });
  // One file is one process's trace (a rank's, or a stream's of one process): its launches.
  out.launches.flush(out.tree, out.notes, file.string());
}

void finish_chrome_trace(chrome_trace_totals& totals, capture& out) {
  totals.launches.flush(totals.tree, totals.notes, "the trace");
  totals.tree.take_kernels(out);
  totals.tree.finish(out);
  for (std::string& n : totals.notes) out.notes.push_back(std::move(n));
  if (totals.other_complete_events != 0)
    out.notes.push_back(fmt::format(
        "{} complete events of category '{}' (not \"kernel\") were not read as kernel launches",
        totals.other_complete_events, totals.other_category));
  totals = chrome_trace_totals{};
}

}  // namespace aorta::detail
