// `aorta view`: a hatchet file printed as a tree, the way proton-viewer shows it, without Python.
#pragma once

#include <filesystem>
#include <ostream>
#include <string_view>

namespace aorta {

// Prints a first line "<metric> of <file>" (e.g. "time/ms of run/proton.hatchet"), then one line
// per node, "<inclusive value> <name>" (a frame above kernels adds "[under(PATH)]", the scope
// path a check writes to select it, aorta/scope_path.hpp), indented with tree rules by depth;
// children sorted by value, largest first (ties by name). Inclusive = the node's own value plus its children's, as
// hatchet computes it. `metric` is one of time/ns, time/us, time/ms, time/s,
// count, cycles, normalized_cycles; empty picks time/ms when the file has times, else cycles.
// Throws usage_error for an unknown metric or one the file lacks (the message lists what is
// there), capture_error for a malformed file.
void render_hatchet_tree(const std::filesystem::path& file, std::string_view metric,
                         std::ostream& out);

}  // namespace aorta
