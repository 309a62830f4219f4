// The limits and scans that keep hostile inputs from crashing or starving aorta (issue 10,
// findings 1, 15, 17).
#include "aorta/error.hpp"
#include "captures/csv_kernel_table.hpp"
#include "captures/csv_scanner.hpp"
#include "sweep/usage_error_line.hpp"
#include "terminal_text.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// Finding 1: the scan was a recursive regex that crashed on a 30,000-character line.
TEST(UsageErrorLine, LinearOverAnyLineLength) {
  const std::string long_line(1'000'000, 'x');
  EXPECT_FALSE(aorta::detail::usage_error_line(long_line + "\n" + long_line).has_value());
  EXPECT_EQ(aorta::detail::usage_error_line(long_line + "\nprog: error: unrecognized arguments: "
                                                        "--bogus\nmore"),
            "prog: error: unrecognized arguments: --bogus");
}

TEST(UsageErrorLine, FindsEachMessageItDetected) {
  using aorta::detail::usage_error_line;
  EXPECT_EQ(usage_error_line("python3: can't open file '/x/a.py': [Errno 2] No such file"),
            "python3: can't open file '/x/a.py': [Errno 2] No such file");
  EXPECT_EQ(usage_error_line("noise\nproton: error: argument -b: invalid choice\n"),
            "proton: error: argument -b: invalid choice");
  EXPECT_EQ(usage_error_line("p: error: the following arguments are required: script"),
            "p: error: the following arguments are required: script");
  EXPECT_FALSE(usage_error_line("RuntimeError: no GPU\nerror: argument").has_value());
  EXPECT_FALSE(usage_error_line("").has_value());
}

TEST(TerminalSafe, EscapesControlBytesKeepsTextAndUtf8) {
  using aorta::detail::terminal_safe;
  EXPECT_EQ(terminal_safe(std::string("\x1b[31mRED\0k", 10)), "\\x1b[31mRED\\x00k");
  EXPECT_EQ(terminal_safe("line\n\ttab \xc3\xa9\x7f\r"), "line\n\ttab \xc3\xa9\\x7f\\x0d");
  // Runs of plain text are copied whole: control bytes back to back, at both ends, none at all.
  EXPECT_EQ(terminal_safe("\x01\x02"), "\\x01\\x02");
  EXPECT_EQ(terminal_safe(""), "");
  const std::string plain(100'000, 'k');
  EXPECT_EQ(terminal_safe(plain), plain);
}

TEST(TerminalSafe, ScopeFiltersAStream) {
  std::ostringstream target;
  {
    const aorta::detail::terminal_safe_scope scope(target);
    target << "kernel \x1b]0;title\x07" << '\x1b' << "\n";
  }
  EXPECT_EQ(target.str(), "kernel \\x1b]0;title\\x07\\x1b\n");
  target << '\x1b';  // the scope is gone: the stream is its own again
  EXPECT_EQ(target.str().back(), '\x1b');
}

// Every byte value, twice over and ending in a control byte, through the string and the stream:
// C0 but newline and tab, and DEL, become \xHH; every other byte passes as it is.
TEST(TerminalSafe, EveryByteValueByTheRuleThroughStringAndStream) {
  std::string text;
  std::string expected;
  for (int round = 0; round < 2; ++round) {
    for (int value = 0; value < 256; ++value) {
      const char byte = static_cast<char>(value);
      text += byte;
      const bool control = (value < 0x20 && byte != '\n' && byte != '\t') || value == 0x7f;
      expected += control ? fmt::format("\\x{:02x}", value) : std::string(1, byte);
    }
  }
  text += '\x1b';
  expected += "\\x1b";
  EXPECT_EQ(aorta::detail::terminal_safe(text), expected);
  std::ostringstream target;
  {
    const aorta::detail::terminal_safe_scope scope(target);
    target << text;
  }
  EXPECT_EQ(target.str(), expected);
}

class CsvLimits : public ::testing::Test {
protected:
  void SetUp() override {
    m_file = fs::temp_directory_path() /
             (std::string("aorta_csv_limits_") +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv");
  }
  void TearDown() override { fs::remove(m_file); }
  void write(const std::string& text) { std::ofstream(m_file, std::ios::binary) << text; }
  fs::path m_file;
};

// Finding 15: a row past the limit is an error naming the file, the row and the limit.
TEST_F(CsvLimits, RowLongerThanTheLimitIsAnError) {
  write("a,b\n\"" + std::string(10'000, 'k') + "\",1\n");
  aorta::detail::csv_scanner scanner(m_file, 64, 4096);
  std::vector<std::string_view> fields;
  ASSERT_TRUE(scanner.next_row(fields));
  try {
    (void)scanner.next_row(fields);
    FAIL() << "a 10,000-byte row passed a 4096-byte limit";
  } catch (const aorta::capture_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(m_file.string() + ": row 2 is longer than 4096 bytes "
                                                      "(csv_max_row_bytes)"));
  }
}

TEST_F(CsvLimits, RowsUnderTheLimitReadWholeWhateverTheChunk) {
  const std::string name(100'000, 'k');
  write("\"" + name + "\",\"x\"\"y\"\n" + name + ",2");
  aorta::detail::csv_scanner scanner(m_file, 64);
  std::vector<std::string_view> fields;
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_EQ(fields.size(), 2U);
  EXPECT_EQ(fields[0], name);
  EXPECT_EQ(fields[1], "x\"y");
  ASSERT_TRUE(scanner.next_row(fields));
  EXPECT_EQ(fields[0], name);
  EXPECT_FALSE(scanner.next_row(fields));
}

TEST(KernelTable, NameLongerThanTheLimitIsAnErrorNamingTheSource) {
  aorta::detail::kernel_table table;
  table.add("short", 1.0, 1);
  table.add(std::string(aorta::detail::max_kernel_name_bytes + 1, 'k'), 1.0, 1);
  try {
    (void)table.sorted("trace.csv");
    FAIL() << "an over-long kernel name was kept";
  } catch (const aorta::capture_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("trace.csv: a kernel name of 1048577 bytes is longer than "
                                    "1048576 bytes (max_kernel_name_bytes)"));
  }
}

// The distinct names' bytes are bounded too (name_table::max_bytes; 8 bytes here stand for it):
// past them the table refuses the capture, naming the source, rather than wrap a name's offset.
TEST(KernelTable, NamesPastTheTablesByteLimitAreAnErrorNamingTheSource) {
  aorta::detail::kernel_table table(8);
  table.add("abcd", 1.0, 1);
  table.add("efgh", 1.0, 1);
  table.add("abcd", 1.0, 1);
  EXPECT_EQ(table.sorted("trace.csv").size(), 2U);
  table.add("i", 1.0, 1);
  try {
    (void)table.sorted("trace.csv");
    FAIL() << "a name past the table's byte limit was kept";
  } catch (const aorta::capture_error& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("trace.csv: the distinct kernel names total more than 8 bytes"));
  }
}

}  // namespace
