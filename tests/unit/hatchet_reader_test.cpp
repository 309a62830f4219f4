// What the hatchet reader makes of well-formed trees: units, leaves, sums, counts, scopes,
// devices and the backend. Every expected value is worked out by hand from the input above it.
#include "aorta/error.hpp"
#include "captures/hatchet_reader.hpp"
#include "captures/hatchet_reader_detail.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace aorta {
namespace {

namespace fs = std::filesystem;

capture parse(const std::string& json, const hatchet_read_options& options = {}) {
  std::istringstream in(json);
  return detail::read_hatchet_stream(in, 1 << 20, options);
}

// A kernel leaf with the given metrics object body.
std::string leaf(const std::string& name, const std::string& metrics) {
  return R"j({"frame":{"name":")j" + name + R"j(","type":"function"},"metrics":{)j" + metrics +
         R"j(},"children":[]})j";
}

std::string interior(const std::string& name, const std::string& children,
                     const std::string& metrics = "") {
  return R"j({"frame":{"name":")j" + name + R"j("},"metrics":{)j" + metrics +
         R"j(},"children":[)j" + children + "]}";
}

std::string document(const std::string& children, const std::string& devices = "{}") {
  return "[" + interior("ROOT", children, R"j("time (ns)":0,"count":0)j") + "," + devices + "]";
}

const kernel_stat* find_kernel(const capture& c, const std::string& name) {
  for (const kernel_stat& k : c.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

bool has_note_containing(const capture& c, const std::string& text) {
  for (const std::string& n : c.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

TEST(hatchet_reader, scales_every_time_unit_to_ns_and_sorts_by_time) {
  const capture c = parse(document(leaf("k_ns", R"j("time (ns)":1500,"count":1)j") + "," +
                                   leaf("k_us", R"j("time (us)":2.5,"count":2)j") + "," +
                                   leaf("k_ms", R"j("time (ms)":0.004,"count":3)j") + "," +
                                   leaf("k_s", R"j("time (s)":0.000005,"count":4)j")));
  ASSERT_EQ(c.kernels.size(), 4U);
  EXPECT_EQ(c.kernels[0].name, "k_s");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 5000.0);
  EXPECT_EQ(c.kernels[0].launches, 4U);
  EXPECT_EQ(c.kernels[1].name, "k_ms");
  EXPECT_DOUBLE_EQ(c.kernels[1].total_ns, 4000.0);
  EXPECT_EQ(c.kernels[2].name, "k_us");
  EXPECT_DOUBLE_EQ(c.kernels[2].total_ns, 2500.0);
  EXPECT_EQ(c.kernels[3].name, "k_ns");
  EXPECT_DOUBLE_EQ(c.kernels[3].total_ns, 1500.0);
  EXPECT_EQ(c.collector, "proton");
}

TEST(hatchet_reader, equal_times_are_ordered_by_name) {
  const capture c = parse(document(leaf("zeta", R"j("time (ns)":10,"count":1)j") + "," +
                                   leaf("alpha", R"j("time (ns)":10,"count":1)j")));
  ASSERT_EQ(c.kernels.size(), 2U);
  EXPECT_EQ(c.kernels[0].name, "alpha");
  EXPECT_EQ(c.kernels[1].name, "zeta");
}

TEST(hatchet_reader, only_leaves_contribute_and_bare_root_is_empty) {
  // "outer" carries an inclusive 999 ns; only its leaf "inner" counts.
  const capture c = parse(document(interior(
      "outer", leaf("inner", R"j("time (ns)":400,"count":2)j"), R"j("time (ns)":999,"count":1)j")));
  ASSERT_EQ(c.kernels.size(), 1U);
  EXPECT_EQ(c.kernels[0].name, "inner");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 400.0);
  EXPECT_EQ(c.kernels[0].launches, 2U);

  const capture bare = parse(document(""));
  EXPECT_TRUE(bare.empty());
  EXPECT_EQ(bare.backend, "");
}

TEST(hatchet_reader, sums_same_name_leaves_across_the_tree) {
  const capture c = parse(document(
      interior("a.py:1@f", leaf("add", R"j("time (ns)":100,"count":1)j")) + "," +
      interior("b.py:2@g", interior("c.py:3@h", leaf("add", R"j("time (ns)":250,"count":2)j")))));
  ASSERT_EQ(c.kernels.size(), 1U);
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 350.0);
  EXPECT_EQ(c.kernels[0].launches, 3U);
}

TEST(hatchet_reader, ignores_cpu_time_and_inclusive_columns) {
  const capture c = parse(document(
      leaf("k", R"j("cpu_time (ns)":9000,"time (ns) (inc)":7000,"time (inc)":5,"time (ns)":300,)j"
                R"j("count":1)j") +
      "," + leaf("cpu_only", R"j("cpu_time (us)":5,"count":1)j")));
  ASSERT_EQ(c.kernels.size(), 1U);
  EXPECT_EQ(c.kernels[0].name, "k");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 300.0);
}

TEST(hatchet_reader, count_missing_fractional_or_negative_makes_launches_unknown) {
  const capture c = parse(document(leaf("no_count", R"j("time (ns)":10)j") + "," +
                                   leaf("fractional", R"j("time (ns)":20,"count":1.9)j") + "," +
                                   leaf("negative", R"j("time (ns)":30,"count":-1)j") + "," +
                                   leaf("three", R"j("time (ns)":40,"count":3.0)j") + "," +
                                   leaf("zero", R"j("time (ns)":50,"count":0)j") + "," +
                                   leaf("mixed", R"j("time (ns)":1,"count":2)j") + "," +
                                   leaf("mixed", R"j("time (ns)":1)j")));
  EXPECT_EQ(find_kernel(c, "no_count")->launches, std::nullopt);
  EXPECT_EQ(find_kernel(c, "fractional")->launches, std::nullopt);
  EXPECT_EQ(find_kernel(c, "negative")->launches, std::nullopt);
  EXPECT_EQ(find_kernel(c, "three")->launches, 3U);
  EXPECT_EQ(find_kernel(c, "zero")->launches, 0U);
  EXPECT_EQ(find_kernel(c, "mixed")->launches, std::nullopt);
  EXPECT_DOUBLE_EQ(find_kernel(c, "mixed")->total_ns, 2.0);
  EXPECT_TRUE(has_note_containing(c, "'fractional'"));
  EXPECT_TRUE(has_note_containing(c, "'no_count'"));
}

TEST(hatchet_reader, unusable_time_values_are_skipped_and_the_next_key_tried) {
  const capture c =
      parse(document(leaf("nan_string", R"j("time (ns)":"NaN","time (us)":2,"count":1)j") + "," +
                     leaf("null_time", R"j("time (ns)":null,"count":1)j") + "," +
                     leaf("negative", R"j("time (ns)":-5,"count":1)j") + "," +
                     leaf("overflow", R"j("time (s)":1e300,"time (ns)":1e300,"count":1)j") + "," +
                     leaf("inf_string", R"j("time (ns)":"inf","count":1)j") + "," +
                     leaf("numeric_string", R"j("time (ns)":"1500","count":"2")j")));
  EXPECT_DOUBLE_EQ(find_kernel(c, "nan_string")->total_ns, 2000.0);
  EXPECT_EQ(find_kernel(c, "null_time"), nullptr);
  EXPECT_EQ(find_kernel(c, "negative"), nullptr);
  EXPECT_EQ(find_kernel(c, "inf_string"), nullptr);
  // 1e300 s is 1e309 ns, past double's range; the ns key after it is finite.
  EXPECT_DOUBLE_EQ(find_kernel(c, "overflow")->total_ns, 1e300);
  EXPECT_DOUBLE_EQ(find_kernel(c, "numeric_string")->total_ns, 1500.0);
  EXPECT_EQ(find_kernel(c, "numeric_string")->launches, 2U);
  EXPECT_TRUE(has_note_containing(c, "time (ns) = \"NaN\""));
  EXPECT_TRUE(has_note_containing(c, "'negative'"));
  EXPECT_TRUE(has_note_containing(c, "'null_time'"));
}

// Counts become int64 metrics: 2^64-1 was kept and became kernel_count -1 (issue 18, finding 13).
TEST(hatchet_reader, huge_counts_beyond_int64_are_unknown) {
  const capture c = parse(document(
      leaf("big", R"j("time (ns)":1,"count":1e30)j") + "," +
      leaf("u64", R"j("time (ns)":2,"count":18446744073709551615)j") + "," +
      leaf("i64", R"j("time (ns)":3,"count":9223372036854775807)j")));
  EXPECT_EQ(find_kernel(c, "big")->launches, std::nullopt);
  EXPECT_EQ(find_kernel(c, "u64")->launches, std::nullopt);
  EXPECT_EQ(find_kernel(c, "i64")->launches, 9223372036854775807ULL);
}

TEST(hatchet_reader, instrumentation_seed_gives_scopes_devices_and_backend) {
  const capture c = read_hatchet_capture(fs::path(AORTA_FIXTURES_DIR) / "hatchet" /
                                         "instrumentation_seed.hatchet");
  EXPECT_TRUE(c.kernels.empty());
  ASSERT_EQ(c.scopes.size(), 2U);
  EXPECT_EQ(c.scopes[0].kernel, "unbalanced_kernel");
  EXPECT_EQ(c.scopes[0].scope, "cheap");
  EXPECT_DOUBLE_EQ(c.scopes[0].cycles, 152040.0);
  EXPECT_DOUBLE_EQ(c.scopes[0].normalized_cycles, 593.9);
  EXPECT_EQ(c.scopes[1].kernel, "unbalanced_kernel");
  EXPECT_EQ(c.scopes[1].scope, "expensive");
  EXPECT_DOUBLE_EQ(c.scopes[1].cycles, 8463028.0);
  EXPECT_DOUBLE_EQ(c.scopes[1].normalized_cycles, 33058.7);
  EXPECT_EQ(c.backend, "instrumentation");
  ASSERT_EQ(c.devices.size(), 1U);
  EXPECT_EQ(c.devices[0].type, "HIP");
  EXPECT_EQ(c.devices[0].id, "0");
  const std::map<std::string, std::string> props{{"arch", "gfx950"}, {"num_sms", "256"}};
  EXPECT_EQ(c.devices[0].properties, props);
  EXPECT_EQ(c.artifact_dir, fs::path(AORTA_FIXTURES_DIR) / "hatchet");
  ASSERT_EQ(c.files.size(), 1U);
}

TEST(hatchet_reader, same_scope_sums_and_scopes_under_root_have_no_kernel) {
  const std::string scope = R"j("cycles":10,"normalized_cycles":1.5)j";
  const capture c = parse(document(interior("k", leaf("s", scope)) + "," +
                                   interior("k", leaf("s", scope)) + "," + leaf("top", scope)));
  ASSERT_EQ(c.scopes.size(), 2U);
  EXPECT_EQ(c.scopes[0].kernel, "k");
  EXPECT_DOUBLE_EQ(c.scopes[0].cycles, 20.0);
  EXPECT_DOUBLE_EQ(c.scopes[0].normalized_cycles, 3.0);
  EXPECT_EQ(c.scopes[1].kernel, "");
  EXPECT_EQ(c.scopes[1].scope, "top");
}

TEST(hatchet_reader, device_table_keeps_every_property_as_text) {
  const capture c = parse(document(
      leaf("k", R"j("time (ns)":1,"count":1,"device_type":"CUDA","device_id":"0")j"),
      R"j({"CUDA":{"0":{"clock_rate":1980000,"memory_clock_rate":2619000,"bus_width":6144,)j"
      R"j("arch":"90","num_sms":132},"1":{"arch":"90"}}})j"));
  ASSERT_EQ(c.devices.size(), 2U);
  EXPECT_EQ(c.devices[0].type, "CUDA");
  EXPECT_EQ(c.devices[0].id, "0");
  const std::map<std::string, std::string> props{{"clock_rate", "1980000"},
                                                 {"memory_clock_rate", "2619000"},
                                                 {"bus_width", "6144"},
                                                 {"arch", "90"},
                                                 {"num_sms", "132"}};
  EXPECT_EQ(c.devices[0].properties, props);
  EXPECT_EQ(c.devices[1].id, "1");
  EXPECT_EQ(c.backend, "cupti");
}

// A device named again (a repeated key, here after 40 others made the index grow) is one
// device: its first values stay, a new property joins them, and it keeps its first place.
TEST(hatchet_reader, a_device_named_again_keeps_its_place_and_first_values) {
  std::string cuda = R"j("7":{"arch":"80"})j";
  for (int id = 100; id < 140; ++id) cuda += ",\"" + std::to_string(id) + R"j(":{"arch":"90"})j";
  cuda += R"j(,"7":{"arch":"70","num_sms":108})j";
  const capture c = parse(document(leaf("k", R"j("time (ns)":1,"count":1)j"),
                                   "{\"CUDA\":{" + cuda + R"j(},"HIP":{"7":{"arch":"gfx90a"}}})j"));
  ASSERT_EQ(c.devices.size(), 42U);
  EXPECT_EQ(c.devices[0].id, "7");
  const std::map<std::string, std::string> first{{"arch", "80"}, {"num_sms", "108"}};
  EXPECT_EQ(c.devices[0].properties, first);
  EXPECT_EQ(c.devices[40].id, "139");
  EXPECT_EQ(c.devices[41].type, "HIP");
  EXPECT_EQ(c.devices[41].properties.at("arch"), "gfx90a");
}

