// Issue 21, item 1: the call tree above the kernels is built only when a check reads it. The
// inputs are the real H200 scoped captures (tests/fixtures/h200-scoped/README.md) and documents
// written here in Proton's published shapes: the hatchet tree (Triton's proton TreeData.cpp) and
// the chrome trace (TraceData.cpp), with one call path per launch as a Python call-path profile
// writes them.
#include "aorta/check.hpp"
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "checked_sum.hpp"
#include "captures/compact_index.hpp"
#include "captures/frame_tree.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/name_table.hpp"
#include "collectors/capture_reading.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace aorta;

namespace {

namespace fs = std::filesystem;

const fs::path scoped = fs::path(AORTA_FIXTURES_DIR) / "h200-scoped";

class scratch : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_frame_tree_need_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

// `leaves` kernel leaves under ROOT, each below its own chain of `depth` frames; kernel i % 97,
// times with fractions so a changed summation order would show in the last bits. Written a leaf
// at a time so that making the file does not raise the test's own peak memory.
void write_call_path_tree(const fs::path& file, std::size_t leaves, std::size_t depth) {
  std::ofstream out(file, std::ios::binary);
  out << R"j([{"frame":{"name":"ROOT","type":"function"},"metrics":{},"children":[)j";
  for (std::size_t i = 0; i < leaves; ++i) {
    if (i != 0) out << ',';
    for (std::size_t d = 0; d < depth; ++d)
      out << R"j({"frame":{"name":"model.py:)j" << (i * 31 + d * 7) % 100'003 << "@forward_" << d
          << R"j(","type":"function"},"metrics":{},"children":[)j";
    out << R"j({"frame":{"name":"kernel_)j" << i % 97
        << R"j(","type":"function"},"metrics":{"count":)j" << 1 + i % 5 << R"j(,"time (ns)":)j"
        << 1000 + i % 777 << ".125"
        << R"j(,"device_type":"1","device_id":"0"},"children":[]})j";
    for (std::size_t d = 0; d < depth; ++d) out << "]}";
  }
  out << R"j(]},{"CUDA":{"0":{"arch":"90","num_sms":132}}}])j";
}

void write_call_path_trace(const fs::path& file, std::size_t events) {
  std::ofstream out(file, std::ios::binary);
  out << R"j({"displayTimeUnit":"ns","traceEvents":[)j";
  for (std::size_t i = 0; i < events; ++i) {
    if (i != 0) out << ',';
    out << R"j({"args":{"call_stack":["ROOT","layer_)j" << i % 13 << R"j(",")j"
        << (i % 2 == 0 ? "prefill" : "decode") << R"j(","kernel_)j" << i % 41
        << R"j("]},"cat":"kernel","dur":)j" << 1 + i % 300 << R"j(.25,"name":"kernel_)j" << i % 41
        << R"j(","ph":"X","tid":7,"ts":)j" << i * 400 << '}';
  }
  out << "]}";
}

capture read(const fs::path& path, bool keep_frame_tree) {
  hatchet_read_options options;
  options.keep_frame_tree = keep_frame_tree;
  return read_hatchet_capture(path, options);
}

// Everything but the tree is what it was with the tree: the same kernels in the same order,
// with times equal to the last bit.
void expect_same_totals(const capture& without, const capture& with) {
  ASSERT_EQ(without.kernels.size(), with.kernels.size());
  for (std::size_t i = 0; i < with.kernels.size(); ++i) {
    EXPECT_EQ(without.kernels[i].name, with.kernels[i].name);
    EXPECT_EQ(without.kernels[i].launches, with.kernels[i].launches);
    EXPECT_EQ(without.kernels[i].total_ns, with.kernels[i].total_ns) << with.kernels[i].name;
  }
  EXPECT_EQ(without.devices.size(), with.devices.size());
  EXPECT_EQ(without.backend, with.backend);
  EXPECT_EQ(without.files, with.files);
}

