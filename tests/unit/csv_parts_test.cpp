// A kernel trace read in parts on several threads (captures/csv_parts.hpp) must give what one
// scanner gives: the same kernels, totals, launch counts, notes and errors, whatever the rows hold
// and wherever the cuts fall. Files are generated (seeded): kernel-trace rows with quoted names,
// commas, doubled quotes, line breaks inside quotes, CRLF and lone CR, blank rows, other kinds,
// unreadable timestamps, short rows and a last row cut off, cut into up to five parts of any size.
#include "captures/csv_kernel_table.hpp"
#include "captures/csv_parts.hpp"
#include "captures/rocprof_sources.hpp"

#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using aorta::detail::csv_parts_options;
using aorta::detail::csv_scanner;
using aorta::detail::kernel_table;

class csv_parts_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir =
        fs::temp_directory_path() /
        ("aorta_csv_parts_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& bytes) {
    const fs::path file = m_dir / "run_kernel_trace.csv";
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }

  fs::path m_dir;
};

// What a read gave, as text: its result, notes, and the kernels or the error sorted() threw.
std::string read_trace(const fs::path& file, const csv_parts_options& parts) {
  kernel_table table;
  std::vector<std::string> notes;
  std::string out;
  try {
    const bool any = aorta::detail::read_rocprof_kernel_trace(file, table, notes, parts);
    out += any ? "any\n" : "none\n";
    for (const auto& note : notes) out += "note: " + note + "\n";
    for (const auto& kernel : table.sorted(file.string())) {
      out += kernel.name.str() + " | " + std::to_string(kernel.total_ns) + " | " +
             (kernel.launches ? std::to_string(*kernel.launches) : "unknown") + "\n";
    }
  } catch (const aorta::error& failure) {
    out += std::string("error: ") + failure.what() + "\n";
  }
  return out;
}

std::string random_row(std::mt19937_64& rng, int row) {
  static const std::vector<std::string> names{"\"gemm\"",
                                              "\"void k<1, 2>(float*)\"",
                                              "\"a, \"\"quoted\"\" name\"",
                                              "plain_name",
                                              "\"two\nlines\"",
                                              "\"crlf\r\ninside\"",
                                              "",
                                              "\"\"",
                                              "na\"me"};
  static const std::vector<std::string> kinds{"\"KERNEL_DISPATCH\"", "KERNEL_DISPATCH",
                                              "\"MEMORY_COPY\"", ""};
  static const std::vector<std::string> endings{"\n", "\r\n", "\r"};
  const std::uint64_t start = rng() % 1000000000000;
  const std::uint64_t end = start + rng() % 1000000;
  std::string timestamps = std::to_string(start) + "," + std::to_string(end);
  switch (rng() % 20) {
  case 0: timestamps = "x," + std::to_string(end); break;  // not a number
  case 1: timestamps = std::to_string(end + 1) + "," + std::to_string(start); break;
  case 2: return kinds[rng() % kinds.size()] + ",1,2" + endings[rng() % endings.size()];  // short
  case 3: return endings[rng() % endings.size()];                                         // blank
  default: break;
  }
  return kinds[rng() % kinds.size()] + ",1," + std::to_string(row) + "," +
         names[rng() % names.size()] + "," + timestamps + ",0,16" + endings[rng() % endings.size()];
}

TEST_F(csv_parts_test, any_cut_of_any_trace_reads_as_one_scanner_reads_it) {
  std::mt19937_64 rng(2026'12'04);
  const std::string header = "\"Kind\",\"Agent_Id\",\"Dispatch_Id\",\"Kernel_Name\","
                             "\"Start_Timestamp\",\"End_Timestamp\",\"Scratch_Size\",\"x\"\n";
  csv_parts_options one;
  one.max_parts = 1;
  int read_in_parts = 0;
  for (int file_number = 0; file_number < 150; ++file_number) {
    std::string text = (file_number % 7 == 0 ? "\xEF\xBB\xBF" : "") + header;
    const int rows = static_cast<int>(rng() % 400);
    for (int row = 0; row < rows; ++row) text += random_row(rng, row);
    if (file_number % 5 == 0 && !text.empty()) text.pop_back();  // the last row cut off
    const fs::path file = write(text);
    const std::string expected = read_trace(file, one);
    for (const std::size_t parts : {2, 3, 5}) {
      csv_parts_options split;
      split.max_parts = parts;
      split.min_part_bytes = 1 + rng() % 200;
      split.chunk_size = 64 + rng() % 1000;
      ASSERT_EQ(read_trace(file, split), expected)
          << "file " << file_number << ", " << parts << " parts of " << split.min_part_bytes
          << " bytes or more";
    }
    // Whether the file was read in parts at all: most files must be, or the test above proves
    // nothing about parts.
    csv_parts_options split;
    split.max_parts = 3;
    split.min_part_bytes = 1;
    split.chunk_size = 64;
    const std::size_t data_begin = text.find('\n') + 1;
    read_in_parts += aorta::detail::read_csv_in_parts(file, data_begin, split,
                                                      [](csv_scanner& scanner, std::size_t) {
                                                        std::vector<std::string_view> fields;
                                                        while (scanner.next_row(fields)) {
                                                        }
                                                      }) > 1
                         ? 1
                         : 0;
  }
  EXPECT_GT(read_in_parts, 75);
}

