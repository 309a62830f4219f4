// Issue 18, the readers' findings: each input is built here from its description in the issue
// (hand-made, the formats' published layouts: MessagePack spec, Proton's hatchet and chrome trace
// output, compute-sanitizer's text report), never committed. Each test failed on the code before
// the issue (crash, > 3 GB, a wrong sum or a silent drop) and names its finding.
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"
#include "bounded_input.hpp"
#include "checked_sum.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/proton_msgpack.hpp"
#include "captures/rocprof_reader.hpp"
#include "captures/sanitizer_reader.hpp"
#include "json_text.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace aorta;

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class scratch : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_hostile_readers_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path write(const std::string& name, const std::string& bytes) const {
    const fs::path file = m_dir / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
    return file;
  }
  template <typename Read>
  static std::string error_of(Read read) {
    try {
      read();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "no error";
  }
  fs::path m_dir;
};

// A Proton tree document: ROOT with one kernel leaf per entry of `kernels` (name, count, ns).
std::string tree_json(const std::vector<std::tuple<std::string, std::string, double>>& kernels) {
  std::string children;
  for (const auto& [name, count, ns] : kernels) {
    if (!children.empty()) children += ',';
    children += R"j({"frame":{"name":")j" + name + R"j(","type":"function"},"metrics":{"count":)j" +
                count + R"j(,"time (ns)":)j" + std::to_string(ns) +
                R"j(,"device_type":"CUDA","device_id":"0"},"children":[]})j";
  }
  return R"([{"frame":{"name":"ROOT","type":"function"},"metrics":{},"children":[)" + children +
         "]},{}]";
}

