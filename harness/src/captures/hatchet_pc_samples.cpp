// PC samples in a Proton hatchet: Proton's pcsampling mode writes each sampled kernel as a node
// with its time and count whose children are source lines (`/dir/file.py:LINE@function`) carrying
// num_samples, num_stalled_samples and stalled_<reason>. The kernel is then no leaf, so without
// this it would be read as a frame above lines with no time: an empty capture.
#include "captures/hatchet_reader_accumulator.hpp"

#include "checked_sum.hpp"
#include "captures/frame_tree.hpp"
#include "captures/json_scanner.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace aorta::detail {
namespace {

// Distinct (kernel, line) pairs one capture may hold (docs/guards.md): beyond it the read fails,
// since a check on a line left out would read a share of nothing.
constexpr std::size_t max_sample_lines = 200'000;

// "gelu.py:60" from "/work/x/gelu.py:60@gelu_kernel"; "lib.py:9@helper" keeps a function that is
// not the kernel itself (a line of an inlined helper).
std::string sample_location(std::string_view name, std::string_view kernel) {
  std::string_view function;
  if (const std::size_t at = name.rfind('@'); at != std::string_view::npos) {
    function = name.substr(at + 1);
    name = name.substr(0, at);
  }
  if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos)
    name = name.substr(slash + 1);
  std::string location(name);
  if (!function.empty() && function != kernel) {
    location += '@';
    location += function;
  }
  return location;
}

std::uint64_t add_samples(std::uint64_t total, std::uint64_t more, std::string_view what) {
  if (more > max_count || total > max_count - more)
    throw json_shape_error(fmt::format("{}: sample counts sum past {} (max_count)", what,
                                       max_count));
  return total + more;
}

void merge_stalls(std::vector<pc_stall>& into, const std::vector<pc_stall>& more,
                  std::string_view what) {
  for (const pc_stall& stall : more) {
    auto it = std::find_if(into.begin(), into.end(),
                           [&](const pc_stall& s) { return s.reason == stall.reason; });
    if (it == into.end())
      into.push_back(stall);
    else
      it->samples = add_samples(it->samples, stall.samples, what);
  }
}

}  // namespace

void hatchet_accumulator::pend_sample_line(const hatchet_node& line, std::size_t depth) {
  if (!line.rejected_samples.empty())
    throw json_shape_error(fmt::format(
        "PC sample line '{}': {}; aorta does not read part of a line's samples", line.name,
        line.rejected_samples));
  pc_sample_line pending;
  pending.location = line.name;  // normalised once the kernel's name is known
  pending.samples = line.samples.value_or(0);
  pending.stalled = line.stalled_samples.value_or(0);
  pending.stalls = line.stalls;
  if (pending.stalled > pending.samples)
    note(fmt::format("PC sample line '{}': {} stalled samples of {} in all", line.name,
                     pending.stalled, pending.samples));
  m_pending_lines[depth - 1].push_back(std::move(pending));
}

void hatchet_accumulator::add_sample_lines(const hatchet_node& kernel, std::size_t depth) {
  const std::string_view kernel_name = depth == 0 ? std::string_view() : kernel.name;
  if (depth == 0)
    note("PC sample lines directly under ROOT: kept without a kernel name");
  else if (kernel.time_ns) {
    // The sampled kernel's own time and count: it is a kernel, placed where a leaf would be.
    m_depth_of_leaf = depth - 1;
    add_kernel(kernel);
  }
  for (pc_sample_line& line : m_pending_lines[depth]) {
    line.kernel.assign(kernel_name);
    line.location = sample_location(line.location, kernel_name);
    m_key.assign(line.kernel);
    m_key.push_back('\0');
    m_key += line.location;
    const auto found = m_line_index.find(std::string_view(m_key));
    if (found == m_line_index.end()) {
      if (m_lines.size() >= max_sample_lines)
        throw json_shape_error(fmt::format(
            "more than {} distinct PC sample lines (kernel, file:line); aorta does not read part "
            "of the samples. Fix: sample fewer kernels per run",
            max_sample_lines));
      m_line_index.emplace(m_key, m_lines.size());
      m_lines.push_back(std::move(line));
      continue;
    }
    pc_sample_line& into = m_lines[found->second];
    const std::string what = fmt::format("PC sample line '{}' of '{}'", into.location, into.kernel);
    into.samples = add_samples(into.samples, line.samples, what);
    into.stalled = add_samples(into.stalled, line.stalled, what);
    merge_stalls(into.stalls, line.stalls, what);
  }
  m_pending_lines[depth].clear();
}

void hatchet_accumulator::finish_samples(capture& out) {
  for (pc_sample_line& line : m_lines)
    std::sort(line.stalls.begin(), line.stalls.end(),
              [](const pc_stall& a, const pc_stall& b) { return a.reason < b.reason; });
  std::sort(m_lines.begin(), m_lines.end(), [](const pc_sample_line& a, const pc_sample_line& b) {
    return a.kernel != b.kernel ? a.kernel < b.kernel : a.location < b.location;
  });
  out.pc_samples = std::move(m_lines);
  m_lines.clear();
  m_line_index.clear();
}

}  // namespace aorta::detail
