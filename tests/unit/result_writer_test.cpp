// The streaming result writer (record/result_writer.hpp) prints the very bytes of
// document_text(to_json(record)) (issue 21): records generated here, with the awkward values a
// profile can hold, are written both ways and compared byte for byte.
#include "aorta/metrics.hpp"
#include "aorta/trial_record.hpp"
#include "json_document.hpp"
#include "record/result_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace {

using aorta::kernel_row;
using aorta::trial_record;

// "" when the streamed text equals the DOM's; otherwise where they part, with a little of each,
// so a failure on a megabyte document names the place instead of printing both documents.
std::string difference(const trial_record& record) {
  const std::string streamed = aorta::detail::result_document_text(record);
  const std::string dom = aorta::detail::document_text(aorta::to_json(record));
  if (streamed == dom) return "";
  std::size_t at = 0;
  while (at < streamed.size() && at < dom.size() && streamed[at] == dom[at]) ++at;
  const std::size_t from = at < 40 ? 0 : at - 40;
  return "byte " + std::to_string(at) + " of " + std::to_string(dom.size()) + ": streamed [" +
         streamed.substr(from, 80) + "] dom [" + dom.substr(from, 80) + "]";
}

// Names a profiler could report: quotes, backslashes, control bytes, UTF-8, bytes that are not
// UTF-8 (written as U+FFFD), a line break, the layout's own `": ` and `,\n`.
const std::vector<std::string>& awkward_names() {
  static const std::vector<std::string> names = {
      "gemm_kernel",
      "void at::native::elementwise<\"quoted\">(float*, int)",
      "back\\slash\\",
      "ctl\x01\x1f\x7f tab\t nl\n cr\r",
      "\xc3\xa9t\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x9a\x80",
      "bad \xff\xfe utf8 \xc3",
      "looks like \": [\n    {\n\",\n  \"kernels\": []",
      "",
  };
  return names;
}

trial_record generated_record(std::size_t kernel_count, unsigned seed) {
  std::mt19937 random(seed);
  trial_record record;
  record.aorta_version = "0.0.0-test";
  record.recipe_path = "recipes/\"odd\".yaml";
  record.ticket = "T-21";
  record.trial_index = 3;
  record.command = {"python", "-c", "print(\"\\n\")"};
  record.argv = {"rocprofv3", "--kernel-trace", "--", "python"};
  record.env_set = {{"HIP_VISIBLE_DEVICES", "0"}, {"Z\x01", "\xff"}};
  record.env_unset = {"CUDA_VISIBLE_DEVICES"};
  record.working_directory = "/tmp/w d";
  record.exit_status = 0;
  record.wall_seconds = 1.0 / 3.0;
  record.collectors = {"rocprof"};
  record.metrics.values = {{"count", std::int64_t{-7}},
                           {"big", std::numeric_limits<std::int64_t>::max()},
                           {"time_ms", 0.1 + 0.2},
                           {"tiny", 5e-324},
                           {"nan", std::numeric_limits<double>::quiet_NaN()},
                           {"inf", -std::numeric_limits<double>::infinity()},
                           {"top", std::string("k\"\\")},
                           {"names", std::vector<std::string>{"a", "\xe2\x82\xac"}},
                           {"none", std::vector<std::string>{}}};
  record.metrics.notes = {"a note"};
  std::uniform_real_distribution<double> milliseconds(0.0, 1e6);
  const auto& names = awkward_names();
  for (std::size_t i = 0; i < kernel_count; ++i) {
    kernel_row row;
    row.name = names[i % names.size()] + std::to_string(i);
    if (i % 5 != 1) row.launches = static_cast<std::uint64_t>(random()) * (i % 3 == 0 ? 1u << 31 : 1u);
    row.total_ms = milliseconds(random);
    if (i % 11 == 4) row.total_ms = std::numeric_limits<double>::quiet_NaN();
    if (i % 13 == 6) row.total_ms = std::numeric_limits<double>::infinity();
    if (i % 17 == 8) row.total_ms = 1e300;
    if (i % 19 == 9) row.total_ms = -0.0;
    row.collector = i % 2 == 0 ? "rocprof" : "proton";
    record.metrics.kernels.push_back(std::move(row));
  }
  record.checks.push_back({"launches(\"gemm\") == 20", false, "== 20", "18", "line 1\nline 2"});
  record.verdict = aorta::verdict::fail;
  record.reason = "1 of 1 checks failed";
  record.versions = {{"rocprofv3", "1.0"}};
  record.started_at = "2026-12-02T08:00:00Z";
  return record;
}

