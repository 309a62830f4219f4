// The frame tree's one-probe child lookup and the chrome trace reader's back-to-back call_stack
// buffer, each against a plain reference: a std::map of (parent, name) pairs, and call paths
// composed here from the events written.
#include "aorta/capture.hpp"
#include "captures/frame_tree.hpp"
#include "captures/hatchet_reader.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace aorta;

namespace {

namespace fs = std::filesystem;

// Names that a weak hash or an off-by-one compare would confuse: empty, every length around the
// 4- and 8-byte loads, names differing only in their first, middle or last byte, zero bytes.
std::vector<std::string> tricky_names() {
  std::vector<std::string> names{"", std::string(1, '\0'), std::string(2, '\0'), "ROOT"};
  for (std::size_t size = 1; size <= 19; ++size) {
    const std::string base(size, 'a');
    names.push_back(base);
    for (const std::size_t at : {std::size_t{0}, size / 2, size - 1}) {
      std::string other = base;
      other[at] = 'b';
      names.push_back(other);
      other[at] = '\0';
      names.push_back(other);
    }
  }
  return names;
}

TEST(FrameTreePaths, ChildIdsMatchAMapOfParentAndName) {
  const std::vector<std::string> names = tricky_names();
  detail::frame_tree_builder tree(detail::frame_tree_mode::kept);
  std::map<std::pair<std::size_t, std::string>, std::size_t> reference;
  std::vector<std::pair<std::size_t, std::string>> frames;  // the reference's frames, by id
  std::uint64_t state = 12345;
  const auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33U) % bound;
  };
  // Enough frames to grow the table several times; every call is checked, found or new.
  for (int i = 0; i < 60'000; ++i) {
    const std::size_t parent = frames.empty() || next(8) == 0
                                   ? context_frame::no_parent
                                   : static_cast<std::size_t>(next(frames.size()));
    const std::string& name = names[next(names.size())];
    const auto [at, added] = reference.try_emplace({parent, name}, frames.size());
    if (added) frames.emplace_back(parent, name);
    ASSERT_EQ(tree.child(parent, name), at->second) << i << " '" << name << "'";
  }
  capture out;
  tree.finish(out);
  ASSERT_EQ(out.frames.size(), frames.size());
  for (std::size_t id = 0; id < frames.size(); ++id) {
    EXPECT_EQ(out.frames[id].parent, frames[id].first) << id;
    EXPECT_EQ(out.frames[id].name, frames[id].second) << id;
  }
}

struct trace_event {
  std::string name;
  std::vector<std::vector<std::string>> call_stacks;  // one "call_stack" key each
  bool kernel = true;
  bool stack_before_name = true;
};

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string event_json(const trace_event& e, std::size_t i) {
  std::string args = "{";
  for (const std::vector<std::string>& stack : e.call_stacks) {
    if (args.size() > 1) args += ',';
    args += "\"call_stack\":[";
    for (std::size_t f = 0; f < stack.size(); ++f) args += (f ? "," : "") + quoted(stack[f]);
    args += ']';
  }
  args += '}';
  const std::string name = "\"name\":" + quoted(e.name);
  const std::string rest = ",\"cat\":\"" + std::string(e.kernel ? "kernel" : "python") +
                           "\",\"ph\":\"X\",\"dur\":" + std::to_string(1 + i % 7) + ".5";
  return e.stack_before_name ? "{\"args\":" + args + "," + name + rest + "}"
                             : "{" + name + rest + ",\"args\":" + args + "}";
}

// The path a kernel event is placed at: its call_stack entries in order, a leading "ROOT" and a
// trailing copy of the kernel's own name left out.
std::vector<std::string> expected_path(const trace_event& e) {
  std::vector<std::string> path;
  for (const std::vector<std::string>& stack : e.call_stacks)
    path.insert(path.end(), stack.begin(), stack.end());
  if (!path.empty() && path.front() == "ROOT") path.erase(path.begin());
  if (!path.empty() && path.back() == e.name) path.pop_back();
  return path;
}

std::string frame_path(const capture& c, std::size_t frame) {
  std::string path;
  for (; frame != context_frame::no_parent; frame = c.frames[frame].parent)
    path = "/" + c.frames[frame].name + path;
  return path;
}

TEST(FrameTreePaths, ChromeTraceCallStacksPlaceKernelsAtTheirPaths) {
  const std::string long_name(5'000, 'x');
  std::vector<trace_event> events{
      {"k", {{"ROOT", "a", "b", "k"}}},
      {"k", {{"a", "b", "k"}}, true, false},
      {"k", {{"ROOT", "a", "b"}}},
      {"k", {{"ROOT"}}},
      {"k", {std::vector<std::string>{}}},
      {"k", {{"k"}}},
      {"k", {{"ROOT", "k"}}},
      {"k", {{"ROOT", "", "", "k"}}},
      {"k2", {{"ROOT", "a"}, {"b", "k2"}}},
      {"k2", {{"ROOT", "a"}, {"b"}, {"k2"}}, true, false},
      {"q\"k", {{"ROOT", "q\"a", "\\b", "q\"k"}}},
      {"k", {{"ROOT", long_name, "k"}}},
      {"k", {{"ROOT", long_name, long_name + "y", "k"}}, true, false},
      {"k", {{"ROOT", "skipped_frame", "k"}}, false},
      {"k", {{"ROOT", "a", "ROOT", "k", "k"}}},
      {"ROOT", {{"ROOT"}}},
      {long_name + "k", {{"ROOT", "a", long_name + "k"}}},
      {"k", {{"ROOT", "a", "k"}}},
  };
  const fs::path dir = fs::temp_directory_path() / "aorta_frame_tree_paths_chrome";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "proton.chrome_trace", std::ios::binary);
    out << "{\"traceEvents\":[";
    for (std::size_t i = 0; i < events.size(); ++i) out << (i ? "," : "") << event_json(events[i], i);
    out << "]}";
  }
  std::map<std::pair<std::string, std::string>, double> expected;  // (path, kernel) -> ns
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (!events[i].kernel) continue;
    std::string path;
    for (const std::string& frame : expected_path(events[i])) path += "/" + frame;
    expected[{path, events[i].name}] += (1.0 + static_cast<double>(i % 7) + 0.5) * 1e3;
  }
  hatchet_read_options options;
  options.keep_frame_tree = true;
  const capture c = read_hatchet_capture(dir / "proton.chrome_trace", options);
  fs::remove_all(dir);
  std::map<std::pair<std::string, std::string>, double> placed;
  for (const placed_kernel& p : c.placements)
    placed[{frame_path(c, p.frame), p.kernel.name}] += p.kernel.total_ns;
  EXPECT_EQ(placed, expected);
  for (const context_frame& f : c.frames) EXPECT_NE(f.name, "skipped_frame");
}

}  // namespace