long peak_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Finding 1: 100 KB of nested MessagePack arrays crashed (SIGSEGV) check, view and sweep run.
TEST_F(scratch, DeeplyNestedMsgpackIsRefusedNotRecursedInto) {
  // As the issue's file, and the same behind a Proton document's start ([{}, ...]).
  const fs::path bare =
      write("bare/proton.hatchet_msgpack", std::string(100'000, '\x91') + std::string(1, '\x90'));
  EXPECT_THAT(error_of([&] { (void)read_hatchet_capture(bare); }),
              HasSubstr("not a Proton document"));
  const fs::path file = write("proton.hatchet_msgpack", std::string("\x92\x80", 2) +
                                                            std::string(100'000, '\x91') +
                                                            std::string(1, '\x90'));
  const std::string error = error_of([&] { (void)read_hatchet_capture(file); });
  EXPECT_THAT(error, HasSubstr("nested deeper than 512 levels"));
  EXPECT_THAT(error, HasSubstr("proton.hatchet_msgpack"));
}

// Finding 2: a 60 MB file needed more than 3.3 GB; now it streams.
TEST_F(scratch, LargeMsgpackIsStreamedInBoundedMemory) {
  constexpr std::size_t kernels = 1'200'000;
  nlohmann::json leaf = nlohmann::json::parse(
      R"j({"frame":{"name":"k","type":"function"},"metrics":{"count":1,"time (ns)":2},)j"
      R"j("children":[]})j");
  const std::vector<std::uint8_t> one = nlohmann::json::to_msgpack(leaf);
  std::string bytes = "\x92\x83";  // [ {frame, metrics, children: [N leaves]}, {} ]
  const auto key = [&](const std::string& k) {
    bytes += static_cast<char>(0xa0 | k.size());
    bytes += k;
  };
  key("frame");
  bytes += "\x81\xa4name\xa4ROOT";
  key("metrics");
  bytes += '\x80';
  key("children");
  bytes += '\xdd';
  for (int shift = 24; shift >= 0; shift -= 8) bytes += static_cast<char>((kernels >> shift) & 0xff);
  bytes.reserve(bytes.size() + kernels * one.size() + 1);
  for (std::size_t i = 0; i < kernels; ++i) bytes.append(one.begin(), one.end());
  bytes += '\x80';
  const fs::path file = write("proton.hatchet_msgpack", bytes);
  ASSERT_GT(fs::file_size(file), 60'000'000u);
  std::string().swap(bytes);
  const long before = peak_rss_kib();
  const capture c = read_hatchet_capture(file);
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, kernels);
  EXPECT_LT(peak_rss_kib() - before, 256L * 1024) << "KiB more at peak";
}

// A declared length or count beyond the file is refused before anything is allocated.
TEST_F(scratch, HugeDeclaredLengthsAreRefused) {
  for (const std::string& bytes : {std::string("\x92\x81\xa1k\xdd\xff\xff\xff\xff", 9),
                                   std::string("\x92\xdf\xff\xff\xff\xff", 6),
                                   std::string("\xdb\xff\xff\xff\xff", 5)}) {
    const std::string error =
        error_of([&] { (void)detail::decode_proton_msgpack(bytes, "hostile"); });
    EXPECT_THAT(error, HasSubstr("declares"));
  }
}

// Finding 15: proton.hatchet~ and proton.hatchet.bak were summed (20 launches became 48).
TEST_F(scratch, OnlyTheExactSuffixIsRead) {
  const std::string doc = tree_json({{"k", "20", 100.0}});
  write("proton.hatchet", doc);
  write("proton.hatchet~", tree_json({{"k", "14", 100.0}}));
  write("proton.hatchet.bak", tree_json({{"k", "14", 100.0}}));
  write("x.hatchet_msgpack.old", "\xc1");
  const capture c = read_hatchet_capture(m_dir);
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, 20u);
  EXPECT_EQ(c.files.size(), 1u);
}

// Finding 13: a count of 2^64-1 became proton_kernel_count = -1, which passed `< 100`.
TEST_F(scratch, ACountPastInt64IsNeverAMetric) {
  const fs::path file = write("proton.hatchet", tree_json({{"k", "18446744073709551615", 1.0}}));
  const metric_set m = compute_metrics(read_hatchet_capture(file));
  EXPECT_EQ(m.values.count("proton_kernel_count"), 0u);
  // Two counts that each fit, but not their sum.
  const fs::path two = write("two/proton.hatchet", tree_json({{"a", "9223372036854775807", 1.0},
                                                              {"b", "1", 1.0}}));
  const metric_set sum = compute_metrics(read_hatchet_capture(two));
  EXPECT_EQ(sum.values.count("proton_kernel_count"), 0u);
  EXPECT_THAT(::testing::PrintToString(sum.notes), HasSubstr("sum past"));
}

TEST_F(scratch, RocprofCallsPastInt64AreAnError) {
  write("run/1_kernel_stats.csv",
        "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\","
        "\"StdDev\"\n\"k\",18446744073709551615,100,1,100,1,1,0\n");
  const std::string error = error_of([&] { (void)read_rocprof_capture(m_dir / "run"); });
  EXPECT_THAT(error, HasSubstr("launch count"));
}

// Finding 13: 2^64-1 and 1 sanitizer errors over two ranks summed to 0.
TEST_F(scratch, SanitizerTotalsPastInt64AreAnError) {
  const fs::path file = write("s/report.log",
                              "========= COMPUTE-SANITIZER\n"
                              "========= ERROR SUMMARY: 18446744073709551615 errors\n");
  const std::string error = error_of([&] { (void)read_sanitizer_capture(file); });
  EXPECT_THAT(error, HasSubstr("max_count"));
  capture a;
  capture b;
  a.collector = b.collector = "sanitizer";
  a.reported_errors = detail::max_count;
  b.reported_errors = 1;
  const std::string sum = error_of([&] { (void)sum_over_ranks({&a, &b}); });
  EXPECT_THAT(sum, HasSubstr("error total"));
}

// Finding 16: a dur of 1e306 µs became +inf ns and passed `time_ms(k) > 1`.
TEST_F(scratch, ChromeTraceDurationsThatOverflowAreAnError) {
  const std::string event =
      R"({"ph":"X","cat":"kernel","name":"k","dur":1e306,"args":{"call_stack":["ROOT","k"]}})";
  const fs::path file = write("proton.chrome_trace", R"({"traceEvents":[)" + event + "]}");
  const std::string error = error_of([&] { (void)read_hatchet_capture(file); });
  EXPECT_THAT(error, HasSubstr("proton.chrome_trace: kernel 'k' time (ns): duration inf is not a "
                               "finite number"));
  const fs::path negative = write("n/proton.chrome_trace",
                                  R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k",)"
                                  R"("dur":-5}]})");
  EXPECT_THAT(error_of([&] { (void)read_hatchet_capture(negative); }),
              HasSubstr("not a finite non-negative number"));
}

// Finding 9: more than 200 k distinct call paths dropped every kernel, and the trial failed as an
// empty capture under a note saying the kernel totals were complete.
TEST_F(scratch, PastTheTreeLimitTheKernelTotalsAreKept) {
  std::string text = R"({"traceEvents":[)";
  constexpr int events = 200'100;
  for (int i = 0; i < events; ++i) {
    if (i != 0) text += ',';
    text += R"({"ph":"X","cat":"kernel","name":"k","dur":1,"args":{"call_stack":["ROOT","f)" +
            std::to_string(i) + R"(","k"]}})";
  }
  text += "]}";
  const capture c = read_hatchet_capture(write("proton.chrome_trace", text));
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].launches, static_cast<std::uint64_t>(events));
  EXPECT_TRUE(c.frames.empty());
  EXPECT_THAT(::testing::PrintToString(c.notes), HasSubstr("kernel totals are complete"));
}

