// The CSV scanner's block-mask scan against the byte-at-a-time reference parser
// (unit/csv_reference_parser.hpp). Inputs are generated: random bytes from the characters that
// matter, and rows placed at every offset of the smallest chunk, so each quote, doubled quote,
// comma and line break meets a chunk and a 64-byte block boundary.
#include "captures/csv_kernel_table.hpp"
#include "captures/csv_scanner.hpp"
#include "captures/rocprof_reader.hpp"
#include "unit/csv_reference_parser.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <filesystem>
#include <map>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using aorta::detail::csv_columns;
using aorta::detail::csv_scanner;
using aorta::test::csv_reference::reference_parse;
using aorta::test::csv_reference::row;

class csv_fast_path_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("aorta_csv_fast_path_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& bytes) {
    const fs::path file = m_dir / "in.csv";
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }

  // Every row as the scanner gives it, all columns.
  static std::vector<row> scan(const fs::path& file, std::size_t chunk) {
    csv_scanner scanner(file, chunk);
    std::vector<std::string_view> fields;
    std::vector<row> out;
    while (scanner.next_row(fields)) {
      EXPECT_EQ(scanner.field_count(), fields.size());
      out.push_back(row{{fields.begin(), fields.end()}, scanner.row_unterminated()});
    }
    return out;
  }

  // The scanner with only `wanted` columns parsed must give the reference's fields in those
  // columns, empty ones elsewhere, and the reference's field count.
  static void expect_columns(const fs::path& file, std::size_t chunk, const csv_columns& wanted,
                             const std::vector<row>& reference) {
    csv_scanner scanner(file, chunk);
    std::vector<std::string_view> fields;
    std::size_t n = 0;
    while (scanner.next_row(fields, wanted)) {
      ASSERT_LT(n, reference.size()) << "chunk " << chunk;
      const row& want = reference[n];
      ASSERT_EQ(scanner.field_count(), want.fields.size()) << "row " << n << " chunk " << chunk;
      EXPECT_EQ(scanner.row_unterminated(), want.unterminated) << "row " << n;
      ASSERT_EQ(fields.size(), wanted.kept());
      for (std::size_t c = 0; c < fields.size(); ++c) {
        const std::string expected =
            wanted.wants(c) && c < want.fields.size() ? want.fields[c] : std::string();
        EXPECT_EQ(fields[c], expected) << "row " << n << " column " << c << " chunk " << chunk;
      }
      ++n;
    }
    EXPECT_EQ(n, reference.size()) << "chunk " << chunk;
  }

  fs::path m_dir;
};

// A generated kernel trace in rocprofv3's 22 columns, names quoted with commas and doubled
// quotes, some rows of other kinds, LF and CRLF, read through the kernel-trace reader: per-kernel
// sums and counts must equal those the test adds up itself while writing the file.
TEST_F(csv_fast_path_test, kernel_trace_totals_equal_the_sums_written) {
  std::mt19937_64 rng(300);
  std::string text =
      "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
      "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\","
      "\"Private_Segment_Size\",\"Group_Segment_Size\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
      "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\",\"LDS_Block_Size\","
      "\"Scratch_Size\",\"SGPR_Count\"\n";
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> expected;  // launches, ns
  for (int row = 0; row < 20000; ++row) {
    const std::uint64_t k = rng() % 37;
    const std::string name = "void gemm<" + std::to_string(k) + ", \"t\">(float*, int)";
    const bool dispatch = rng() % 10 != 0;
    const std::uint64_t start = rng() % 4000000000000;
    const std::uint64_t end = start + rng() % 100000000;
    std::string quoted;
    for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    text += std::string(dispatch ? "\"KERNEL_DISPATCH\"" : "\"MEMORY_COPY\"") + ",1,2,0,42," +
            std::to_string(row) + "," + std::to_string(k) + ",\"" + quoted + "\"," +
            std::to_string(row) + "," + std::to_string(start) + "," + std::to_string(end) +
            ",0,0,256,1,1,65536,1,1,0,0,16" + (row % 3 == 0 ? "\r\n" : "\n");
    if (!dispatch) continue;
    ++expected[name].first;
    expected[name].second += end - start;
  }
  const fs::path dir = m_dir / "trace";
  fs::create_directories(dir);
  std::ofstream(dir / "run_kernel_trace.csv", std::ios::binary) << text;
  const aorta::capture got = aorta::read_rocprof_capture(dir);
  ASSERT_EQ(got.kernels.size(), expected.size());
  for (const aorta::kernel_stat& kernel : got.kernels) {
    const auto it = expected.find(kernel.name);
    ASSERT_NE(it, expected.end()) << kernel.name;
    EXPECT_EQ(kernel.launches, it->second.first) << kernel.name;
    // Each sum is below 2^53, so the reader's double total is exact.
    EXPECT_EQ(kernel.total_ns, static_cast<double>(it->second.second)) << kernel.name;
  }
}

