#include "captures/csv_parts.hpp"

#include "bounded_input.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

namespace aorta::detail {

namespace {

std::size_t usable_cpus() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
  }
  return std::max(1U, std::thread::hardware_concurrency());
}

// Just after the first line break at or after `from`; `limit` when there is none before it, or
// when the bytes cannot be read (the parts' own reads then say why). Quotes are not followed: a
// cut that lands inside a quoted field cannot be told from here (parity from the cut on says
// nothing without the state at the cut), and the check after the parts are read catches it.
std::uint64_t next_line_start(int fd, std::uint64_t from, std::uint64_t limit) {
  std::array<char, 4096> bytes{};
  for (std::uint64_t at = from; at < limit;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), limit - at));
    const ssize_t got = ::pread(fd, bytes.data(), want, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return limit;
    const void* line_break = std::memchr(bytes.data(), '\n', static_cast<std::size_t>(got));
    if (line_break != nullptr) {
      return at + static_cast<std::uint64_t>(static_cast<const char*>(line_break) - bytes.data()) +
             1;
    }
    at += static_cast<std::uint64_t>(got);
  }
  return limit;
}

// [data_begin, size) cut into up to `parts` ranges at row starts; the last one reads on to the
// file's end, as one scanner would if the file grew meanwhile.
std::vector<csv_byte_range> cut_at_rows(int fd, std::uint64_t data_begin, std::uint64_t size,
                                        std::size_t parts) {
  std::vector<csv_byte_range> ranges;
  const std::uint64_t bytes = size - data_begin;
  std::uint64_t begin = data_begin;
  for (std::size_t k = 1; k < parts; ++k) {
    const std::uint64_t guess = data_begin + bytes / parts * k;
    const std::uint64_t cut = next_line_start(fd, std::max(guess, begin), size);
    if (cut >= size) break;
    if (cut > begin) {
      ranges.push_back({begin, cut});
      begin = cut;
    }
  }
  ranges.push_back({begin, UINT64_MAX});
  return ranges;
}

}  // namespace

csv_parts_options csv_parts_options::for_this_machine() noexcept {
  csv_parts_options options;
  options.max_parts = std::min(options.max_parts, usable_cpus());
  return options;
}

std::size_t
read_csv_in_parts(const std::filesystem::path& file, std::uint64_t data_begin,
                  const csv_parts_options& options,
                  const std::function<void(csv_scanner& scanner, std::size_t part)>& read_part) {
  std::vector<csv_byte_range> ranges;
  try {
    const input_file in = open_input_file(file);
    const std::uint64_t size = in.size();
    if (data_begin >= size) return 0;
    const std::uint64_t per_part = std::max<std::uint64_t>(options.min_part_bytes, 1);
    const std::size_t parts = static_cast<std::size_t>(
        std::min<std::uint64_t>(options.max_parts, (size - data_begin) / per_part));
    if (parts < 2) return 0;
    ranges = cut_at_rows(in.fd(), data_begin, size, parts);
  } catch (const input_error&) {
    return 0;
  }
  if (ranges.size() < 2) return 0;

  std::vector<std::exception_ptr> failures(ranges.size());
  // Whether each part ended on a whole row exactly at its end (see the header).
  std::vector<char> whole(ranges.size(), 0);
  const auto run = [&](std::size_t part) {
    try {
      csv_scanner scanner(file, ranges[part], options.chunk_size);
      read_part(scanner, part);
      whole[part] =
          static_cast<char>(scanner.offset() == ranges[part].end && !scanner.row_unterminated());
    } catch (...) {
      failures[part] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  bool started_all = true;
  try {
    threads.reserve(ranges.size() - 1);
    for (std::size_t part = 1; part < ranges.size(); ++part) threads.emplace_back(run, part);
  } catch (const std::exception&) {
    started_all = false;  // no thread to be had: one scanner reads it instead
  }
  if (started_all) run(0);
  for (auto& thread : threads) thread.join();
  if (!started_all) return 0;
  for (std::size_t part = 0; part < ranges.size(); ++part) {
    if (failures[part] || (part + 1 < ranges.size() && whole[part] == 0)) return 0;
  }
  return ranges.size();
}

}  // namespace aorta::detail