TEST(hatchet_reader, hip_backend_follows_request_then_triton_version) {
  const std::string hip = document(leaf("k", R"j("time (ns)":1,"count":1,"device_type":"HIP")j"));
  EXPECT_EQ(parse(hip).backend, "roctracer or rocprofiler (Triton version unknown)");
  EXPECT_EQ(parse(hip, {"auto", "3.8.0"}).backend, "rocprofiler");
  EXPECT_EQ(parse(hip, {"auto", "3.10.1+git"}).backend, "rocprofiler");
  EXPECT_EQ(parse(hip, {"auto", "3.7.1"}).backend, "roctracer");
  EXPECT_EQ(parse(hip, {"roctracer", "3.8.0"}).backend, "roctracer");
  EXPECT_EQ(parse(hip, {"rocprofiler", std::nullopt}).backend, "rocprofiler");
  // Kernels without device_type: the device table tells.
  const std::string untyped =
      document(leaf("k", R"j("time (ns)":1,"count":1)j"), R"j({"HIP":{"0":{"arch":"gfx942"}}})j");
  EXPECT_EQ(parse(untyped, {"auto", "3.7.0"}).backend, "roctracer");
}

class hatchet_dir_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("aorta_hatchet_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  void write(const fs::path& rel, const std::string& text) {
    fs::create_directories((m_dir / rel).parent_path());
    std::ofstream(m_dir / rel) << text;
  }
  fs::path m_dir;
};

