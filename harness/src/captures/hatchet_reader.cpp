#include "captures/hatchet_reader.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "captures/capture_files.hpp"
#include "captures/chrome_trace_reader.hpp"
#include "captures/hatchet_reader_accumulator.hpp"
#include "captures/hatchet_reader_detail.hpp"
#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_file_scan.hpp"
#include "captures/json_scanner.hpp"
#include "captures/proton_msgpack.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace aorta {

namespace fs = std::filesystem;

namespace detail {

namespace {

// Major, minor, patch of "3.8.0", "3.10", "3.8.0+git1234"; nullopt when it does not start so.
std::optional<std::array<int, 3>> parse_version(std::string_view text) {
  std::array<int, 3> parts{0, 0, 0};
  const char* p = text.data();
  const char* const end = text.data() + text.size();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [next, ec] = std::from_chars(p, end, parts[i]);
    if (ec != std::errc()) {
      if (i == 0) return std::nullopt;
      break;
    }
    p = next;
    if (p == end || *p != '.') break;
    ++p;
  }
  return parts;
}

frame_tree_mode frames_of(const hatchet_read_options& options) {
  return options.keep_frame_tree ? frame_tree_mode::kept : frame_tree_mode::totals_only;
}

void scan_document(hatchet_accumulator& acc, json_chunk_reader reader, std::size_t chunk) {
  hatchet_sax<hatchet_accumulator> sax(acc);
  json_scanner<hatchet_sax<hatchet_accumulator>> scanner(sax, std::move(reader), chunk);
  scanner.run();
}

// A small file gets a buffer of its size, not a 1 MiB chunk (most captures are small, and the
// fuzz targets read thousands a second); the scanner grows it if the file grows.
std::size_t chunk_for(const fs::path& file) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec) return json_default_chunk_size;
  return static_cast<std::size_t>(
      std::min<std::uintmax_t>(json_default_chunk_size, std::max<std::uintmax_t>(size + 1, 64)));
}

void read_file(hatchet_accumulator& acc, const fs::path& file) {
  const std::size_t chunk = chunk_for(file);
  scan_hatchet_file(
      file, [&](json_chunk_reader reader) { scan_document(acc, std::move(reader), chunk); });
}

// In the order a directory's files are preferred: Proton writes one format per session, and
// reading two would count every kernel twice.
enum class proton_format : std::uint8_t { hatchet, hatchet_msgpack, chrome_trace, none };

// By the exact suffix Proton writes (periodic flushing: proton.part_<phase>.hatchet), so an
// editor's backup (proton.hatchet~) or a copy (proton.hatchet.bak) is never summed in.
proton_format format_of(const std::string& name) {
  if (name.ends_with(".hatchet_msgpack")) return proton_format::hatchet_msgpack;
  if (name.ends_with(".hatchet")) return proton_format::hatchet;
  if (name.ends_with(".chrome_trace")) return proton_format::chrome_trace;
  return proton_format::none;
}

std::string_view format_name(proton_format format) {
  switch (format) {
  case proton_format::hatchet: return "hatchet";
  case proton_format::hatchet_msgpack: return "hatchet_msgpack";
  case proton_format::chrome_trace: return "chrome_trace";
  case proton_format::none: break;
  }
  return "unknown";
}

// The files of the preferred format present; notes the formats passed over.
std::vector<fs::path> pick_proton_files(const fs::path& dir, capture& out) {
  std::vector<fs::path> all = list_capture_files(
      dir, [](const std::string& name) { return format_of(name) != proton_format::none; },
      "proton");
  for (const proton_format format :
       {proton_format::hatchet, proton_format::hatchet_msgpack, proton_format::chrome_trace}) {
    std::vector<fs::path> picked;
    for (const fs::path& file : all)
      if (format_of(file.filename().string()) == format) picked.push_back(file);
    if (picked.empty()) continue;
    if (picked.size() != all.size())
      out.notes.push_back(fmt::format("read the {} files under {} and ignored {} file(s) of "
                                      "another Proton format",
                                      format_name(format), dir.string(),
                                      all.size() - picked.size()));
    return picked;
  }
  return {};
}

