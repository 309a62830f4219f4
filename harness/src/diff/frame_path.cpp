#include "diff/frame_path.hpp"

#include <algorithm>

namespace aorta::detail {

std::vector<std::string_view> frames_above(const capture& source, std::size_t frame) {
  std::vector<std::string_view> names;
  for (; frame != context_frame::no_parent && frame < source.frames.size() &&
         names.size() < frame_path_depth_limit;
       frame = source.frames[frame].parent) {
    names.push_back(source.frames[frame].name);
  }
  std::reverse(names.begin(), names.end());
  return names;
}

}  // namespace aorta::detail