// A row, a quoted field with a comma, a line break and a doubled quote, and a CRLF, shifted by
// one byte at a time through two 64-byte chunks.
TEST_F(csv_fast_path_test, tricky_bytes_at_every_offset_of_the_smallest_chunk) {
  const std::string tricky = "\"K\",a,\"x, \"\"y\"\"\nz\",17,,\"\"\r\n"
                             "KERNEL_DISPATCH,b\"c,\"q\"stray,\"\"\"\"\r"
                             "\"open,\n";
  for (std::size_t shift = 0; shift < 2 * 64 + 2; ++shift) {
    const std::string text = std::string(shift, 'p') + "\n" + tricky;
    const fs::path file = write(text);
    const std::vector<row> reference = reference_parse(text);
    ASSERT_EQ(reference.size(), 4U);
    for (std::size_t chunk : {64, 65, 127}) {
      ASSERT_EQ(scan(file, chunk), reference) << "shift " << shift << " chunk " << chunk;
      expect_columns(file, chunk, csv_columns::of({2, 4}), reference);
      expect_columns(file, chunk, csv_columns::of({1}), reference);
    }
  }
}

// Hostile-looking random files: any mix of quotes, commas and line breaks, quoted or not, must
// give the reference's rows with every column and with a few.
TEST_F(csv_fast_path_test, random_bytes_match_the_reference_parser) {
  std::mt19937 rng(2121);
  const std::string alphabet = "ab1,,,\"\"\n\r \xEF";
  for (int file_number = 0; file_number < 60; ++file_number) {
    std::string text;
    const std::size_t size = rng() % 700;
    for (std::size_t i = 0; i < size; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    if (file_number % 3 == 0) text = "\xEF\xBB\xBF" + text;
    const fs::path file = write(text);
    const std::vector<row> reference = reference_parse(text);
    for (std::size_t chunk : {64, 70, 200, 1 << 20}) {
      ASSERT_EQ(scan(file, chunk), reference) << "file " << file_number << " chunk " << chunk;
      expect_columns(file, chunk, csv_columns::of({0, 3, 5}), reference);
      expect_columns(file, chunk, csv_columns::of({2, csv_columns::none}), reference);
    }
  }
}

// Rows of the kind a kernel trace holds, which the scanner reads from the block masks alone
// (quotes only around whole fields), mixed with rows it must leave to the byte-wise path (a
// doubled quote, a quote inside a field, stray bytes after a closing quote), every line ending,
// shifted through two blocks: each wanted field and each field count must be the reference's.
TEST_F(csv_fast_path_test, plain_rows_and_their_neighbours_at_every_offset) {
  std::mt19937 rng(2122);
  const std::vector<std::string> plain_fields{"", "17", "KERNEL_DISPATCH", "\"KERNEL_DISPATCH\"",
                                              "\"\"", "\"a,b\"", "\"line\nbreak\"", "\"cr\r\"",
                                              "\"" + std::string(70, 'n') + "\""};
  const std::vector<std::string> other_fields{"\"x\"\"y\"", "a\"b", "a\"", "\"q\"stray",
                                              "\"\"\"\""};
  const std::vector<std::string> endings{"\n", "\r\n", "\r"};
  // Two quotes inside unquoted fields pair up like a quoted field's: `a",b"` is two fields. A
  // lone one leaves a quote-parity reading inside quotes across the next row's line end.
  std::string rows = "a\",b\",c\na\"b\nx,y\n\",1\n";
  for (int r = 0; r < 40; ++r) {
    const std::size_t count = 1 + rng() % 14;
    for (std::size_t f = 0; f < count; ++f) {
      if (f > 0) rows += ',';
      rows += rng() % 12 == 0 ? other_fields[rng() % other_fields.size()]
                              : plain_fields[rng() % plain_fields.size()];
    }
    rows += endings[rng() % endings.size()];
  }
  for (std::size_t shift = 0; shift < 2 * 64 + 2; ++shift) {
    const std::string text = std::string(shift, 'p') + "\n" + rows;
    const fs::path file = write(text);
    const std::vector<row> reference = reference_parse(text);
    for (std::size_t chunk : {64, 65, 127, 1 << 20}) {
      expect_columns(file, chunk, csv_columns::of({0, 7, 9, 10}), reference);
      expect_columns(file, chunk, csv_columns::of({1, 2}), reference);
    }
  }
}

TEST(csv_columns, wanted_columns_and_the_next_after_each) {
  const csv_columns wanted = csv_columns::of({7, 9, 10, csv_columns::none});
  EXPECT_TRUE(wanted.wants(0));  // always: a blank row is told by its first field
  EXPECT_FALSE(wanted.wants(1));
  EXPECT_TRUE(wanted.wants(7));
  EXPECT_FALSE(wanted.wants(64));
  EXPECT_EQ(wanted.kept(), 11U);
  EXPECT_EQ(wanted.next_after(0), 7U);
  EXPECT_EQ(wanted.next_after(7), 9U);
  EXPECT_EQ(wanted.next_after(10), csv_columns::none);
  EXPECT_EQ(wanted.next_after(200), csv_columns::none);
  // A column past the 64th means every column: correct, only not faster.
  const csv_columns far = csv_columns::of({3, 70});
  EXPECT_TRUE(far.wants(1));
  EXPECT_TRUE(far.wants(70));
  EXPECT_EQ(far.kept(), csv_columns::none);
}

// parse_u64 reads eight digits per step; every length, every position of a non-digit and both
// sides of 2^64 must give what from_chars gives on the trimmed field.
TEST(parse_u64, eight_digit_steps_agree_with_from_chars) {
  std::mt19937_64 rng(64);
  const auto reference = [](std::string_view text) -> std::optional<std::uint64_t> {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
  };
  std::vector<std::string> cases{"",      "0",  "00000000", "000000000000000000001",
                                 "18446744073709551615", "18446744073709551616",
                                 "99999999999999999999", " 17 ", "+1", "-1", "1e3", "12345678\t"};
  for (std::size_t digits = 1; digits <= 21; ++digits) {
    std::string number;
    for (std::size_t i = 0; i < digits; ++i) number.push_back(static_cast<char>('0' + rng() % 10));
    cases.push_back(number);
    for (std::size_t at = 0; at < digits; ++at) {
      for (const char bad : {'/', ':', ' ', 'a', '\xB0', '\0'}) {
        std::string broken = number;
        broken[at] = bad;
        cases.push_back(broken);
      }
    }
  }
  for (const std::string& text : cases) {
    EXPECT_EQ(aorta::detail::parse_u64(text), reference(text)) << "'" << text << "'";
  }
}

}  // namespace