TEST_F(scratch, WithoutTheTreeTheTotalsAreUnchangedAndNoFrameIsKept) {
  const fs::path tree = m_dir / "tree" / "proton.hatchet";
  const fs::path trace = m_dir / "trace" / "proton.chrome_trace";
  fs::create_directories(tree.parent_path());
  fs::create_directories(trace.parent_path());
  write_call_path_tree(tree, 3000, 6);
  write_call_path_trace(trace, 3000);
  for (const fs::path& file : {tree, trace, scoped / "tree", scoped / "trace"}) {
    const capture with = read(file, true);
    const capture without = read(file, false);
    EXPECT_FALSE(with.frames.empty()) << file;
    EXPECT_FALSE(with.placements.empty()) << file;
    EXPECT_TRUE(without.frames.empty()) << file;
    EXPECT_TRUE(without.placements.empty()) << file;
    expect_same_totals(without, with);
  }
}

TEST(FramesNeeded, OnlyScopeAddressedChecksNeedTheTree) {
  const auto need = [](const std::vector<std::string>& texts) {
    std::vector<check_expression> checks;
    for (const auto& text : texts) checks.push_back(check_expression::parse(text));
    return detail::checks_need_frames(checks);
  };
  EXPECT_FALSE(need({}));
  EXPECT_FALSE(need({"count(^gemm$) == 10", "time_ms(.) < 5", "proton_kernel_count >= 1",
                     "cycles(load) > 0", "top_kernel ~ gemm", "max_over_ranks(count(k)) < 3",
                     "time_ms(gemm) <= baseline + 5%"}));
  EXPECT_TRUE(need({"count(^gemm$) == 10", "count(under(prefill)) == 10"}));
  EXPECT_TRUE(need({"time_ms(gemm) / time_ms(under(decode), gemm) < 1"}));
  EXPECT_TRUE(need({"top_kernel(under(decode)) ~ gemm"}));
  EXPECT_TRUE(need({"imbalance(time_ms(under(decode))) < 1.2"}));
}

capture read_through_collector(const fs::path& output, bool frames_needed) {
  collector_request request;
  request.name = "proton";
  request.config = config_of(request);
  auto reading = detail::read_one_capture(request, output, {}, frames_needed);
  if (!reading || !reading->got) throw std::runtime_error("unreadable: " + output.string());
  return std::move(*reading->got);
}

TEST(FramesNeeded, AScopeCheckStillWorksWhenItsTreeIsAskedFor) {
  const check_expression prefill = check_expression::parse("count(under(^prefill$)) == 10");
  for (const char* kind : {"tree", "trace"}) {
    const bool needed = detail::checks_need_frames({prefill});
    ASSERT_TRUE(needed);
    const std::vector<capture> captures{read_through_collector(scoped / kind, needed)};
    const check_result result = evaluate_check(prefill, captures, {});
    EXPECT_TRUE(result.passed) << kind << ": " << result.message;
    // The flag is what carries it: read without the tree, the same check cannot be measured.
    const std::vector<capture> bare{read_through_collector(scoped / kind, false)};
    const check_result unmeasured = evaluate_check(prefill, bare, {});
    EXPECT_FALSE(unmeasured.passed);
    EXPECT_NE(unmeasured.message.find("does not record where kernels ran"), std::string::npos)
        << unmeasured.message;
  }
}

