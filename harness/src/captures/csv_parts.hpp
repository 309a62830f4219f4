// One large CSV file read on several threads. The rows after the header are cut into parts at
// row starts; each part is read by its own csv_scanner, and the caller merges the parts' results
// in file order, so the result is the one a single scanner would give.
//
// A cut is put just after the first line break past an even share of the bytes. A cut inside a
// quoted field that holds line breaks is then wrong; it is caught after the parts are read,
// because the part before it cannot end on a whole row. Every part but the last must end with a
// row terminated by its line break, exactly at the cut: then, as the first part starts where a
// row starts, so does each next one, and each part's rows are those one scanner would read. Any
// doubt (that check, a part that threw) sends the caller back to one scanner, which reports what
// is wrong as it always has.
#pragma once

#include "captures/csv_scanner.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>

namespace aorta::detail {

struct csv_parts_options {
  // Each part holds a chunk, its masks and a table of the kernels it saw: four parts cost ~2 MiB
  // of memory over one scanner, and a table per part of a trace's distinct names.
  std::size_t max_parts = 4;
  // A part's bytes at least: a thread costs tens of microseconds, a MiB of rows about a ms.
  std::uint64_t min_part_bytes = std::uint64_t{16} << 20;
  std::size_t chunk_size = std::size_t{256} << 10;

  // The defaults, with no more parts than the CPUs this process may run on (its affinity mask).
  [[nodiscard]] static csv_parts_options for_this_machine() noexcept;
};

// Reads the rows of `file` from `data_begin` (a row's start, after the header) to its end in
// parts, calling read_part(scanner, part) on a thread per part, with part in 0..N-1 in file
// order, N <= options.max_parts. read_part reads every row of its scanner. Returns N, or 0 when
// the file was not read in parts (too small to cut, a wrong cut, a part that threw, no thread to
// be had): the caller then discards what read_part wrote and reads the rows on one scanner.
[[nodiscard]] std::size_t
read_csv_in_parts(const std::filesystem::path& file, std::uint64_t data_begin,
                  const csv_parts_options& options,
                  const std::function<void(csv_scanner& scanner, std::size_t part)>& read_part);

}  // namespace aorta::detail
