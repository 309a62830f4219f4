// Scope-addressed checks: `under(PATH)` restricts count/time_ms/top_kernel to the kernels in the
// subtree of one frame of the calling-context tree (a Proton scope, a Python call-path frame, a
// rocpd agent).
//
//   PATH    = ["/"] ELEMENT ("/" ELEMENT)*
//   ELEMENT = a regex (name_regex, searched in the frame name); "\/" is a literal '/'
//
// The elements match consecutive frames, parent to child; the first may match at any depth, or
// only at the top level when PATH starts with '/'. The path must select exactly one frame.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/name_regex.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aorta {

class scope_path {
public:
  // Throws std::invalid_argument saying what is wrong (an empty element, a bad regex).
  [[nodiscard]] static scope_path parse(std::string_view text);

  [[nodiscard]] const std::string& text() const noexcept { return m_text; }
  [[nodiscard]] bool anchored() const noexcept { return m_anchored; }
  [[nodiscard]] const std::vector<name_regex>& elements() const noexcept { return m_elements; }

  // The frames of `source` this path selects (ids into source.frames), in id order.
  [[nodiscard]] std::vector<std::size_t> resolve(const capture& source) const;

private:
  std::string m_text;
  bool m_anchored = false;
  std::vector<name_regex> m_elements;
};

// The frame names from the top down to `frame`, joined by '/', for messages.
[[nodiscard]] std::string frame_display_path(const capture& source, std::size_t frame);

// A PATH that selects exactly `frame` of `source` (names regex-escaped, '/' as "\/"): the plain
// chain of names when that is unique, else the chain anchored at the top with ^...$ elements.
[[nodiscard]] std::string frame_check_path(const capture& source, std::size_t frame);

// `name` as one PATH element that matches it literally (regex metacharacters and '/' escaped).
[[nodiscard]] std::string escape_scope_element(std::string_view name);

// For every frame of `source`, whether frame_check_path gives its plain form (the unanchored chain
// of escaped names) rather than the anchored one: true when that chain selects the frame alone.
// Linear in the frames when names rarely contain each other (frame_check_path per frame is a
// resolve over all of them); frames are in capture order, parents before children.
[[nodiscard]] std::vector<bool> frames_selected_by_plain_path(const capture& source);

// True when `frame` is `ancestor` or lies below it.
[[nodiscard]] bool frame_within(const capture& source, std::size_t frame, std::size_t ancestor);

}  // namespace aorta
