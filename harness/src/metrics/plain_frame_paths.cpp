// Which frames their plain PATH (frame_check_path's first form) selects alone, for all frames at
// once. frame_check_path answers for one frame with a resolve over every frame; asked for each
// frame of a 3,000-deep call stack that took a minute. Here the frames a path's first elements
// match are carried down the tree, so each frame's set is found among the children of its
// parent's set.
#include "aorta/scope_path.hpp"
#include "free_storage.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace aorta {

namespace {

using frame_list = std::vector<std::size_t>;

// An element is a literal search for the name (scope_path's regex syntax, escaped), so "matches"
// is "contains". A name that cannot be an element (empty, or not UTF-8, which the regex engine
// refuses) makes every path through it anchored.
class element_check {
public:
  explicit element_check(const capture& source) : m_source(source) {}

  bool usable(std::size_t frame) {
    const std::string& name = m_source.frames[frame].name;
    if (name.empty()) return false;
    bool ascii = true;
    for (const char c : name) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (ascii) return true;
    const auto known = m_non_ascii.find(name);
    if (known != m_non_ascii.end()) return known->second;
    bool compiles = true;
    try {
      (void)scope_path::parse(escape_scope_element(name));
    } catch (const std::invalid_argument&) {
      compiles = false;
    }
    return m_non_ascii.emplace(name, compiles).first->second;
  }

private:
  const capture& m_source;
  std::unordered_map<std::string, bool> m_non_ascii;
};

// For each query frame, the candidates whose names contain its name: a trie of the query names
// walked from every byte of every candidate name, so the work is the candidates' bytes times the
// length of the query prefixes they share, not candidates times queries.
class containment_index {
public:
  containment_index(const capture& source, const frame_list& queries) : m_source(source) {
    m_nodes.emplace_back();
    for (std::size_t q = 0; q < queries.size(); ++q) {
      std::uint32_t node = 0;
      for (const char c : source.frames[queries[q]].name) node = step_or_add(node, c);
      m_nodes[node].queries.push_back(q);
    }
  }

  // matches[q] gains every candidate whose name contains query q's name (once per candidate).
  void add_matches(const frame_list& candidates, std::vector<frame_list>& matches) const {
    for (const std::size_t candidate : candidates) {
      const std::string& name = m_source.frames[candidate].name;
      for (std::size_t start = 0; start < name.size(); ++start) {
        std::uint32_t node = 0;
        for (std::size_t i = start; i < name.size() && node != none; ++i) {
          node = step(node, name[i]);
          if (node == none) break;
          for (const std::size_t q : m_nodes[node].queries)
            if (matches[q].empty() || matches[q].back() != candidate)
              matches[q].push_back(candidate);
        }
      }
    }
  }

private:
  static constexpr std::uint32_t none = UINT32_MAX;
  struct trie_node {
    std::vector<std::pair<char, std::uint32_t>> next;
    std::vector<std::size_t> queries;
  };

  // The root has an edge per first byte of every query, so it is indexed; below it few remain.
  [[nodiscard]] std::uint32_t step(std::uint32_t node, char c) const {
    if (node == 0) return m_root[static_cast<unsigned char>(c)];
    for (const auto& [edge, target] : m_nodes[node].next)
      if (edge == c) return target;
    return none;
  }
  std::uint32_t step_or_add(std::uint32_t node, char c) {
    const std::uint32_t found = step(node, c);
    if (found != none) return found;
    const auto added = static_cast<std::uint32_t>(m_nodes.size());
    if (node == 0)
      m_root[static_cast<unsigned char>(c)] = added;
    else
      m_nodes[node].next.emplace_back(c, added);
    m_nodes.emplace_back();
    return added;
  }

  const capture& m_source;
  std::vector<trie_node> m_nodes;
  std::array<std::uint32_t, 256> m_root = filled_root();

  static std::array<std::uint32_t, 256> filled_root() {
    std::array<std::uint32_t, 256> root{};
    root.fill(none);
    return root;
  }
};

}  // namespace

std::vector<bool> frames_selected_by_plain_path(const capture& source) {
  const std::size_t count = source.frames.size();
  std::vector<bool> alone(count, false);
  std::vector<frame_list> children(count);
  // A path's first element may match at any depth. Empty names above it leave no element of
  // their own (frame_check_path joins "" and "b" into "b"), so a frame below only empty-named
  // ones starts a path as a top-level frame does.
  std::vector<bool> leaves_no_element(count, false);
  frame_list top;
  for (std::size_t f = 0; f < count; ++f) {
    const std::size_t parent = source.frames[f].parent;
    const bool starts_path = parent == context_frame::no_parent || leaves_no_element[parent];
    leaves_no_element[f] = starts_path && source.frames[f].name.empty();
    if (starts_path) top.push_back(f);
    if (parent != context_frame::no_parent) children[parent].push_back(f);
  }
  element_check elements(source);
  // A frame whose own path is unusable passes that on: its children are never visited.
  const auto usable_of = [&](const frame_list& frames) {
    frame_list out;
    for (const std::size_t f : frames)
      if (elements.usable(f)) out.push_back(f);
    return out;
  };
  // matched[f]: the frames f's plain path selects; kept until f's children have theirs.
  std::vector<frame_list> matched(count);
  const auto match_group = [&](const frame_list& queries, const frame_list& candidates) {
    std::vector<frame_list> found(queries.size());
    containment_index(source, queries).add_matches(candidates, found);
    for (std::size_t q = 0; q < queries.size(); ++q) {
      alone[queries[q]] = found[q].size() == 1 && found[q].front() == queries[q];
      matched[queries[q]] = std::move(found[q]);
    }
  };
  frame_list every(count);
  for (std::size_t f = 0; f < count; ++f) every[f] = f;
  match_group(usable_of(top), every);
  // Parents come before children (frame ids grow downwards), so one pass in id order works.
  for (std::size_t f = 0; f < count; ++f) {
    if (matched[f].empty()) continue;
    const frame_list queries = usable_of(children[f]);
    if (!queries.empty()) {
      frame_list candidates;
      for (const std::size_t m : matched[f])
        candidates.insert(candidates.end(), children[m].begin(), children[m].end());
      match_group(queries, candidates);
    }
    detail::free_storage(matched[f]);
  }
  return alone;
}

}  // namespace aorta