// The kept tree's two tables, past several of their growths: every name and pair once, found
// again after the tables moved.
TEST(FrameTreeTables, NamesAndPairsAreFoundAgainAfterGrowing) {
  detail::name_table names;
  detail::compact_index index;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const auto pair_hash = [](std::uint32_t high, std::uint32_t low) {
    return static_cast<std::uint32_t>(
        (((std::uint64_t{high} << 32U) | low) * 0x9E3779B97F4A7C15ULL) >> 32U);
  };
  const auto find_or_add = [&](std::uint32_t high, std::uint32_t low, bool& added) {
    const std::uint32_t hash = pair_hash(high, low);
    index.make_room(pairs.size());
    const auto at =
        index.find(hash, [&](std::uint32_t id) { return pairs[id] == std::make_pair(high, low); });
    added = !at.found;
    if (at.found) return at.id;
    const auto id = static_cast<std::uint32_t>(pairs.size());
    pairs.emplace_back(high, low);
    index.insert(at, hash, id);
    return id;
  };
  constexpr std::uint32_t count = 50'000;
  for (std::uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(names.intern("frame_" + std::to_string(i)), i);
    bool added = false;
    EXPECT_EQ(find_or_add(i % 7, i, added), i);
    EXPECT_TRUE(added);
  }
  EXPECT_EQ(names.size(), count);
  for (std::uint32_t i = 0; i < count; i += 997) {
    EXPECT_EQ(names.intern("frame_" + std::to_string(i)), i);
    EXPECT_EQ(names.name(i), "frame_" + std::to_string(i));
    bool added = true;
    EXPECT_EQ(find_or_add(i % 7, i, added), i);
    EXPECT_FALSE(added);
  }
  bool added = false;
  EXPECT_EQ(find_or_add(1, 0, added), count);  // (0 % 7, 0) is taken, (1, 0) is not
  EXPECT_TRUE(added);
  EXPECT_EQ(names.intern(""), count);
  EXPECT_EQ(names.name(count), "");
}

// A name's offset is 32 bits, so a table holds at most name_table::max_bytes of names; a limit
// of 10 bytes here stands for it. Up to the limit every name is added, past it a new name gets
// `full` and is not stored, and a known name is still found.
TEST(FrameTreeTables, NamesStopAtTheTablesByteLimit) {
  detail::name_table names(10);
  EXPECT_EQ(names.intern("abcdef"), 0U);
  EXPECT_EQ(names.intern("ghij"), 1U);
  EXPECT_EQ(names.intern("k"), detail::name_table::full);
  EXPECT_EQ(names.intern(""), 2U);  // an empty name still fits
  EXPECT_EQ(names.intern("abcdef"), 0U);
  EXPECT_EQ(names.find("ghij"), 1U);
  EXPECT_FALSE(names.find("k").has_value());
  EXPECT_EQ(names.size(), 3U);
  EXPECT_EQ(names.name(1), "ghij");
}

// Past the names' byte limit a new kernel name is a capture error naming the source (a total
// over some kernels would make checks on the rest vacuous); known names still sum.
TEST(FrameTreeTables, KernelNamesPastTheByteLimitAreAnErrorNamingTheSource) {
  detail::frame_tree_builder tree(detail::frame_tree_mode::totals_only, 10);
  tree.set_source("src.json");
  tree.add_kernel(context_frame::no_parent, "abcdef", 1, 1.0);
  tree.add_kernel(context_frame::no_parent, "ghij", 1, 2.0);
  try {
    tree.add_kernel(context_frame::no_parent, "k", 1, 1.0);
    FAIL() << "no error past the names' byte limit";
  } catch (const capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("src.json: the distinct kernel names total more than 10 "
                                         "bytes"),
              std::string::npos)
        << e.what();
  }
  tree.add_kernel(context_frame::no_parent, "abcdef", 1, 5.0);
  capture out;
  tree.take_kernels(out);
  ASSERT_EQ(out.kernels.size(), 2U);
  EXPECT_EQ(out.kernels[0].name, "abcdef");
  EXPECT_EQ(out.kernels[0].launches, 2U);
}

