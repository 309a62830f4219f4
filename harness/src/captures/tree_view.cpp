#include "captures/tree_view.hpp"

#include "aorta/error.hpp"
#include "aorta/scope_path.hpp"
#include "captures/hatchet_reader_detail.hpp"
#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_scanner.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace aorta {

namespace {

using detail::hatchet_node;

enum class view_metric : std::uint8_t { time, count, cycles, normalized_cycles };

struct metric_choice {
  std::string_view name;
  view_metric kind;
  double divisor;      // ns per displayed unit for time
  const char* format;  // how a value prints
};

constexpr std::array<metric_choice, 8> metric_choices{{
    {"time/ns", view_metric::time, 1.0, "{:.0f}"},
    {"time/us", view_metric::time, 1e3, "{:.3f}"},
    {"time/ms", view_metric::time, 1e6, "{:.3f}"},
    {"time/s", view_metric::time, 1e9, "{:.6f}"},
    {"count", view_metric::count, 1.0, "{:.0f}"},
    {"cycles", view_metric::cycles, 1.0, "{:.0f}"},
    {"normalized_cycles", view_metric::normalized_cycles, 1.0, "{:.3f}"},
    {"time/%", view_metric::time, 0.0, "{:.2f}%"},  // divisor 0: the root's time / 100
}};

std::string metric_list() {
  std::string names;
  for (const metric_choice& m : metric_choices) {
    if (!names.empty()) names += ", ";
    names += m.name;
  }
  return names;
}

// Holds the whole tree: the view is for humans, and its files are the ones humans read.
class tree_builder {
public:
  struct view_node {
    std::string name;
    std::array<double, 4> own{};  // indexed by view_metric
    double inclusive = 0.0;
    std::uint32_t parent = 0;
    std::vector<std::uint32_t> children;
  };

  void node_begin(std::size_t depth) {
    const auto index = static_cast<std::uint32_t>(m_nodes.size());
    m_nodes.emplace_back();
    if (depth != 0) {
      m_nodes.back().parent = m_open[depth - 1];
      m_nodes[m_open[depth - 1]].children.push_back(index);
    }
    if (m_open.size() <= depth) m_open.resize(depth + 1);
    m_open[depth] = index;
  }

  void node_end(const hatchet_node& node, std::size_t depth) {
    view_node& v = m_nodes[m_open[depth]];
    v.name = node.name;
    const bool counts = depth != 0;  // ROOT's zero-valued hints say nothing about the data
    if (node.time_ns) {
      v.own[static_cast<std::size_t>(view_metric::time)] = *node.time_ns;
      m_present[static_cast<std::size_t>(view_metric::time)] |= counts;
    }
    if (node.count == hatchet_node::count_state::valid) {
      v.own[static_cast<std::size_t>(view_metric::count)] = static_cast<double>(node.launches);
      m_present[static_cast<std::size_t>(view_metric::count)] |= counts;
    }
    if (node.cycles) {
      v.own[static_cast<std::size_t>(view_metric::cycles)] = *node.cycles;
      m_present[static_cast<std::size_t>(view_metric::cycles)] |= counts;
    }
    if (node.normalized_cycles) {
      v.own[static_cast<std::size_t>(view_metric::normalized_cycles)] = *node.normalized_cycles;
      m_present[static_cast<std::size_t>(view_metric::normalized_cycles)] |= counts;
    }
  }

  void device_seen(std::string_view, std::string_view) {}
  void device_property(std::string_view, std::string_view, std::string_view, std::string_view) {}

