#include "record/result_reader.hpp"

#include "json_sax_routing.hpp"
#include "json_text.hpp"
#include "record/result_json_parts.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace aorta::detail {
namespace {

using json = nlohmann::json;
using dom_builder = nlohmann::detail::json_sax_dom_parser<json>;

// Builds the document's DOM except the members of the top-level `metrics` object and the elements
// of the top-level `kernels` array: each of those is built alone (a scalar or a small container),
// converted into `rows` and dropped. nlohmann's DOM builder does the building, so every value
// means what it means in parse_json's DOM.
class result_sax : public routed_dom_sax<result_sax> {
public:
  result_sax(json& root, streamed_rows& rows) : m_document(root, true), m_rows(rows) {}

  bool key(std::string& name) {
    if (m_element) return m_element->key(name);
    if (m_section == section::metrics && m_depth == 2) {
      m_metric_name = name;
      return true;
    }
    if (m_depth == 1) start_top_level_member(name);
    return m_document.key(name);
  }

private:
  friend class routed_dom_sax<result_sax>;
  enum class section { none, metrics, kernels };

  // At the section's element level: where the next value starts an element of its own.
  [[nodiscard]] bool at_element_level() const {
    return !m_element && m_section != section::none && m_depth == 2;
  }

  void start_top_level_member(const std::string& name) {
    m_top_key = name;
    // A later duplicate replaces the earlier in the DOM, so what was streamed is dropped.
    if (name == "metrics") m_rows.metrics_streamed = false;
    if (name == "kernels") m_rows.kernels_streamed = false;
  }

  template <typename Event>
  bool scalar(const Event& event) {
    if (at_element_level()) {
      begin_element();
      event(*m_element);
      finish_element();
      return true;
    }
    return event(m_element ? *m_element : m_document);
  }

  bool open(bool object, std::size_t n) {
    if (at_element_level()) begin_element();
    if (m_element) {
      ++m_element_depth;
      return object ? m_element->start_object(n) : m_element->start_array(n);
    }
    ++m_depth;
    const bool placeholder =
        m_depth == 2 && (object ? m_top_key == "metrics" : m_top_key == "kernels");
    if (placeholder) begin_section(object ? section::metrics : section::kernels);
    return object ? m_document.start_object(n) : m_document.start_array(n);
  }

  bool close(bool object) {
    if (m_element) {
      const bool done = object ? m_element->end_object() : m_element->end_array();
      if (--m_element_depth == 0) finish_element();
      return done;
    }
    if (m_depth == 2) m_section = section::none;
    --m_depth;
    return object ? m_document.end_object() : m_document.end_array();
  }

  void begin_section(section which) {
    m_section = which;
    if (which == section::metrics) {
      m_rows.metrics_streamed = true;
      m_rows.metrics.clear();
      m_rows.metric_failures.clear();
    } else {
      m_rows.kernels_streamed = true;
      m_rows.kernels.clear();
      m_rows.kernel_failure = nullptr;
    }
  }

  void begin_element() {
    m_value = json();
    m_element.emplace(m_value, true);
    m_element_depth = 0;
  }

  void finish_element() {
    m_element.reset();
    if (m_section == section::metrics) {
      add_metric();
    } else if (!m_rows.kernel_failure) {
      try {
        m_rows.kernels.push_back(kernel_row_from_json(m_value));
      } catch (...) {
        m_rows.kernel_failure = std::current_exception();
      }
    }
    m_value = json();
  }

  // As the DOM's object[name] = value would: a duplicate name replaces the earlier value.
  void add_metric() {
    auto& metrics = m_rows.metrics;
    m_rows.metric_failures.erase(m_metric_name);
    std::optional<metric_value> converted;
    try {
      converted = metric_value_from_json(m_metric_name, m_value);
    } catch (...) {
      metrics.erase(m_metric_name);
      m_rows.metric_failures.emplace(m_metric_name, std::current_exception());
      return;
    }
    if (!converted) {
      metrics.erase(m_metric_name);
      return;
    }
    // One search, none for a name after the last (aorta writes its metrics in name order): an
    // erase and an emplace were two searches of a map of up to 200,000 names per metric.
    auto at = metrics.end();
    if (!metrics.empty() && !(metrics.rbegin()->first < m_metric_name)) {
      at = metrics.lower_bound(m_metric_name);
      if (at != metrics.end() && at->first == m_metric_name) {
        at->second = std::move(*converted);
        return;
      }
    }
    metrics.emplace_hint(at, m_metric_name, std::move(*converted));
  }

  dom_builder m_document;
  streamed_rows& m_rows;
  std::size_t m_depth = 0;  // containers of the document open, outside any element
  std::string m_top_key;
  section m_section = section::none;
  std::string m_metric_name;
  json m_value;
  std::optional<dom_builder> m_element;
  std::size_t m_element_depth = 0;
};

}  // namespace

trial_record trial_record_from_text(std::string_view text) {
  // The limits and the syntax first, as parse_json does: the second pass builds only what is
  // known to be within bounds.
  check_json_text(text);
  json document;
  streamed_rows rows;
  result_sax handler(document, rows);
  (void)json::sax_parse(text, &handler);
  return trial_record_from_parts(document, &rows);
}

}  // namespace aorta::detail
