// `aorta view`: a Proton output printed as a tree, the way proton-viewer shows it, without Python:
// a hatchet (JSON), a hatchet_msgpack, or a data: trace chrome trace, whose events' call stacks
// give the frames above each kernel.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

// Deepest level printed with tree rules and an [under(PATH)] path; deeper lines start with
// "[depth N] " instead (each level would add its rule and a path element to every line below it,
// so the text grew with depth squared).
inline constexpr std::size_t view_folded_depth = 64;

// Prints a first line "<metric> of <file>" (e.g. "time/ms of run/proton.hatchet"), then one line
// per node, "<inclusive value> <name>" (a frame above kernels adds "[under(PATH)]", the scope
// path a check writes to select it, aorta/scope_path.hpp), indented with tree rules by depth
// (to view_folded_depth);
// children sorted by value, largest first (ties by name). Inclusive = the node's own value plus its children's, as
// hatchet computes it. User metrics kept as text (aorta/capture.hpp text_metric) print on lines
// of their own under their node, "key = text   [proton_text.<path>:<key>]". `metric` is one of time/ns, time/us, time/ms, time/s,
// count, cycles, normalized_cycles; empty picks time/ms when the file has times, else cycles.
// Throws usage_error for an unknown metric or one the file lacks (the message lists what is
// there), capture_error for a malformed file.
void render_hatchet_tree(const std::filesystem::path& file, std::string_view metric,
                         std::ostream& out);

struct tree_view_options {
  // Columns, left to right; the first one orders the children. Besides the names above,
  // `time/%` is each node's share of the whole tree's time. Empty: the default metric only.
  std::vector<std::string> metrics;
  bool sort_by_name = false;               // alphabetical instead of largest first
  std::optional<std::size_t> max_depth;    // 0: the root only; deeper nodes are summed in
  // How a node's name is printed (the CLI demangles C++ kernel names); empty: as captured. The
  // `[under(...)]` paths keep the captured names, which is what a check matches.
  std::function<std::string(std::string_view)> display_name;
};

// As above, with one column per metric ("time/ms  count  name" header line) and the options.
void render_hatchet_tree(const std::filesystem::path& file, const tree_view_options& options,
                         std::ostream& out);

}  // namespace aorta