  [[nodiscard]] bool present(view_metric m) const { return m_present[static_cast<std::size_t>(m)]; }
  std::vector<view_node>& nodes() { return m_nodes; }

private:
  std::vector<view_node> m_nodes;
  std::vector<std::uint32_t> m_open;  // index of the open node at each depth
  std::array<bool, 4> m_present{};
};

const metric_choice& choose_metric(std::string_view requested, const tree_builder& tree,
                                   const std::filesystem::path& file) {
  if (requested.empty())
    requested = tree.present(view_metric::time) || !tree.present(view_metric::cycles) ? "time/ms"
                                                                                      : "cycles";
  const auto it = std::find_if(metric_choices.begin(), metric_choices.end(),
                               [&](const metric_choice& m) { return m.name == requested; });
  if (it == metric_choices.end())
    throw usage_error(
        fmt::format("unknown metric '{}' for aorta view; available: {}", requested, metric_list()));
  if (!tree.present(it->kind) &&
      (tree.present(view_metric::time) || tree.present(view_metric::cycles) ||
       tree.present(view_metric::count))) {
    std::string there;
    for (const metric_choice& m : metric_choices) {
      if (!tree.present(m.kind)) continue;
      if (!there.empty()) there += ", ";
      there += m.name;
    }
    throw usage_error(
        fmt::format("{} has no '{}' values; choose one of: {}", file.string(), requested, there));
  }
  return *it;
}

// The scope paths of the inner nodes (what a check writes in under(...)), by node index.
struct check_paths {
  capture frames_only;
  std::vector<std::size_t> frame_of;  // node index -> frame id, or no_parent
};

// Only a tree with kernel times has frames a check can select (an instrumentation tree's inner
// nodes are kernels with cycle scopes below them).
check_paths inner_frames(const std::vector<tree_builder::view_node>& nodes, bool has_times) {
  check_paths paths;
  paths.frame_of.assign(nodes.size(), context_frame::no_parent);
  for (std::size_t i = 1; has_times && i < nodes.size(); ++i) {
    if (nodes[i].children.empty()) continue;
    paths.frame_of[i] = paths.frames_only.frames.size();
    paths.frames_only.frames.push_back({nodes[i].name, paths.frame_of[nodes[i].parent]});
  }
  return paths;
}

struct column {
  const metric_choice* metric;
  std::vector<double> inclusive;  // per node
  double divisor = 1.0;           // for time/%: the root's time / 100
};

std::string cell(const column& col, std::uint32_t index) {
  return fmt::format(fmt::runtime(col.metric->format), col.inclusive[index] / col.divisor);
}

void print(const std::vector<tree_builder::view_node>& nodes, const std::vector<column>& columns,
           const std::vector<std::size_t>& widths, const check_paths& paths, std::uint32_t index,
           const std::string& prefix, bool is_root, bool is_last, std::size_t depth,
           std::optional<std::size_t> max_depth, std::ostream& out) {
  const tree_builder::view_node& node = nodes[index];
  // One metric: "<rules><value> <name>", as before; several: aligned columns, then the tree.
  if (columns.size() > 1) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << fmt::format("{:>{}} ", cell(columns[c], index), widths[c]);
  }
  out << prefix;
  if (!is_root) out << (is_last ? "└─ " : "├─ ");
  if (columns.size() == 1) out << cell(columns.front(), index) << ' ';
  out << node.name;
  if (max_depth && depth == *max_depth && !node.children.empty()) {
    out << fmt::format(" (+{} below)", node.children.size());
  }
  if (paths.frame_of[index] != context_frame::no_parent)
    out << "   [under(" << frame_check_path(paths.frames_only, paths.frame_of[index]) << ")]";
  out << '\n';
  if (max_depth && depth >= *max_depth) return;
  const std::string child_prefix = is_root ? prefix : prefix + (is_last ? "   " : "│  ");
  for (std::size_t i = 0; i < node.children.size(); ++i)
    print(nodes, columns, widths, paths, node.children[i], child_prefix, false,
          i + 1 == node.children.size(), depth + 1, max_depth, out);
}

}  // namespace

void render_hatchet_tree(const std::filesystem::path& file, std::string_view metric,
                         std::ostream& out) {
  tree_view_options options;
  if (!metric.empty()) options.metrics.emplace_back(metric);
  render_hatchet_tree(file, options, out);
}

void render_hatchet_tree(const std::filesystem::path& file, const tree_view_options& options,
                         std::ostream& out) {
  tree_builder tree;
  detail::scan_hatchet_file(file, [&](detail::json_chunk_reader reader) {
    detail::hatchet_sax<tree_builder> sax(tree);
    detail::json_scanner<detail::hatchet_sax<tree_builder>> scanner(sax, std::move(reader));
    scanner.run();
  });
  std::vector<std::string> requested = options.metrics;
  if (requested.empty()) requested.emplace_back();
  std::vector<column> columns;
  for (const auto& name : requested) columns.push_back({&choose_metric(name, tree, file), {}, 1.0});
  // The values below carry no unit of their own; this line says what they are.
  std::string names;
  for (const auto& col : columns) names += (names.empty() ? "" : ", ") + std::string(col.metric->name);
  out << names << " of " << file.string() << '\n';
  std::vector<tree_builder::view_node>& nodes = tree.nodes();
  if (nodes.empty()) return;

  // Children always come after their parent, so one backward pass sums bottom-up.
  for (auto& col : columns) {
    const auto kind = static_cast<std::size_t>(col.metric->kind);
    col.inclusive.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) col.inclusive[i] = nodes[i].own[kind];
    for (std::size_t i = nodes.size() - 1; i > 0; --i)
      col.inclusive[nodes[i].parent] += col.inclusive[i];
    col.divisor = col.metric->divisor;
    if (col.metric->divisor == 0.0) col.divisor = col.inclusive[0] > 0 ? col.inclusive[0] / 100 : 1;
  }
  const std::vector<double>& order = columns.front().inclusive;
  for (auto& n : nodes) {
    std::stable_sort(n.children.begin(), n.children.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (!options.sort_by_name && order[a] != order[b]) return order[a] > order[b];
      return nodes[a].name < nodes[b].name;
    });
  }
  std::vector<std::size_t> widths;
  for (const auto& col : columns) {
    std::size_t width = col.metric->name.size();
    for (std::uint32_t i = 0; i < nodes.size(); ++i) width = std::max(width, cell(col, i).size());
    widths.push_back(width);
  }
  if (columns.size() > 1) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << fmt::format("{:>{}} ", columns[c].metric->name, widths[c]);
    out << "name\n";
  }
  print(nodes, columns, widths, inner_frames(nodes, tree.present(view_metric::time)), 0, "", true, true, 0,
        options.max_depth, out);
}

}  // namespace aorta
