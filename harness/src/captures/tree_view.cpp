#include "captures/tree_view.hpp"

#include "aorta/error.hpp"
#include "aorta/scope_path.hpp"
#include "captures/hatchet_reader.hpp"
#include "aorta/metrics.hpp"
#include "captures/capture_format.hpp"
#include "captures/chrome_trace_reader.hpp"
#include "captures/hatchet_reader_detail.hpp"
#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_scanner.hpp"
#include "captures/proton_msgpack.hpp"
#include "captures/tree_view_model.hpp"
#include "captures/tree_view_samples.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace aorta {

namespace {

using detail::view_metric;
using detail::view_node;
using detail::view_tree;

struct metric_choice {
  std::string_view name;
  view_metric kind;
  double divisor;      // ns per displayed unit for time
  const char* format;  // how a value prints
};

// The divisor marks the percentages: 0 for time/% (of the root's time), -1 for share (of the
// kernel's samples for a line, of the file's otherwise: tree_view_samples.hpp).
constexpr double share_of_samples = -1.0;

constexpr std::array<metric_choice, 11> metric_choices{{
    {"time/ns", view_metric::time, 1.0, "{:.0f}"},
    {"time/us", view_metric::time, 1e3, "{:.3f}"},
    {"time/ms", view_metric::time, 1e6, "{:.3f}"},
    {"time/s", view_metric::time, 1e9, "{:.6f}"},
    {"count", view_metric::count, 1.0, "{:.0f}"},
    {"cycles", view_metric::cycles, 1.0, "{:.0f}"},
    {"normalized_cycles", view_metric::normalized_cycles, 1.0, "{:.3f}"},
    {"time/%", view_metric::time, 0.0, "{:.2f}%"},  // divisor 0: the root's time / 100
    {"samples", view_metric::samples, 1.0, "{:.0f}"},
    {"stalled", view_metric::stalled_samples, 1.0, "{:.0f}"},
    {"share", view_metric::samples, share_of_samples, "{:.1f}%"},
}};

std::string metric_list() {
  std::string names;
  for (const metric_choice& m : metric_choices) {
    if (!names.empty()) names += ", ";
    names += m.name;
  }
  return names;
}

const metric_choice& choose_metric(std::string_view requested, const view_tree& tree,
                                   const std::filesystem::path& file) {
  if (requested.empty())
    requested = tree.has(view_metric::time) || !tree.has(view_metric::cycles) ? "time/ms"
                                                                                      : "cycles";
  const auto it = std::find_if(metric_choices.begin(), metric_choices.end(),
                               [&](const metric_choice& m) { return m.name == requested; });
  if (it == metric_choices.end())
    throw usage_error(
        fmt::format("unknown metric '{}' for aorta view; available: {}", requested, metric_list()));
  if (!tree.has(it->kind) &&
      (tree.has(view_metric::time) || tree.has(view_metric::cycles) ||
       tree.has(view_metric::count) || tree.has(view_metric::samples))) {
    std::string there;
    for (const metric_choice& m : metric_choices) {
      if (!tree.has(m.kind)) continue;
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
  std::vector<bool> plain;            // frame id -> its plain path selects it alone
};

// Only a tree with kernel times has frames a check can select (an instrumentation tree's inner
// nodes are kernels with cycle scopes below them).
check_paths inner_frames(const std::vector<view_node>& nodes, bool has_times) {
  check_paths paths;
  paths.frame_of.assign(nodes.size(), context_frame::no_parent);
  for (std::size_t i = 1; has_times && i < nodes.size(); ++i) {
    if (nodes[i].children.empty()) continue;
    paths.frame_of[i] = paths.frames_only.frames.size();
    paths.frames_only.frames.push_back({nodes[i].name, paths.frame_of[nodes[i].parent]});
  }
  paths.plain = frames_selected_by_plain_path(paths.frames_only);
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

// A text metric on one line of the tree: line breaks and tabs shown as escapes.
std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out;
}

// Everything one line needs besides the node; print_tree() walks the tree with it. The tree
// rules and both forms of the scope path grow and shrink with the walk instead of being
// copied per level (a 3,000-deep call stack made the copies quadratic). Below
// view_folded_depth a line's rules and its scope path would still grow with its depth, making
// the text quadratic (38 MB for 3,000 levels), so there the depth is printed as a number.
struct printer {
  const view_tree& tree;
  const std::vector<column>& columns;
  const std::vector<std::size_t>& widths;
  const check_paths& paths;
  const std::vector<std::string>& stall_notes;  // per node, "" when it has no stalls
  std::optional<std::size_t> max_depth;
  const std::function<std::string(std::string_view)>& display_name;
  std::ostream& out;
  std::string prefix{};
  std::string plain_path{};     // escaped names joined by '/', as frame_check_path writes
  std::string anchored_path{};  // the same anchored: /^name$ per level

  // The tree rules above a line at `depth`, or past the fold its depth.
  void write_rules(std::size_t depth) const {
    if (depth <= view_folded_depth)
      out << prefix;
    else
      out << "[depth " << depth << "] ";
  }

  // The blank columns, then the tree rules, for a line of the node at `depth` that is not its
  // own (its prefix already holds the node's own rule while that is printed).
  void indent(std::size_t depth, std::string_view rules) const {
    if (columns.size() > 1)
      for (std::size_t width : widths) out << std::string(width + 1, ' ');
    if (depth < view_folded_depth)
      out << prefix;
    else
      out << "[depth " << depth << "] ";
    out << rules;
  }

  // One line per user metric kept as text, with the metric name a report or check shows it as.
  void print_texts(std::uint32_t index, std::size_t depth, std::string_view rules) const {
    const view_node& node = tree.nodes[index];
    if (node.texts.empty()) return;
    const std::vector<std::string> owner = detail::text_owner_path(tree, index);
    for (const auto& [key, text] : node.texts) {
      indent(depth, rules);
      out << fmt::format("  {} = {}   [{}]\n", key, one_line(text),
                         text_metric_name("proton", text_metric{owner, key, text}));
    }
  }

  void print_scope_path(std::uint32_t index) {
    const std::size_t frame = paths.frame_of[index];
    if (frame == context_frame::no_parent) return;
    const std::string escaped = escape_scope_element(tree.nodes[index].name);
    if (!plain_path.empty()) plain_path += '/';
    plain_path += escaped;
    anchored_path += "/^" + escaped + "$";
    out << "   [under(" << (paths.plain[frame] ? plain_path : anchored_path) << ")]";
  }

  // A node being printed: where its children stand and what to shrink back to after them.
  struct open_node {
    std::uint32_t index;
    std::size_t depth;
    std::size_t next_child = 0;
    bool children_shown = false;
    std::size_t plain_size = 0;
    std::size_t anchored_size = 0;
    std::size_t prefix_size = 0;
  };

  // The node's own lines; the rules and paths it adds stay until its children are printed.
  open_node enter(std::uint32_t index, bool is_root, bool is_last, std::size_t depth) {
    const view_node& node = tree.nodes[index];
    // One metric: "<rules><value> <name>", as before; several: aligned columns, then the tree.
    if (columns.size() > 1) {
      for (std::size_t c = 0; c < columns.size(); ++c)
        out << fmt::format("{:>{}} ", cell(columns[c], index), widths[c]);
    }
    write_rules(depth);
    if (!is_root) out << (is_last ? "└─ " : "├─ ");
    if (columns.size() == 1) out << cell(columns.front(), index) << ' ';
    out << (display_name ? display_name(node.name) : node.name);
    if (max_depth && depth == *max_depth && !node.children.empty()) {
      out << fmt::format(" (+{} below)", node.children.size());
    }
    open_node opened{index, depth};
    opened.plain_size = plain_path.size();
    opened.anchored_size = anchored_path.size();
    opened.prefix_size = prefix.size();
    if (depth <= view_folded_depth) print_scope_path(index);
    if (!stall_notes.empty() && !stall_notes[index].empty()) out << "   " << stall_notes[index];
    out << '\n';
    if (!is_root && depth < view_folded_depth) prefix += is_last ? "   " : "│  ";
    opened.children_shown = !node.children.empty() && !(max_depth && depth >= *max_depth);
    print_texts(index, depth, opened.children_shown ? "│" : " ");
    return opened;
  }

  // Depth first with a stack of its own: a call stack as deep as the reader admits (hundreds of
  // thousands of frames) would overflow the thread's stack one call per level.
  void print_tree() {
    std::vector<open_node> open;
    open.push_back(enter(0, true, true, 0));
    while (!open.empty()) {
      open_node& top = open.back();
      const std::vector<std::uint32_t>& children = tree.nodes[top.index].children;
      if (top.children_shown && top.next_child < children.size()) {
        const std::size_t i = top.next_child++;
        const std::size_t depth = top.depth + 1;
        open.push_back(enter(children[i], false, i + 1 == children.size(), depth));
        continue;
      }
      prefix.resize(top.prefix_size);
      plain_path.resize(top.plain_size);
      anchored_path.resize(top.anchored_size);
      open.pop_back();
    }
  }
};

// Per node, its top stall reasons as shares of its samples ("stalls: long_scoreboard 44%, ...");
// empty when the file has no PC samples.
std::vector<std::string> stall_notes_of(const view_tree& tree) {
  if (!tree.has(view_metric::samples)) return {};
  constexpr auto own = static_cast<std::size_t>(view_metric::samples);
  std::vector<double> samples(tree.nodes.size());
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) samples[i] = tree.nodes[i].own[own];
  for (std::size_t i = tree.nodes.size(); i-- > 1;) samples[tree.nodes[i].parent] += samples[i];
  const std::vector<std::vector<pc_stall>> stalls = detail::inclusive_stalls(tree);
  std::vector<std::string> notes(tree.nodes.size());
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    notes[i] = detail::top_stalls_text(stalls[i], samples[i]);
  return notes;
}

// Which reading a file needs: a hatchet streams through the view builder; a chrome trace (or a
// hatchet_msgpack holding one) is read as a capture, whose frames and placements are the tree.
view_tree read_view_tree(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  const auto scan_tree = [&](detail::json_chunk_reader reader) {
    detail::tree_view_builder builder;
    detail::hatchet_sax<detail::tree_view_builder> sax(builder);
    detail::json_scanner<detail::hatchet_sax<detail::tree_view_builder>> scanner(
        sax, std::move(reader));
    scanner.run();
    return builder.take();
  };
  if (name.ends_with(".hatchet_msgpack")) {
    const auto stream = detail::open_proton_msgpack(file);
    if (stream->is_trace()) return detail::tree_view_from_capture(read_hatchet_capture(file));
    view_tree tree;
    detail::scan_msgpack_json(*stream, file, [&](detail::json_chunk_reader reader) {
      tree = scan_tree(std::move(reader));
    });
    return tree;
  }
  if (name.ends_with(".chrome_trace") || detail::looks_like_chrome_trace(file))
    return detail::tree_view_from_capture(read_hatchet_capture(file));
  view_tree tree;
  detail::scan_hatchet_file(file, [&](detail::json_chunk_reader reader) {
    tree = scan_tree(std::move(reader));
  });
  return tree;
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
  view_tree tree = read_view_tree(file);
  std::vector<std::string> requested = options.metrics;
  if (requested.empty()) requested.emplace_back();
  // A PC-sampling tree's lines have samples and no time: show both by default.
  if (options.metrics.empty() && tree.has(view_metric::samples)) {
    requested.emplace_back("samples");
    requested.emplace_back("share");
    requested.emplace_back("stalled");
  }
  std::vector<column> columns;
  for (const auto& name : requested) columns.push_back({&choose_metric(name, tree, file), {}, 1.0});
  // The values below carry no unit of their own; this line says what they are.
  std::string names;
  for (const auto& col : columns) names += (names.empty() ? "" : ", ") + std::string(col.metric->name);
  out << names << " of " << file.string() << '\n';
  std::vector<view_node>& nodes = tree.nodes;
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
    if (col.metric->divisor == share_of_samples) {
      col.inclusive = detail::sample_shares(tree, col.inclusive);
      col.divisor = 1.0;
    }
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
  const check_paths paths = inner_frames(nodes, tree.has(view_metric::time));
  const std::vector<std::string> stall_notes = stall_notes_of(tree);
  printer p{tree, columns, widths, paths, stall_notes, options.max_depth, options.display_name,
            out};
  p.print_tree();
}

}  // namespace aorta
