// The Proton hatchet document as SAX events: [root node, device table]. This layer knows the shape
// (node = {frame, metrics, children} in any key order) and the metric keys; what to do with a
// finished node is the Sink's business, so the capture reader and the tree view share it.
//
// Sink interface:
//   void node_begin(std::size_t depth);                         // depth 0 = ROOT
//   void node_end(const hatchet_node& node, std::size_t depth); // all keys of the node seen
//   void device_property(std::string_view type, std::string_view id, std::string_view key,
//                        std::string_view value);
//   void device_seen(std::string_view type, std::string_view id);
#pragma once

#include "aorta/capture.hpp"
#include "captures/json_scanner.hpp"
#include "captures/literal_equal.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// A user metric of a node whose value is a string or an array (aorta/capture.hpp text_metric):
// the key, the text cut at text_metric_max_bytes, and the length the whole value had.
struct hatchet_text_value {
  std::string key;
  std::string text;
  std::size_t full_bytes = 0;
};

// What one node carried. Metric values are already validated; the first rejected value of each
// kind is kept as text so the sink can name it in a note once the node's name is known (Proton
// writes "children" and "frame" before "metrics" or after it, in no fixed order).
struct hatchet_node {
  enum class count_state : std::uint8_t { missing, valid, invalid };

  std::string name;
  bool has_name = false;
  bool name_from_frame = false;
  bool has_children = false;
  std::optional<double> time_ns;
  count_state count = count_state::missing;
  std::uint64_t launches = 0;
  std::optional<double> cycles;
  std::optional<double> normalized_cycles;
  std::string device_type;
  std::string rejected_time;    // "key = value" of the first unusable time value
  std::string rejected_count;   // the raw text of an unusable count
  std::string rejected_cycles;  // "key = value" of the first unusable cycle value
  std::vector<hatchet_text_value> texts;  // at most text_metric_max_count
  std::size_t texts_dropped = 0;          // text values beyond that count
  // PC sampling (Proton cupti/rocprofiler `mode: pcsampling`): a source line's sample counts.
  std::optional<std::uint64_t> samples;          // num_samples
  std::optional<std::uint64_t> stalled_samples;  // num_stalled_samples
  std::vector<pc_stall> stalls;                  // stalled_<reason>, non-zero values only
  std::string rejected_samples;  // "key = value" of the first unusable sample count

  // Inline, as it runs once per node of the tree.
  void reset() {
    name.clear();
    has_name = false;
    name_from_frame = false;
    has_children = false;
    time_ns.reset();
    count = count_state::missing;
    launches = 0;
    cycles.reset();
    normalized_cycles.reset();
    device_type.clear();
    rejected_time.clear();
    rejected_count.clear();
    rejected_cycles.clear();
    texts.clear();
    texts_dropped = 0;
    samples.reset();
    stalled_samples.reset();
    stalls.clear();
    rejected_samples.clear();
  }
};

// Proton's prefix of a PC sample's stall-reason metrics, and how many distinct reasons one node
// may carry (cupti reports 20 on Hopper; a hostile file must not grow a node without bound).
inline constexpr std::string_view pc_stall_prefix = "stalled_";
inline constexpr std::size_t pc_stall_max_reasons = 64;

// Metric keys the reader understands.
enum class hatchet_metric : std::uint8_t {
  ignored,
  time,
  count,
  cycles,
  normalized_cycles,
  device_type,
  samples,
  stalled_samples,
  stall_reason
};
// Classifies a metrics key; for time keys sets `ns_per_unit` (1, 1e3, 1e6, 1e9).
hatchet_metric classify_hatchet_metric(std::string_view key, double& ns_per_unit) noexcept;
// A JSON number's text or a numeric string as a double; nullopt when it is not one.
std::optional<double> parse_metric_number(std::string_view text) noexcept;
// A launch count: a non-negative integer, possibly written as 3.0; nullopt otherwise.
std::optional<std::uint64_t> parse_launch_count(std::string_view text) noexcept;

