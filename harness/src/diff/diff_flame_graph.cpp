#include "diff/diff_flame_graph.hpp"

#include "diff/frame_path.hpp"
#include "metrics/display_names.hpp"
#include "metrics/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

namespace aorta::detail {
namespace {

constexpr double flame_width = 1200.0;
constexpr int flame_row = 18;

struct flame_node {
  std::string name;
  double a = 0.0;
  double b = 0.0;
  std::map<std::string, std::unique_ptr<flame_node>> children;
};

flame_node& child(flame_node& parent, const std::string& name) {
  auto& slot = parent.children[name];
  if (!slot) {
    slot = std::make_unique<flame_node>();
    slot->name = name;
  }
  return *slot;
}

// Adds `value` along `path` under `root`, to side A or B.
void add_path(flame_node& root, const std::vector<std::string>& path, double value, bool side_b) {
  (side_b ? root.b : root.a) += value;
  flame_node* node = &root;
  for (const auto& name : path) {
    node = &child(*node, name);
    (side_b ? node->b : node->a) += value;
  }
}

void add_capture(flame_node& root, const capture& source, bool side_b) {
  if (!source.placements.empty()) {
    for (const auto& placed : source.placements) {
      std::vector<std::string> path;
      for (const auto name : frames_above(source, placed.frame)) path.emplace_back(name);
      path.push_back(placed.kernel.name.str());
      add_path(root, path, placed.kernel.total_ns / 1e6, side_b);
    }
    return;
  }
  for (const auto& kernel : source.kernels) {
    add_path(root, {kernel.name.str()}, kernel.total_ns / 1e6, side_b);
  }
  for (const auto& function : source.functions) {
    if (is_system_frame(function.name)) continue;
    add_path(root, {function.name}, static_cast<double>(function.self_ir), side_b);
  }
}

// Red for slower, blue for faster, by how much (a doubling is full colour); grey unchanged.
std::string colour(const flame_node& node) {
  if (node.a == node.b) return "#bdbdbd";
  const double move = node.a <= 0.0   ? 1.0
                      : node.b <= 0.0 ? -1.0
                                      : std::clamp(std::log2(node.b / node.a), -1.0, 1.0);
  const int fade = static_cast<int>(220.0 - 170.0 * std::fabs(move));
  return move > 0.0 ? fmt::format("rgb(230,{},{})", fade, fade)
                    : fmt::format("rgb({},{},235)", fade, fade);
}

std::string flame_change_text(const flame_node& node) {
  if (node.a <= 0.0) return "new";
  if (node.b <= 0.0) return "gone";
  return fmt::format("{:+.2f}%", (node.b / node.a - 1.0) * 100.0);
}

void draw(const flame_node& node, double x, int depth, double scale, std::string& svg,
          int& deepest) {
  const double width = std::max(node.a, node.b) * scale;
  if (width < 0.5) return;
  deepest = std::max(deepest, depth);
  const int y = depth * flame_row;
  svg += fmt::format("<g><title>{}: A {}, B {} ({})</title><rect x=\"{:.1f}\" y=\"{}\" "
                     "width=\"{:.1f}\" height=\"{}\" style=\"fill:{}\" stroke=\"#fff\"/>",
                     xml_escape(node.name), format_number(node.a), format_number(node.b),
                     flame_change_text(node), x, y, width, flame_row - 1, colour(node));
  const auto chars = static_cast<std::size_t>(width / 7.0);
  if (chars >= 4) {
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{}</text>", x + 3, y + 13,
                       xml_escape(short_name(node.name, chars - 1)));
  }
  svg += "</g>\n";
  double next = x;
  for (const auto& [name, kid] : node.children) {
    draw(*kid, next, depth + 1, scale, svg, deepest);
    next += std::max(kid->a, kid->b) * scale;
  }
}

}  // namespace

std::string diff_flame_graph_svg(const capture& a, const capture& b) {
  flame_node root;
  root.name = "all";
  add_capture(root, a, false);
  add_capture(root, b, true);
  const double total = std::max(root.a, root.b);
  const double scale = total > 0.0 ? flame_width / total : 0.0;
  std::string boxes;
  int deepest = 0;
  draw(root, 0.0, 0, scale, boxes, deepest);
  const int height = (deepest + 1) * flame_row + 2;
  return fmt::format("<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} "
                     "{}\" style=\"width:100%;max-width:{}px\" role=\"img\" "
                     "aria-label=\"differential flame graph\">\n{}</svg>\n",
                     static_cast<int>(flame_width), height, static_cast<int>(flame_width), boxes);
}

std::string diff_flame_graph_html(const capture& a, const capture& b, const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>aorta diff: "
      "{}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:1.5em}}"
      "svg text{{font-size:11px;font-family:ui-monospace,monospace;fill:#111}}"
      ".note{{color:#555}}</style>\n</head>\n<body>\n<h1>aorta diff</h1>\n<p>{}</p>\n"
      "<p class=\"note\">Each box is a frame, as wide as its larger side (time in ms; self Ir for "
      "callgrind); red: B slower, blue: B faster, grey: unchanged. Hover a box for A, B and the "
      "change.</p>\n{}</body>\n</html>\n",
      xml_escape(title), xml_escape(title), diff_flame_graph_svg(a, b));
}

}  // namespace aorta::detail
