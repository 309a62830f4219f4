#include "metrics/metrics_table.hpp"

#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <utility>

namespace aorta {
namespace {

// The terminal table fits this many columns, however long a kernel's name is.
constexpr std::size_t table_columns = 120;
constexpr std::size_t list_item_columns = 32;

std::string launches_text(const std::optional<std::uint64_t>& launches) {
  return launches ? std::to_string(*launches) : std::string("unknown");
}

// Display width of UTF-8 text: bytes that do not continue a character.
std::size_t columns_of(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad_right(const std::string& text, std::size_t width) {
  const std::size_t used = columns_of(text);
  return used >= width ? text : text + std::string(width - used, ' ');
}

// A kernel list (mangled names, often hundreds of characters each) as short names, as many as
// fit in `columns`, then how many more there are.
std::string list_text(const std::vector<std::string>& items, std::size_t columns) {
  std::string shown;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = detail::short_name(items[i], list_item_columns);
    const std::string more = fmt::format(", +{} more", items.size() - i);
    const std::size_t after = columns_of(shown) + 2 + columns_of(item);
    if (i > 0 && after + (i + 1 < items.size() ? more.size() : 0) > columns) {
      return shown + more;
    }
    shown += (shown.empty() ? "" : ", ") + item;
  }
  return shown;
}

void render_values(const metric_set& metrics, std::ostream& out) {
  constexpr std::size_t name_budget = table_columns / 2;
  // A name within the budget is shown as it is, so only the longer ones are copied (shortened).
  std::string scratch;
  const auto shown = [&scratch](std::string_view name) -> std::string_view {
    if (name.size() <= name_budget) return name;
    scratch = detail::ellipsized(name, name_budget);
    return scratch;
  };
  // Two walks in display order, one for the column's width and one for the rows, rather than a
  // copy of every name (200,000 scope metrics).
  std::vector<std::string> folded;
  std::size_t name_width = 0;
  detail::visit_ordered_metric_names(metrics, folded, [&](std::string_view name) {
    name_width = std::max(name_width, columns_of(shown(name)));
  });
  // The names are in the map's order but for the few callgrind ones: a cursor finds each in
  // constant time, where a lookup per name walked the tree (200,000 scope metrics).
  auto cursor = metrics.values.begin();
  std::string line;
  detail::visit_ordered_metric_names(metrics, folded, [&](std::string_view name) {
    if (cursor == metrics.values.end() || cursor->first != name)
      cursor = metrics.values.find(std::string(name));
    const metric_value& value = (cursor++)->second;
    const auto* list = std::get_if<std::vector<std::string>>(&value);
    const std::string_view shown_name = shown(name);
    // One row at a time, into a line reused: the table as one string was a check's peak.
    line.assign(shown_name);
    line.append(name_width - std::min(name_width, columns_of(shown_name)) + 2, ' ');
    line += list ? list_text(*list, table_columns - name_width - 2) : format_metric_value(value);
    line += '\n';
    out << line;
  });
  if (!folded.empty()) {
    std::string list;
    for (const auto& function : folded) {
      if (list.size() + function.size() > 60) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + function;
    }
    out << fmt::format("(+{} loader/libc function(s) folded: {})\n", folded.size(), list);
  }
}

void render_kernels(const metric_set& metrics, std::ostream& out) {
  const std::string launches_header = "launches";
  const std::string time_header = "total ms";
  std::size_t launches_width = launches_header.size();
  std::size_t time_width = time_header.size();
  for (const auto& row : metrics.kernels) {
    launches_width = std::max(launches_width, launches_text(row.launches).size());
    time_width = std::max(time_width, detail::format_number(row.total_ms).size());
  }
  const std::size_t name_budget = table_columns - launches_width - time_width - 4;
  std::vector<std::string> names;
  std::size_t name_width = std::string_view("kernel").size();
  for (const auto& row : metrics.kernels) {
    names.push_back(detail::short_name(row.name, name_budget));
    name_width = std::max(name_width, columns_of(names.back()));
  }
  out << fmt::format("\n{}  {:>{}}  {:>{}}\n", pad_right("kernel", name_width), launches_header,
                     launches_width, time_header, time_width);
  for (std::size_t i = 0; i < metrics.kernels.size(); ++i) {
    const auto& row = metrics.kernels[i];
    out << fmt::format("{}  {:>{}}  {:>{}}\n", pad_right(names[i], name_width),
                       launches_text(row.launches), launches_width,
                       detail::format_number(row.total_ms), time_width);
  }
}

}  // namespace

namespace detail {

void write_metrics_table(std::ostream& out, const metric_set& metrics) {
  if (metrics.values.empty()) {
    out << "no metrics\n";
  } else {
    render_values(metrics, out);
  }
  if (!metrics.kernels.empty()) render_kernels(metrics, out);
  if (!metrics.notes.empty()) {
    out << '\n';
    for (const auto& note : metrics.notes) out << fmt::format("note: {}\n", note);
  }
}

}  // namespace detail

std::string format_metrics_table(const metric_set& metrics) {
  std::ostringstream out;
  detail::write_metrics_table(out, metrics);
  return std::move(out).str();
}

}  // namespace aorta
