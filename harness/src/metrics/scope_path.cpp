#include "aorta/scope_path.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace aorta {

namespace {

std::vector<std::string> split_elements(std::string_view text) {
  std::vector<std::string> parts(1);
  bool in_bracket = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      // "\/" is a literal slash: the regex gets '/', which needs no escape.
      if (text[i + 1] != '/') parts.back() += c;
      parts.back() += text[++i];
    } else if (in_bracket) {
      in_bracket = c != ']';
      parts.back() += c;
    } else if (c == '[') {
      in_bracket = true;
      parts.back() += c;
    } else if (c == '/') {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

}  // namespace

scope_path scope_path::parse(std::string_view text) {
  scope_path path;
  path.m_text = std::string(text);
  if (!text.empty() && text.front() == '/') {
    path.m_anchored = true;
    text.remove_prefix(1);
  }
  const std::vector<std::string> parts = split_elements(text);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty())
      throw std::invalid_argument(fmt::format(
          "element {} of the scope path '{}' is empty (write frame names or regexes between the "
          "slashes, e.g. prefill or model\\.py/forward)",
          i + 1, path.m_text));
    try {
      path.m_elements.push_back(name_regex::compile(parts[i]));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("element '{}' of the scope path '{}' is not a valid "
                                              "regex: {}",
                                              parts[i], path.m_text, e.what()));
    }
  }
  return path;
}

std::vector<std::size_t> scope_path::resolve(const capture& source) const {
  std::vector<std::size_t> matches;
  for (std::size_t id = 0; id < source.frames.size(); ++id) {
    std::size_t frame = id;
    bool ok = true;
    for (auto element = m_elements.rbegin(); element != m_elements.rend(); ++element) {
      if (frame == context_frame::no_parent || !element->search(source.frames[frame].name)) {
        ok = false;
        break;
      }
      frame = source.frames[frame].parent;
    }
    if (ok && (!m_anchored || frame == context_frame::no_parent)) matches.push_back(id);
  }
  return matches;
}

std::string escape_scope_element(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string frame_display_path(const capture& source, std::size_t frame) {
  // Names gathered upwards, then joined once: prepending each one copied the growing path per
  // level (a 100,000-deep call stack took a second for one under() check).
  std::vector<std::string_view> names;
  std::size_t bytes = 0;
  for (; frame != context_frame::no_parent; frame = source.frames[frame].parent) {
    names.push_back(source.frames[frame].name);
    bytes += names.back().size() + 1;
  }
  // Empty names at the bottom leave no trace; above the first named one each adds its '/'.
  std::size_t deepest_named = 0;
  while (deepest_named < names.size() && names[deepest_named].empty()) ++deepest_named;
  std::string out;
  out.reserve(bytes);
  for (std::size_t i = names.size(); i > deepest_named; --i) {
    if (i != names.size()) out += '/';
    out += names[i - 1];
  }
  return out;
}

std::string frame_check_path(const capture& source, std::size_t frame) {
  std::vector<std::string_view> names;
  for (std::size_t f = frame; f != context_frame::no_parent; f = source.frames[f].parent)
    names.push_back(source.frames[f].name);
  std::reverse(names.begin(), names.end());
  std::string plain;
  std::string anchored;
  for (const std::string_view name : names) {
    if (!plain.empty()) plain += '/';
    plain += escape_scope_element(name);
    anchored += "/^" + escape_scope_element(name) + "$";
  }
  try {
    if (scope_path::parse(plain).resolve(source) == std::vector<std::size_t>{frame}) return plain;
  } catch (const std::invalid_argument&) {
    // An escaped name is always a valid regex; fall through to the anchored form regardless.
  }
  return anchored;
}

bool frame_within(const capture& source, std::size_t frame, std::size_t ancestor) {
  for (; frame != context_frame::no_parent; frame = source.frames[frame].parent)
    if (frame == ancestor) return true;
  return false;
}

}  // namespace aorta