// Past the byte limit of frame names the call tree is dropped, as past its entries, with a note
// that says so; the kernel totals stay complete.
TEST(FrameTreeTables, FrameNamesPastTheByteLimitDropTheTree) {
  detail::frame_tree_builder tree(detail::frame_tree_mode::kept, 10);
  const std::size_t top = tree.child(context_frame::no_parent, "abcdef");
  const std::size_t inner = tree.child(top, "ghij");
  ASSERT_NE(inner, context_frame::no_parent);
  tree.add_kernel(inner, "kernel", 1, 1.0);
  EXPECT_EQ(tree.child(inner, "abcdef"), inner + 1);  // a known name costs no bytes
  EXPECT_FALSE(tree.dropped());
  EXPECT_EQ(tree.child(inner, "x"), context_frame::no_parent);
  EXPECT_TRUE(tree.dropped());
  tree.add_kernel(context_frame::no_parent, "kernel", 2, 3.0);
  capture out;
  tree.take_kernels(out);
  tree.finish(out);
  EXPECT_TRUE(out.frames.empty());
  ASSERT_EQ(out.kernels.size(), 1U);
  EXPECT_EQ(out.kernels[0].launches, 3U);
  ASSERT_EQ(out.notes.size(), 1U);
  EXPECT_NE(out.notes[0].find("or its frame names more than 10 bytes; it was not kept"),
            std::string::npos)
      << out.notes[0];
}

// The kernels are interned names while reading: the bound on distinct names still holds at
// exactly max_distinct_kernels, a known name is still summed there, and the totals come out
// hottest first under their own names.
TEST(FrameTreeTables, DistinctKernelNamesStopAtTheirBound) {
  detail::frame_tree_builder tree(detail::frame_tree_mode::totals_only);
  tree.set_source("src.json");
  for (std::size_t i = 0; i < detail::max_distinct_kernels; ++i)
    tree.add_kernel(context_frame::no_parent, "k" + std::to_string(i), 1, 1.0);
  tree.add_kernel(context_frame::no_parent, "k7", 2, 5.0);
  try {
    tree.add_kernel(context_frame::no_parent, "one_more", 1, 1.0);
    FAIL() << "no error past max_distinct_kernels";
  } catch (const capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("src.json: more than 1000000 distinct kernel names"),
              std::string::npos)
        << e.what();
  }
  // Refused, not stored: it is refused again, and the known names still sum.
  EXPECT_THROW(tree.add_kernel(context_frame::no_parent, "one_more", 1, 1.0), capture_error);
  tree.add_kernel(context_frame::no_parent, "k7", 1, 1.0);
  capture out;
  tree.take_kernels(out);
  ASSERT_EQ(out.kernels.size(), detail::max_distinct_kernels);
  EXPECT_EQ(out.kernels[0].name, "k7");
  EXPECT_EQ(out.kernels[0].launches, 4U);
  EXPECT_EQ(out.kernels[0].total_ns, 7.0);
  EXPECT_EQ(out.kernels[1].name, "k0");
}

// The kernel totals hold "unknown" inside the count (16 bytes a kernel): an unknown count stays
// unknown whatever is added after, known counts sum up to max_count and are refused past it.
TEST(FrameTreeTables, KernelTotalsKeepAnUnknownCountAndTheCountBound) {
  detail::frame_tree_builder tree(detail::frame_tree_mode::totals_only);
  tree.set_source("src.json");
  tree.add_kernel(context_frame::no_parent, "unknown", 3, 1.0);
  tree.add_kernel(context_frame::no_parent, "unknown", std::nullopt, 2.0);
  tree.add_kernel(context_frame::no_parent, "unknown", 4, 3.0);
  tree.add_kernel(context_frame::no_parent, "full", detail::max_count - 1, 0.5);
  tree.add_kernel(context_frame::no_parent, "full", 1, 0.5);
  EXPECT_THROW(tree.add_kernel(context_frame::no_parent, "full", 1, 0.5), capture_error);
  capture out;
  tree.take_kernels(out);
  ASSERT_EQ(out.kernels.size(), 2U);
  EXPECT_EQ(out.kernels[0].name, "unknown");
  EXPECT_FALSE(out.kernels[0].launches.has_value());
  EXPECT_EQ(out.kernels[0].total_ns, 6.0);
  EXPECT_EQ(out.kernels[1].name, "full");
  EXPECT_EQ(out.kernels[1].launches, detail::max_count);
}

