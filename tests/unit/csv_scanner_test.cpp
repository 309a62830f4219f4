#include "captures/csv_scanner.hpp"

#include "aorta/error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using rows = std::vector<std::vector<std::string>>;

class csv_scanner_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir =
        fs::temp_directory_path() /
        ("aorta_csv_scanner_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& bytes) {
    const fs::path file = m_dir / "in.csv";
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }

  static rows read_all(const fs::path& file, std::size_t chunk) {
    aorta::detail::csv_scanner scanner(file, chunk);
    std::vector<std::string_view> fields;
    rows out;
    while (scanner.next_row(fields)) out.emplace_back(fields.begin(), fields.end());
    return out;
  }

  fs::path m_dir;
};

TEST_F(csv_scanner_test, quoted_fields_with_commas_doubled_quotes_and_crlf) {
  const fs::path file = write("\"Kind\",\"Kernel_Name\",\"Start\"\r\n"
                              "\"KERNEL_DISPATCH\",\"void foo<int, 2>(float const*, int)\",17\r\n"
                              "\"\",\"say \"\"hi\"\"\",\r\n");
  const rows expected{{"Kind", "Kernel_Name", "Start"},
                      {"KERNEL_DISPATCH", "void foo<int, 2>(float const*, int)", "17"},
                      {"", "say \"hi\"", ""}};
  for (std::size_t chunk : {64, 65, 97, 1 << 20}) EXPECT_EQ(read_all(file, chunk), expected);
}

TEST_F(csv_scanner_test, quoted_line_break_and_row_longer_than_the_chunk) {
  const std::string long_name(1000, 'x');
  const fs::path file = write("a,\"two\nlines\"\n\"" + long_name + "\",b\n");
  const rows expected{{"a", "two\nlines"}, {long_name, "b"}};
  EXPECT_EQ(read_all(file, 64), expected);
}

TEST_F(csv_scanner_test, unterminated_last_row_is_flagged) {
  const fs::path file = write("a,b\n1,2\n3,\"open quote");
  aorta::detail::csv_scanner scanner(file, 64);
  std::vector<std::string_view> fields;
  ASSERT_TRUE(scanner.next_row(fields));
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_FALSE(scanner.row_unterminated());
  EXPECT_EQ(scanner.row_number(), 2u);
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_TRUE(scanner.row_unterminated());
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[1], "open quote");
  EXPECT_FALSE(scanner.next_row(fields));
}

TEST_F(csv_scanner_test, trailing_comma_at_end_of_file_gives_an_empty_last_field) {
  const fs::path file = write("a,b,");
  EXPECT_EQ(read_all(file, 64), (rows{{"a", "b", ""}}));
}

TEST_F(csv_scanner_test, byte_order_mark_is_skipped) {
  const fs::path file = write("\xEF\xBB\xBF\"Name\",x\n");
  EXPECT_EQ(read_all(file, 64), (rows{{"Name", "x"}}));
}

TEST_F(csv_scanner_test, skip_lines_until_leaves_the_header_next) {
  const fs::path file = write(
      "==PROF== Connected to process 12 (/bin/app)\nhello \"unbalanced\n\"ID\",\"Kernel Name\"\n"
      "\"0\",\"k\"\n");
  aorta::detail::csv_scanner scanner(file, 64);
  ASSERT_TRUE(scanner.skip_lines_until([](std::string_view l) { return l.starts_with("\"ID\""); }));
  std::vector<std::string_view> fields;
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_EQ(std::vector<std::string>(fields.begin(), fields.end()),
            (std::vector<std::string>{"ID", "Kernel Name"}));
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_EQ(fields[1], "k");
  EXPECT_FALSE(scanner.skip_lines_until([](std::string_view) { return true; }));
}

// Rows built from random fields, written with CSV quoting, must come back unchanged whatever the
// chunk size, so every field and quote lands on a chunk boundary somewhere.
TEST_F(csv_scanner_test, random_rows_round_trip_across_chunk_sizes) {
  std::mt19937 rng(1234);
  const std::string alphabet = "ab,\"\n\r x<>*";
  rows expected;
  std::string text;
  for (int r = 0; r < 300; ++r) {
    std::vector<std::string> row;
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int f = 0; f < n; ++f) {
      std::string field;
      const int len = static_cast<int>(rng() % 12);
      for (int i = 0; i < len; ++i) field.push_back(alphabet[rng() % alphabet.size()]);
      if (n == 1 && field.empty()) field.push_back('z');  // a lone empty field is a blank line
      if (f > 0) text.push_back(',');
      text.push_back('"');
      for (char c : field) {
        if (c == '"') text.push_back('"');
        text.push_back(c);
      }
      text.push_back('"');
      row.push_back(field);
    }
    if (r % 2 == 0) text.push_back('\r');
    text.push_back('\n');
    expected.push_back(row);
  }
  const fs::path file = write(text);
  for (std::size_t chunk : {64, 67, 128, 4096}) EXPECT_EQ(read_all(file, chunk), expected) << chunk;
}

TEST_F(csv_scanner_test, missing_file_is_a_capture_error_naming_it) {
  try {
    aorta::detail::csv_scanner scanner(m_dir / "absent.csv");
    FAIL() << "expected capture_error";
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("absent.csv"), std::string::npos);
  }
}

TEST(csv_header, finds_columns_by_trimmed_name) {
  const std::vector<std::string_view> fields{"Kind", " Kernel_Name ", "End"};
  const aorta::detail::csv_header header(fields);
  EXPECT_EQ(header.find("Kernel_Name"), 1u);
  EXPECT_EQ(header.find("End"), 2u);
  EXPECT_EQ(header.find("Start"), aorta::detail::csv_header::npos);
}

}  // namespace
