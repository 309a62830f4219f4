#include "aorta/hatchet_reader.hpp"

#include "aorta/error.hpp"
#include "captures/capture_files.hpp"
#include "captures/hatchet_reader_accumulator.hpp"
#include "captures/hatchet_reader_detail.hpp"
#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_scanner.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
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

class fd_closer {
public:
  explicit fd_closer(int fd) : m_fd(fd) {}
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  ~fd_closer() { ::close(m_fd); }

private:
  int m_fd;
};

std::size_t read_some(int fd, char* data, std::size_t size, const fs::path& file) {
  for (;;) {
    const ssize_t got = ::read(fd, data, size);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EINTR) continue;
    throw capture_error(fmt::format("{}: read failed: {}", file.string(), std::strerror(errno)));
  }
}

// 1-based line of a byte offset, computed only when reporting an error so the hot loop never
// counts newlines. 0 when the file cannot be re-read.
std::uint64_t line_at(const fs::path& file, std::uint64_t offset) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  fd_closer closer(fd);
  std::vector<char> buf(json_default_chunk_size);
  std::uint64_t line = 1;
  std::uint64_t seen = 0;
  while (seen < offset) {
    const ssize_t got = ::read(fd, buf.data(), buf.size());
    if (got <= 0) break;
    const auto take = static_cast<std::size_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(got), offset - seen));
    line += static_cast<std::uint64_t>(std::count(buf.data(), buf.data() + take, '\n'));
    seen += take;
  }
  return line;
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
  scan_hatchet_file(file,
                    [&](json_chunk_reader reader) { scan_document(acc, std::move(reader), chunk); });
}

bool is_hatchet_name(const std::string& name) {
  return name.find(".hatchet") != std::string::npos &&
         name.find(".hatchet_msgpack") == std::string::npos;
}

}  // namespace

void scan_hatchet_file(const fs::path& file, const std::function<void(json_chunk_reader)>& scan) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw capture_error(fmt::format("{}: cannot open: {} (check that the file exists and is "
                                    "readable)",
                                    file.string(), std::strerror(errno)));
  fd_closer closer(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  try {
    scan([&](char* data, std::size_t size) { return read_some(fd, data, size, file); });
  } catch (const json_error& e) {
    throw capture_error(fmt::format("{}: byte {} (line {}): {}", file.string(), e.offset(),
                                    line_at(file, e.offset()), e.what()));
  }
}

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
  hatchet_accumulator acc;
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
    files = detail::list_capture_files(
        path, [](const std::string& name) { return detail::is_hatchet_name(name); }, "proton");
    if (files.empty())
      out.notes.push_back(fmt::format("no *.hatchet files under {}", path.string()));
  } else {
    out.artifact_dir = path.parent_path();
    files.push_back(path);
  }

  detail::hatchet_accumulator acc;
  for (const fs::path& file : files) detail::read_file(acc, file);
  out.files = std::move(files);
  acc.finish(options, out);
  return out;
}

}  // namespace aorta
