// Fuzz target: nvbench's --jsonbin capture, an nvbench JSON file and its sample-times sidecar, read
// as the collector reads it. Structure-aware: the input is not the JSON text but its fields, so
// every input reaches the sample-file code (containment, size, float32 decoding, warm-up rule)
// instead of dying in the JSON parser. Layout (text lines, then raw bytes):
//   line 1     flags: R samples required (sample_times: true), N no sidecar file, D the sidecar
//              is a directory, L the sidecar directory is a symlink to a directory outside the
//              capture, S a second sidecar 1.bin holding the same bytes
//   lines 2..  one benchmark state per line, up to 8: fields separated by '\t': the N axis value,
//              the sample summary's "filename", its "size", the cold GPU mean, "1" for a skipped
//              state; a field that is "~" or missing (past the line's end) is left out of the JSON
//   "--" line  the rest of the input is the sidecar's bytes (nvbench.json-bin/0.bin)
// make_structured_seeds.py writes seeds in this layout (structured_seeds/nvidia.py).
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "captures/nvbench_reader.hpp"
#include "fuzz_input_file.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr std::size_t max_states = 8;
constexpr std::string_view sidecar_dir = "nvbench.json-bin";

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const auto end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

json value_summary(std::string_view tag, std::string_view type, std::string_view text) {
  return {{"tag", tag}, {"data", {{{"name", "value"}, {"type", type}, {"value", text}}}}};
}

// One state from its line's fields; text that is not valid UTF-8 stays bytes in the JSON (the
// dump below replaces it), as a damaged file would.
json state_from(const std::vector<std::string_view>& fields) {
  const auto field = [&](std::size_t at) {
    return at < fields.size() && fields[at] != "~" ? std::optional<std::string>(fields[at])
                                                   : std::nullopt;
  };
  json state = {
      {"is_skipped", field(4) == std::optional<std::string>("1")},
      {"axis_values", {{{"name", "N"}, {"type", "int64"}, {"value", field(0).value_or("")}}}}};
  json summaries = json::array();
  if (const auto mean = field(3)) {
    summaries.push_back(value_summary("nv/cold/time/gpu/mean", "float64", *mean));
  }
  if (field(1) || field(2)) {
    json data = json::array();
    if (const auto name = field(1))
      data.push_back({{"name", "filename"}, {"type", "string"}, {"value", *name}});
    if (const auto size = field(2))
      data.push_back({{"name", "size"}, {"type", "int64"}, {"value", *size}});
    summaries.push_back({{"tag", "nv/json/bin:nv/cold/sample_times"}, {"data", data}});
  }
  state["summaries"] = summaries;
  if (state["is_skipped"].get<bool>()) state["skip_reason"] = "fuzz";
  return state;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The capture directory as the input describes it, rebuilt from nothing each time.
fs::path build_capture(std::string_view flags, const json& doc, std::string_view sidecar) {
  static const aorta::fuzz::scratch_dir scratch;
  const fs::path capture = scratch.path() / "capture";
  const fs::path outside = scratch.path() / "outside";
  std::error_code ignored;
  fs::remove_all(capture, ignored);
  fs::remove_all(outside, ignored);
  fs::create_directories(capture);
  fs::create_directories(outside);
  write_file(capture / "nvbench.json", doc.dump(-1, ' ', false, json::error_handler_t::replace));
  fs::path bins = capture / sidecar_dir;
  if (flags.find('L') != std::string_view::npos) {
    fs::create_directory_symlink(outside, bins);
  } else {
    fs::create_directories(bins);
  }
  if (flags.find('N') != std::string_view::npos) return capture;
  if (flags.find('D') != std::string_view::npos) {
    fs::create_directories(bins / "0.bin");
  } else {
    write_file(bins / "0.bin", sidecar);
  }
  if (flags.find('S') != std::string_view::npos) write_file(bins / "1.bin", sidecar);
  return capture;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto marker = input.find("\n--\n");
  const std::string_view header = input.substr(0, marker);
  const std::string_view sidecar =
      marker == std::string_view::npos ? std::string_view() : input.substr(marker + 4);
  const auto lines = split(header, '\n');
  const std::string_view flags = lines.front();
  json states = json::array();
  for (std::size_t at = 1; at < lines.size() && states.size() < max_states; ++at) {
    states.push_back(state_from(split(lines[at], '\t')));
  }
  const json doc = {
      {"meta", {{"argv", json::array()}, {"version", {{"json", {{"major", 1}, {"minor", 0}}}}}}},
      {"benchmarks", {{{"name", "gemm"}, {"states", states}}}}};
  const fs::path capture = build_capture(flags, doc, sidecar);
  try {
    (void)aorta::compute_metrics(
        aorta::read_nvbench_capture(capture, flags.find('R') != std::string_view::npos));
  } catch (const aorta::error&) {
  }
  return 0;
}