// Every file streamed in turn (memory is one file's buffers, however many there are); all must
// be trees or all traces.
void read_msgpack_files(const std::vector<fs::path>& files, const hatchet_read_options& options,
                        capture& out) {
  constexpr std::size_t chunk = std::size_t{64} << 10;
  std::optional<bool> traces;
  chrome_trace_totals totals;
  totals.tree = frame_tree_builder(frames_of(options));
  hatchet_accumulator acc(frames_of(options));
  for (const fs::path& file : files) {
    const auto stream = open_proton_msgpack(file);
    const bool trace = stream->is_trace();
    if (traces && *traces != trace)
      throw capture_error(fmt::format("{}: a {} document among {} documents ({}); keep one "
                                      "Proton session's output per directory",
                                      file.string(), trace ? "trace" : "tree",
                                      trace ? "tree" : "trace", files.front().string()));
    traces = trace;
    totals.tree.set_source(file.string());
    scan_msgpack_json(*stream, file, [&](json_chunk_reader reader) {
      if (trace)
        scan_chrome_trace(std::move(reader), chunk, totals);
      else
        scan_document(acc, std::move(reader), chunk);
    });
    if (trace) totals.launches.flush(totals.tree, totals.notes, file.string());
  }
  out.files = files;
  if (traces.value_or(false)) {
    finish_chrome_trace(totals, out);
    out.backend = resolve_proton_backend(options, false, false, false);
  } else {
    acc.finish(options, out);
  }
}

}  // namespace

std::string resolve_proton_backend(const hatchet_read_options& options, bool saw_scopes,
                                   bool saw_cuda, bool saw_hip) {
  if (!options.requested_backend.empty() && options.requested_backend != "auto")
    return options.requested_backend;
  if (saw_scopes) return "instrumentation";
  if (saw_cuda) return "cupti";
  if (!saw_hip) return {};
  if (options.triton_version) {
    if (const auto v = parse_version(*options.triton_version))
      return *v >= std::array<int, 3>{3, 8, 0} ? "rocprofiler" : "roctracer";
  }
  return "roctracer or rocprofiler (Triton version unknown)";
}

capture read_hatchet_stream(std::istream& in, std::size_t chunk_size,
                            const hatchet_read_options& options, const std::string& display_name) {
  capture out;
  out.collector = "proton";
  hatchet_accumulator acc(frames_of(options));
  try {
    scan_document(
        acc,
        [&](char* data, std::size_t size) {
          in.read(data, static_cast<std::streamsize>(size));
          if (in.bad()) throw capture_error(display_name + ": read failed");
          return static_cast<std::size_t>(in.gcount());
        },
        chunk_size);
  } catch (const json_error& e) {
    throw capture_error(fmt::format("{}: byte {}: {}", display_name, e.offset(), e.what()));
  }
  acc.finish(options, out);
  return out;
}

}  // namespace detail

capture read_hatchet_capture(const fs::path& dir_or_file, const hatchet_read_options& options) {
  capture out;
  out.collector = "proton";
  std::error_code ec;
  const fs::path path = fs::absolute(dir_or_file, ec).lexically_normal();
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) {
    out.artifact_dir = path;
    out.notes.push_back(fmt::format("no such directory: {}", path.string()));
    out.backend = detail::resolve_proton_backend(options, false, false, false);
    return out;
  }

  std::vector<fs::path> files;
  if (fs::is_directory(status)) {
    out.artifact_dir = path;
    files = detail::pick_proton_files(path, out);
    if (files.empty())
      out.notes.push_back(fmt::format(
          "no *.hatchet files under {} (nor *.hatchet_msgpack or *.chrome_trace)", path.string()));
  } else {
    out.artifact_dir = path.parent_path();
    files.push_back(path);
  }

  const auto format = files.empty() ? detail::proton_format::none
                                    : detail::format_of(files.front().filename().string());
  if (format == detail::proton_format::hatchet_msgpack) {
    detail::read_msgpack_files(files, options, out);
    return out;
  }
  if (format == detail::proton_format::chrome_trace) {
    detail::chrome_trace_totals totals;
    totals.tree = detail::frame_tree_builder(detail::frames_of(options));
    for (const fs::path& file : files) detail::read_chrome_trace_file(file, totals);
    out.files = std::move(files);
    detail::finish_chrome_trace(totals, out);
    out.backend = detail::resolve_proton_backend(options, false, false, false);
    return out;
  }
  detail::hatchet_accumulator acc(detail::frames_of(options));
  for (const fs::path& file : files) detail::read_file(acc, file);
  out.files = std::move(files);
  acc.finish(options, out);
  return out;
}

}  // namespace aorta
