// The callgrind reader's per-line bound (callgrind_max_line_bytes): std::getline held a line of
// any length, so a 100 MB line took 100 MB; lines are now read in chunks and refused at the bound,
// naming the file, the line, the bound and the fix. The chunked line reader gives the lines
// std::getline gave, wherever the chunks split them.
#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "captures/callgrind_reader.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr const char* header = "version: 1\ncreator: callgrind\nevents: Ir\n";

class callgrind_line_bound : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_callgrind_line_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
             std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    m_file = m_dir / "callgrind.out.1";
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // The header, then `fn=(1) ` and a name that makes the line `line_bytes` long, then a cost
  // line. The name is a hole in a sparse file (NUL bytes), so a long one costs no disk.
  void write_long_fn_line(std::uint64_t line_bytes) const {
    const std::string start = std::string(header) + "fn=(1) ";
    {
      std::ofstream(m_file, std::ios::binary) << start;
    }
    const std::uint64_t line_start = start.size() - 7;
    fs::resize_file(m_file, line_start + line_bytes);
    std::ofstream(m_file, std::ios::binary | std::ios::app) << "\n0 1\n";
  }
  [[nodiscard]] std::string error_of_read() const {
    try {
      (void)aorta::read_callgrind_capture(m_file);
    } catch (const aorta::capture_error& e) {
      return e.what();
    }
    return "no error";
  }

  fs::path m_dir;
  fs::path m_file;
};

long peak_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST_F(callgrind_line_bound, AHundredMegabyteLineFailsNamingTheLineWithoutHoldingIt) {
  write_long_fn_line(std::uint64_t{100} << 20);
  const long before = peak_rss_kib();
  const std::string error = error_of_read();
  const long grown_kib = peak_rss_kib() - before;
  EXPECT_NE(error.find(m_file.string() + ":4: the line is longer than " +
                       std::to_string(aorta::detail::callgrind_max_line_bytes) +
                       " bytes (callgrind_max_line_bytes)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("Fix: re-run the capture"), std::string::npos) << error;
  // The bound and a chunk, not the line: std::getline's copy grew it by 100 MB.
  EXPECT_LT(grown_kib, 32 * 1024) << grown_kib << " KiB";
}

TEST_F(callgrind_line_bound, ALineOfExactlyTheBoundIsReadAndOneByteMoreIsNot) {
  write_long_fn_line(aorta::detail::callgrind_max_line_bytes);
  EXPECT_EQ(error_of_read(), "no error");
  write_long_fn_line(aorta::detail::callgrind_max_line_bytes + 1);
  EXPECT_NE(error_of_read().find(":4: the line is longer than"), std::string::npos);
}

// Every split of the text by small chunks: the lines std::getline gives, the bound enforced on
// the line without its '\n', and no line after a final '\n'.
TEST_F(callgrind_line_bound, ChunkedLinesAreTheLinesGetlineGives) {
  const std::string text = "ab\n\ncdefg\r\n\nhij\n" + std::string(9, 'x') + "\nlast";
  for (const std::string& body : {text, text + "\n"}) {
    std::ofstream(m_file, std::ios::binary) << body;
    std::vector<std::string> expected;
    std::istringstream in(body);
    for (std::string line; std::getline(in, line);) expected.push_back(line);
    for (std::size_t chunk = 1; chunk <= 12; ++chunk) {
      aorta::detail::input_lines lines(aorta::detail::open_input_file(m_file), 9, chunk);
      std::vector<std::string> got;
      for (std::string_view line; lines.next(line);) got.emplace_back(line);
      EXPECT_EQ(got, expected) << "chunk " << chunk;
      aorta::detail::input_lines strict(aorta::detail::open_input_file(m_file), 8, chunk);
      const auto read_all = [&strict] {
        for (std::string_view line; strict.next(line);) {
        }
      };
      EXPECT_THROW(read_all(), aorta::detail::input_line_too_long) << "chunk " << chunk;
    }
  }
}

}  // namespace