// A cut that lands in a quoted field holding a line break is only known to be wrong once the
// part before it ends inside the quote: the file is then read on one scanner.
TEST_F(csv_parts_test, a_cut_inside_a_quoted_line_break_reads_on_one_scanner) {
  const std::string header = "Kind,Kernel_Name,Start_Timestamp,End_Timestamp\n";
  std::string plain = header;
  for (int row = 0; row < 40; ++row) plain += "KERNEL_DISPATCH,k,0,10\n";
  const std::string quoted = header + "KERNEL_DISPATCH,\"" + std::string(400, 'x') + "\n" +
                             std::string(10, 'y') + "\",0,10\nKERNEL_DISPATCH,k,0,10\n";
  csv_parts_options split;
  split.max_parts = 2;
  split.min_part_bytes = 1;
  split.chunk_size = 64;
  const auto count_parts = [&](const std::string& text) {
    return aorta::detail::read_csv_in_parts(write(text), header.size(), split,
                                            [](csv_scanner& scanner, std::size_t) {
                                              std::vector<std::string_view> fields;
                                              while (scanner.next_row(fields)) {
                                              }
                                            });
  };
  EXPECT_EQ(count_parts(plain), 2U);
  // The even cut falls inside the 400 x's; the next line break is the one inside the quotes.
  EXPECT_EQ(count_parts(quoted), 0U);
  csv_parts_options one;
  one.max_parts = 1;
  const fs::path file = write(quoted);
  EXPECT_EQ(read_trace(file, split), read_trace(file, one));
}

// A part that throws (here: a row past the scanner's limit would, but any error does) must not
// leave its partial table behind: the caller reads again on one scanner.
TEST_F(csv_parts_test, a_part_that_throws_reads_on_one_scanner) {
  std::string text = "Kind,Kernel_Name,Start_Timestamp,End_Timestamp\n";
  for (int row = 0; row < 40; ++row) text += "KERNEL_DISPATCH,k,0,10\n";
  csv_parts_options split;
  split.max_parts = 2;
  split.min_part_bytes = 1;
  const std::size_t parts =
      aorta::detail::read_csv_in_parts(write(text), 48, split, [](csv_scanner&, std::size_t part) {
        if (part == 1) throw std::runtime_error("a part failed");
      });
  EXPECT_EQ(parts, 0U);
}

// A hostile trace whose rows after the header are one long row with no line break (here 64 KiB
// of quoted line-break-free bytes): no cut can be placed, and the file is read on one scanner,
// which reads it as one scanner always did.
TEST_F(csv_parts_test, a_trace_without_a_line_break_past_its_header_reads_on_one_scanner) {
  const std::string header = "Kind,Kernel_Name,Start_Timestamp,End_Timestamp\n";
  const std::string text = header + "KERNEL_DISPATCH,\"" + std::string(64 << 10, 'x') + "\",0,10";
  csv_parts_options split;
  split.max_parts = 4;
  split.min_part_bytes = 1;
  split.chunk_size = 64;
  const fs::path file = write(text);
  EXPECT_EQ(aorta::detail::read_csv_in_parts(file, header.size(), split,
                                             [](csv_scanner&, std::size_t) {}),
            0U);
  csv_parts_options one;
  one.max_parts = 1;
  EXPECT_EQ(read_trace(file, split), read_trace(file, one));
}

// Merging the table of a later part: unknown launch counts stay unknown, an overflowed count
// stays overflowed, and names keep the order they were first seen in.
TEST(kernel_table_absorb, counts_merge_as_one_table_would_hold_them) {
  kernel_table first;
  first.add("a", 5.0, 1);
  first.add("b", 1.0, std::uint64_t{1} << 62);
  kernel_table later;
  later.add("c", 2.0, 3);
  later.add("a", 1.0, std::nullopt);
  later.add("b", 1.0, std::uint64_t{1} << 62);
  first.absorb(later);
  kernel_table none_overflowed;
  none_overflowed.add("a", 5.0, 1);
  none_overflowed.absorb(later);
  const auto kernels = none_overflowed.sorted("test");
  ASSERT_EQ(kernels.size(), 3U);
  EXPECT_EQ(kernels[0].name, "a");
  EXPECT_EQ(kernels[0].total_ns, 6.0);
  EXPECT_FALSE(kernels[0].launches.has_value());
  EXPECT_EQ(kernels[1].name, "c");
  EXPECT_EQ(kernels[1].launches, 3U);
  try {
    (void)first.sorted("test");
    ADD_FAILURE() << "a launch count past 2^64 was summed";
  } catch (const aorta::capture_error& failure) {
    EXPECT_NE(std::string(failure.what()).find("'b' overflowed"), std::string::npos)
        << failure.what();
  }
}

}  // namespace