// A reader that knows its names up front reserves them: the same ids and names come back, and
// interning past the reservation still grows the table.
TEST(FrameTreeTables, ReservedNamesGetTheSameIdsAndStillGrow) {
  detail::name_table reserved;
  detail::name_table plain;
  reserved.reserve(3'000, 3'000 * 10);
  for (std::uint32_t i = 0; i < 5'000; ++i) {
    const std::string name = "kernel_" + std::to_string(i);
    EXPECT_EQ(reserved.intern(name), plain.intern(name));
  }
  reserved.reserve(0, 0);
  for (std::uint32_t i = 0; i < 5'000; i += 499) {
    EXPECT_EQ(reserved.intern("kernel_" + std::to_string(i)), i);
    EXPECT_EQ(reserved.name(i), plain.name(i));
  }
  EXPECT_EQ(reserved.size(), 5'000U);
  EXPECT_EQ(reserved.find("kernel_4321"), 4321U);
  EXPECT_FALSE(reserved.find("kernel_5000").has_value());
  EXPECT_FALSE(detail::name_table{}.find("").has_value());
  EXPECT_EQ(reserved.size(), 5'000U);
}

// A table whose index was released (a reader done interning) still interns and finds by name:
// the index comes back, a known name keeps its id and a new one gets the next.
TEST(FrameTreeTables, ReleasedIndexComesBackOnTheNextLookUp) {
  detail::name_table names;
  for (std::uint32_t i = 0; i < 3'000; ++i) names.intern("kernel_" + std::to_string(i));
  names.release_index();
  EXPECT_EQ(names.name(1234), "kernel_1234");
  EXPECT_EQ(names.intern("kernel_1234"), 1234U);
  EXPECT_EQ(names.intern("new"), 3'000U);
  names.release_index();
  EXPECT_EQ(names.find("kernel_2999"), 2'999U);
  EXPECT_FALSE(names.find("absent").has_value());
  EXPECT_EQ(names.intern("new"), 3'000U);
  EXPECT_EQ(names.size(), 3'001U);
}

// Names first, totals after (the rocpd reader): end_naming makes the totals; a kernel summed by
// index, by its name again and a new name all come out under their own names.
TEST(FrameTreeTables, KernelsNamedFirstAreSummedAfterEndNaming) {
  detail::frame_tree_builder tree(detail::frame_tree_mode::totals_only);
  const std::uint32_t a = tree.intern_kernel("a");
  const std::uint32_t b = tree.intern_kernel("b");
  EXPECT_EQ(tree.intern_kernel("a"), a);
  tree.end_naming();
  tree.add_kernel(context_frame::no_parent, b, 2, 5.0);
  tree.add_kernel(context_frame::no_parent, "a", 1, 1.0);
  tree.add_kernel(context_frame::no_parent, "c", 1, 2.0);
  tree.add_kernel(context_frame::no_parent, a, 3, 0.5);
  capture out;
  tree.take_kernels(out);
  ASSERT_EQ(out.kernels.size(), 3U);
  EXPECT_EQ(out.kernels[0].name, "b");
  EXPECT_EQ(out.kernels[0].launches, 2U);
  EXPECT_EQ(out.kernels[1].name, "c");
  EXPECT_EQ(out.kernels[2].name, "a");
  EXPECT_EQ(out.kernels[2].launches, 4U);
  EXPECT_EQ(out.kernels[2].total_ns, 1.5);
}

long peak_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// The issue's measurement: a 386 MB call-path tree read for a plain check took 69 MB, all of it
// the tree nobody read. 60,000 unique 20-frame paths (~30 MB) built 200,000 tree entries before
// the tree was dropped; without the tree the reader's memory is its buffer and the totals.
TEST_F(scratch, WithoutTheTreeMemoryStaysFlat) {
  const fs::path file = m_dir / "proton.hatchet";
  write_call_path_tree(file, 60'000, 20);
  ASSERT_GT(fs::file_size(file), 20'000'000u);
  const long before = peak_rss_kib();
  const capture c = read_through_collector(m_dir, false);
  EXPECT_EQ(c.kernels.size(), 97u);
  EXPECT_TRUE(c.frames.empty());
  EXPECT_LT(peak_rss_kib() - before, 8L * 1024) << "KiB more at peak";
}

}  // namespace