// Finding 17: text metrics of frame "a/b" and of frames a > b had one name; one value was dropped.
TEST(HostileMetrics, TextMetricNamesThatCollideGiveNeitherValueAndANote) {
  capture c;
  c.collector = "proton";
  c.text_metrics.push_back({{"a/b"}, "tag", "first"});
  c.text_metrics.push_back({{"a", "b"}, "tag", "second"});
  c.text_metrics.push_back({{"c"}, "tag", "kept"});
  const metric_set m = compute_metrics(c);
  EXPECT_EQ(m.values.count("proton_text.a/b:tag"), 0u);
  EXPECT_EQ(m.values.count("proton_text.c:tag"), 1u);
  EXPECT_THAT(::testing::PrintToString(m.notes), HasSubstr("proton_text.a/b:tag is left out"));
}

// Finding 26: one metric per distinct error kind (10^6 kinds: 10^6 metrics).
TEST(HostileMetrics, ErrorKindsBeyondTheLimitAreSummedInOneMetric) {
  capture c;
  c.collector = "sanitizer";
  constexpr std::size_t kinds = finding_metric_kind_limit + 150;
  for (std::size_t i = 0; i < kinds; ++i)
    c.findings.push_back({"error", "Kind " + std::to_string(i), "", "", "", i + 1});
  c.reported_errors = 0;
  const metric_set m = compute_metrics(c);
  std::size_t per_kind = 0;
  for (const auto& [name, value] : m.values) per_kind += name.starts_with("sanitizer_errors.");
  EXPECT_EQ(per_kind, finding_metric_kind_limit);
  ASSERT_EQ(m.values.count("sanitizer_errors_in_other_kinds"), 1u);
  EXPECT_EQ(std::get<std::int64_t>(m.values.at("sanitizer_errors_in_other_kinds")),
            150 * 151 / 2);  // the 150 kinds with the fewest errors: 1 + 2 + ... + 150
  EXPECT_EQ(m.values.count("sanitizer_errors.kind_" + std::to_string(kinds - 1)), 1u);
}

// Finding 26 and the bounded input layer: a FIFO hung `view`; a directory or device is no input.
TEST_F(scratch, FifosDevicesAndDirectoriesAreRefusedAtOpen) {
  const fs::path fifo = m_dir / "proton.hatchet";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THAT(error_of([&] { (void)read_hatchet_capture(fifo); }), HasSubstr("a FIFO"));
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file(fifo); }), HasSubstr("a FIFO"));
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file("/dev/zero"); }),
              HasSubstr("a character device"));
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file(m_dir); }), HasSubstr("a directory"));
}

// Findings 3 and 4: a deeply nested baseline or result.json crashed baseline show and compare.
TEST_F(scratch, JsonFilesAreDepthAndCountCheckedBeforeAnyValueIsBuilt) {
  const fs::path deep = write("deep.json", std::string(1'000'000, '[') + std::string(1'000'000, ']'));
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file(deep); }),
              HasSubstr("nested deeper than 512"));
  std::string many = "[";
  for (std::size_t i = 0; i <= detail::max_json_values; ++i) many += i == 0 ? "0" : ",0";
  many += "]";
  const fs::path wide = write("wide.json", many);
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file(wide); }),
              HasSubstr("max_json_values"));
  const fs::path big = write("big.json", std::string(1025, ' ') + "1");
  EXPECT_THAT(error_of([&] { (void)detail::read_json_file(big, 1024); }),
              HasSubstr("max_json_file_bytes"));
}

TEST(CheckedSum, OverflowNegativeAndNonFiniteAreErrorsNamingTheField) {
  using namespace aorta::detail;
  EXPECT_EQ(add_count(1, 2, "f", "count"), 3u);
  EXPECT_THROW((void)add_count(max_count, 1, "f", "count"), capture_error);
  EXPECT_THROW((void)checked_count(max_count + 1, "f", "count"), capture_error);
  EXPECT_THROW((void)add_duration(1e308, 1e308, "f", "time"), capture_error);
  EXPECT_THROW((void)add_duration(0, -1, "f", "time"), capture_error);
  EXPECT_THROW((void)checked_duration(std::nan(""), "f", "time"), capture_error);
  const std::string message = [] {
    try {
      (void)add_count(max_count, 1, "file.csv", "kernel 'k' launch count");
    } catch (const capture_error& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_THAT(message, HasSubstr("file.csv: kernel 'k' launch count"));
}

}  // namespace