TEST_F(hatchet_dir_test, sums_across_files_in_nested_directories) {
  write("b/c/proton.part_1.hatchet", document(leaf("add", R"j("time (ns)":50,"count":1)j") + "," +
                                              leaf("mul", R"j("time (ns)":70,"count":4)j")));
  write("a/proton.hatchet", document(leaf("add", R"j("time (ns)":100,"count":1)j")));
  write("a/readme.txt", "not json");
  write("a/proton.hatchet_msgpack", "\x93\x01");
  const capture c = read_hatchet_capture(m_dir);
  ASSERT_EQ(c.files.size(), 2U);
  EXPECT_EQ(c.files[0], m_dir / "a/proton.hatchet");
  EXPECT_EQ(c.files[1], m_dir / "b/c/proton.part_1.hatchet");
  ASSERT_EQ(c.kernels.size(), 2U);
  EXPECT_EQ(c.kernels[0].name, "add");
  EXPECT_DOUBLE_EQ(c.kernels[0].total_ns, 150.0);
  EXPECT_EQ(c.kernels[0].launches, 2U);
  EXPECT_EQ(c.kernels[1].name, "mul");
  EXPECT_EQ(c.kernels[1].launches, 4U);
  EXPECT_EQ(c.artifact_dir, m_dir);
}