TEST(ResultWriter, ManyKernelsWithAwkwardValuesMatchTheDomByteForByte) {
  const auto record = generated_record(5000, 21);
  EXPECT_EQ(difference(record), "");
}

TEST(ResultWriter, EmptyRecordMatchesTheDom) {
  const trial_record record;
  EXPECT_EQ(difference(record), "");
}

TEST(ResultWriter, OneKernelNoChecksMatchesTheDom) {
  auto record = generated_record(1, 7);
  record.checks.clear();
  record.metrics.values.clear();
  EXPECT_EQ(difference(record), "");
}

TEST(ResultWriter, RanksCellAndGateVerdictMatchTheDom) {
  auto record = generated_record(40, 3);
  // Rank 0 with a card and its own series (the per-rank gate's), rank 1 without.
  aorta::rank_row first{0, "node-\"a\"", "rocprof", 12, 1.5, 0, "gemm\n", false, {}, {}, {}, {}};
  first.card = "GPU-1";
  first.card_source = "the host's only GPU";
  first.metrics["rocprof_gpu_time_ms"] = 1.5;
  first.kernels["gemm\n"] = {12, 1.5};
  record.ranks = {first,
                  {1, "node-b", "callgrind", std::nullopt, 0.0, 99, "", true, {}, {}, {}, {}}};
  record.cell = aorta::cell_coordinates{"fast \"path\"", 2, 1, {"none"}, "none"};
  record.verdict_from_gate = true;
  record.signal = 9;
  record.interrupted_by = 2;
  record.escaped_processes = {"pid 4242: sleep 300"};
  EXPECT_EQ(difference(record), "");
}

// `aorta check --json` defers a capture's kernel rows and writes them from its kernels: the bytes
// are those of the record holding the rows compute_metrics makes, after the record's own rows.
TEST(ResultWriter, RowsWrittenFromCapturesMatchTheRecordHoldingThem) {
  const auto record = generated_record(30, 11);
  std::vector<aorta::capture> captures(2);
  captures[0].collector = "rocprof";
  captures[1].collector = "proton \"x\"";
  const auto& names = awkward_names();
  for (std::size_t i = 0; i < 40; ++i) {
    aorta::kernel_stat kernel;
    kernel.name = names[i % names.size()] + std::to_string(i);
    if (i % 4 != 1) kernel.launches = i * 3;
    kernel.total_ns = static_cast<double>((i * 7919) % 13) * 2.5e5;  // out of order, with ties
    captures[i % 2].kernels.push_back(kernel);
  }
  auto holding = record;
  for (const auto& source : captures) {
    const auto rows = aorta::compute_metrics(source).kernels;
    holding.metrics.kernels.insert(holding.metrics.kernels.end(), rows.begin(), rows.end());
  }
  std::ostringstream streamed;
  aorta::detail::write_result_document(streamed, record, captures);
  EXPECT_EQ(streamed.str(), aorta::detail::result_document_text(holding));

  const trial_record bare;
  std::ostringstream no_rows;
  aorta::detail::write_result_document(no_rows, bare, {aorta::capture{}});
  EXPECT_EQ(no_rows.str(), aorta::detail::result_document_text(bare));
}

TEST(ResultWriter, WrittenResultJsonReadsBackWithEveryKernel) {
  const auto record = generated_record(300, 5);
  const auto read_back =
      aorta::trial_record_from_json(nlohmann::json::parse(aorta::detail::result_document_text(record)));
  ASSERT_EQ(read_back.metrics.kernels.size(), record.metrics.kernels.size());
  EXPECT_EQ(read_back.metrics.kernels[299].collector, record.metrics.kernels[299].collector);
}

// result.json is streamed into the atomic write's temporary file: its bytes must be the
// document's text, here of 5,000 kernels (about 1.5 MB, many times the write buffer).
TEST(ResultWriter, StreamedResultJsonFileHoldsTheDocumentText) {
  const auto record = generated_record(5000, 9);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("aorta-result-writer-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  aorta::write_result_json(dir / "result.json", record);
  std::ifstream in(dir / "result.json", std::ios::binary);
  const std::string written{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(written, aorta::detail::result_document_text(record));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  std::filesystem::remove_all(dir);
}

}  // namespace