// The parts of the SAX state machine that do not depend on the sink (hatchet_reader_sax.cpp).
class hatchet_sax_base {
protected:
  enum class role : std::uint8_t {
    top,
    node,
    frame,
    frame_name,
    node_name,
    metrics,
    metric_value,
    children,
    devices,
    device_kind,
    device,
    device_property,
    skip
  };
  struct open_container {
    role what;
    std::uint32_t elements;
  };

  // The role of a value about to start, from the enclosing container and the last key. Inline:
  // it runs once per value of the document.
  role value_role() {
    if (m_stack.empty()) return role::top;
    open_container& parent = m_stack.back();
    switch (parent.what) {
    case role::top: return top_element_role(parent.elements++);
    case role::children: ++parent.elements; return role::node;
    default: return m_after_key;
    }
  }
  // Element `index` of the top-level array: the root node, then the device table, then an error.
  static role top_element_role(std::uint32_t index);
  // Shape errors for a value of the wrong JSON type.
  [[noreturn]] static void wrong_type(role r, std::string_view found);
  // Inline: three keys on every node of the tree. By length first, one compare of the bytes per
  // key, not one per candidate.
  void on_node_key(std::string_view key) {
    switch (key.size()) {
    case 4: m_after_key = equals_literal(key, "name") ? role::node_name : role::skip; break;
    case 5: m_after_key = equals_literal(key, "frame") ? role::frame : role::skip; break;
    case 7: m_after_key = equals_literal(key, "metrics") ? role::metrics : role::skip; break;
    case 8: m_after_key = equals_literal(key, "children") ? role::children : role::skip; break;
    default: m_after_key = role::skip; break;
    }
    if (m_after_key == role::skip) unexpected_node_key(key);
  }
  // A key no node has: ignored, unless it says the file is a chrome trace.
  static void unexpected_node_key(std::string_view key);
  void on_metric_value(std::string_view text, bool is_string);
  // num_samples, num_stalled_samples and stalled_<reason> of a PC-sampling line node.
  void on_sample_count(hatchet_node& node, std::string_view text,
                       const std::function<std::string()>& rejected);

  // An array under a user metric key is kept as JSON text: these rebuild it from the events
  // inside it (bounded by text_metric_max_bytes; the full length is still counted).
  [[nodiscard]] bool capturing() const noexcept { return m_capture_depth != 0; }
  // True when the value about to start is a user metric aorta keeps as text.
  [[nodiscard]] bool keeps_as_text() const noexcept;
  void capture_open(char bracket);
  void capture_close(char bracket);
  void capture_key(std::string_view key);
  void capture_scalar(std::string_view text, bool is_string);
  void keep_text(std::string_view text, std::size_t full_bytes);

  std::vector<open_container> m_stack;
  role m_after_key = role::skip;
  std::size_t m_skip_depth = 0;
  std::vector<hatchet_node> m_nodes;  // reused per depth, so names keep their capacity
  std::size_t m_depth = 0;            // open nodes
  hatchet_metric m_metric = hatchet_metric::ignored;
  double m_metric_scale = 1.0;
  std::string m_metric_key;
  std::string m_device_kind;
  std::string m_device_id;
  std::string m_property;
  std::size_t m_capture_depth = 0;
  bool m_capture_comma = false;
  std::size_t m_capture_bytes = 0;  // the whole array's JSON length, kept or not
  std::string m_capture;

  hatchet_node& current() { return m_nodes[m_depth - 1]; }
};

template <class Sink>
class hatchet_sax : private hatchet_sax_base {
public:
  explicit hatchet_sax(Sink& sink) : m_sink(sink) {}

  void begin_object() {
    if (capturing()) {
      capture_open('{');
      return;
    }
    if (m_skip_depth != 0) {
      ++m_skip_depth;
      return;
    }
    const role r = value_role();
    switch (r) {
    case role::node:
      if (m_depth != 0) m_nodes[m_depth - 1].has_children = true;
      if (m_depth == m_nodes.size()) m_nodes.emplace_back();
      m_nodes[m_depth].reset();
      m_sink.node_begin(m_depth);
      ++m_depth;
      break;
    case role::device: m_sink.device_seen(m_device_kind, m_device_id); break;
    case role::frame:
    case role::metrics:
    case role::devices:
    case role::device_kind: break;
    case role::metric_value:
    case role::device_property:
    case role::skip: m_skip_depth = 1; return;
    default: wrong_type(r, "an object");
    }
    m_stack.push_back({r, 0});
  }