// Reference guard 16: a capture is what the profiler wrote here, so a .hatchet that is a symlink
// (to a file the payload put elsewhere) is not read, even when it is the only one.
TEST_F(hatchet_dir_test, symlinked_hatchet_files_are_not_read) {
  write("elsewhere/real.hatchet", document(leaf("add", R"j("time (ns)":100,"count":1)j")));
  fs::create_directories(m_dir / "capture");
  fs::create_symlink(m_dir / "elsewhere/real.hatchet", m_dir / "capture/proton.hatchet");
  const capture c = read_hatchet_capture(m_dir / "capture");
  EXPECT_TRUE(c.files.empty());
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(has_note_containing(c, "no *.hatchet files under"));
}

TEST_F(hatchet_dir_test, missing_directory_is_an_empty_capture_with_a_note) {
  const capture c = read_hatchet_capture(m_dir / "nope");
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(c.files.empty());
  EXPECT_EQ(c.artifact_dir, m_dir / "nope");
  EXPECT_TRUE(has_note_containing(c, "no such directory"));
}

TEST_F(hatchet_dir_test, a_malformed_file_names_itself_and_the_line) {
  write("bad.hatchet", "[\n  {\n    \"frame\" {}");
  try {
    static_cast<void>(read_hatchet_capture(m_dir));
    FAIL() << "expected capture_error";
  } catch (const capture_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((m_dir / "bad.hatchet").string()), std::string::npos) << what;
    EXPECT_NE(what.find("byte 18 (line 3)"), std::string::npos) << what;
    EXPECT_NE(what.find("expected ':'"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace aorta