  void end_object() {
    if (capturing()) {
      capture_close('}');
      return;
    }
    if (m_skip_depth != 0) {
      --m_skip_depth;
      return;
    }
    const role r = m_stack.back().what;
    m_stack.pop_back();
    if (r == role::node) {
      hatchet_node& node = current();
      if (!node.has_name)
        throw json_shape_error("a node without \"frame\": {\"name\": ...} (expected every node "
                               "of the tree to be named)");
      m_sink.node_end(node, m_depth - 1);
      --m_depth;
    }
  }

  void begin_array() {
    if (capturing()) {
      capture_open('[');
      return;
    }
    if (m_skip_depth != 0) {
      ++m_skip_depth;
      return;
    }
    const role r = value_role();
    if (r == role::metric_value && keeps_as_text()) {
      capture_open('[');
      return;
    }
    if (r == role::metric_value || r == role::device_property || r == role::skip) {
      m_skip_depth = 1;
      return;
    }
    if (r != role::top && r != role::children) wrong_type(r, "an array");
    m_stack.push_back({r, 0});
  }

  void end_array() {
    if (capturing()) {
      capture_close(']');
      return;
    }
    if (m_skip_depth != 0) {
      --m_skip_depth;
      return;
    }
    if (m_stack.back().what == role::top && m_stack.back().elements == 0)
      throw json_shape_error("an empty top-level array (expected [root node, device table])");
    m_stack.pop_back();
  }

  void key(std::string_view k) {
    if (capturing()) {
      capture_key(k);
      return;
    }
    if (m_skip_depth != 0) return;
    switch (m_stack.back().what) {
    case role::node: on_node_key(k); break;
    case role::frame:
      m_after_key = equals_literal(k, "name") ? role::frame_name : role::skip;
      break;
    case role::metrics:
      m_after_key = role::metric_value;
      m_metric = classify_hatchet_metric(k, m_metric_scale);
      m_metric_key.assign(k);
      break;
    case role::devices:
      m_after_key = role::device_kind;
      m_device_kind.assign(k);
      break;
    case role::device_kind:
      m_after_key = role::device;
      m_device_id.assign(k);
      break;
    case role::device:
      m_after_key = role::device_property;
      m_property.assign(k);
      break;
    default: m_after_key = role::skip; break;
    }
  }

  void string_value(std::string_view s) { scalar(s, true, "a string"); }
  void number(std::string_view raw) { scalar(raw, false, "a number"); }
  void boolean(bool b) { scalar(b ? "true" : "false", false, "a boolean"); }
  void null() { scalar("", false, "null"); }

private:
  void scalar(std::string_view text, bool is_string, std::string_view found) {
    if (capturing()) {
      capture_scalar(text, is_string);
      return;
    }
    if (m_skip_depth != 0) return;
    const role r = value_role();
    switch (r) {
    case role::skip: return;
    case role::metric_value: on_metric_value(text, is_string); return;
    case role::device_property:
      if (found != "null") m_sink.device_property(m_device_kind, m_device_id, m_property, text);
      return;
    case role::frame_name:
    case role::node_name:
      if (!is_string) wrong_type(r, found);
      if (r == role::frame_name || !current().name_from_frame) {
        // clear + append, not assign: assign's general replace (it allows overlap) was twice
        // the instructions of a copy, once per node.
        current().name.clear();
        current().name.append(text);
        current().has_name = true;
        current().name_from_frame = r == role::frame_name;
      }
      return;
    case role::metrics:
    case role::devices:
      if (found == "null") return;  // treated as empty
      wrong_type(r, found);
    default: wrong_type(r, found);
    }
  }

  Sink& m_sink;
};

}  // namespace aorta::detail
