// The nvbench JSON reader on hostile input: damaged or foreign files, values of the wrong type,
// sign or size, files and documents past the bounded input layer's limits. Each is a
// capture_error naming the file (and the benchmark, state and key where there is one).
#include "aorta/error.hpp"
#include "captures/nvbench_reader.hpp"
#include "json_text.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path shipped =
    fs::path(AORTA_FIXTURES_DIR) / "nvbench" / "cuda-bench-0.3.0-test_ref.json";

class scratch_file {
public:
  explicit scratch_file(const std::string& text)
      : m_path(fs::temp_directory_path() / ("aorta-nvbench-hostile-" +
                                            std::to_string(::getpid()) + "-" +
                                            std::to_string(++count) + ".json")) {
    std::ofstream(m_path, std::ios::binary) << text;
  }
  ~scratch_file() { fs::remove(m_path); }
  scratch_file(const scratch_file&) = delete;
  scratch_file& operator=(const scratch_file&) = delete;
  [[nodiscard]] const fs::path& path() const { return m_path; }

private:
  static inline int count = 0;
  fs::path m_path;
};

// The message of the capture_error reading `text` throws, or "" when it reads; the file's name is
// in every message.
std::string read_error(const std::string& text) {
  const scratch_file file(text);
  try {
    (void)aorta::read_nvbench_capture(file.path());
  } catch (const aorta::capture_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.path().string()), std::string::npos) << message;
    return message;
  }
  return "";
}

json shipped_doc() {
  std::ifstream in(shipped);
  return json::parse(in);
}

// The shipped file with the first state's summary `tag` given data entry `entry`.
std::string with_summary(const std::string& tag, const json& entry) {
  json doc = shipped_doc();
  for (auto& s : doc["benchmarks"][0]["states"][0]["summaries"]) {
    if (s["tag"] == tag) s["data"][0] = entry;
  }
  return doc.dump();
}

json value_of(const std::string& type, const json& value) {
  return {{"name", "value"}, {"type", type}, {"value", value}};
}

TEST(nvbench_hostile, another_tool_or_another_format_version_is_refused) {
  EXPECT_NE(read_error(R"({"traceEvents": []})").find("is not nvbench JSON"), std::string::npos);
  EXPECT_NE(read_error("[1, 2]").find("is not nvbench JSON"), std::string::npos);
  json gbench = {{"context", {{"num_cpus", 2}}}, {"benchmarks", json::array()}};
  EXPECT_NE(read_error(gbench.dump()).find("\"meta\" object"), std::string::npos);
  json newer = shipped_doc();
  newer["meta"]["version"]["json"]["major"] = 2;
  EXPECT_NE(read_error(newer.dump()).find("meta.version.json.major is 2"), std::string::npos);
  json unversioned = shipped_doc();
  unversioned["meta"].erase("version");
  EXPECT_NE(read_error(unversioned.dump()).find("meta.version.json.major is missing"),
            std::string::npos);
  json minor = shipped_doc();
  minor["meta"]["version"]["json"]["minor"] = 7;
  EXPECT_EQ(read_error(minor.dump()), "");
}

TEST(nvbench_hostile, wrong_values_name_the_state_and_the_summary) {
  const std::string gpu = "nv/cold/time/gpu/mean";
  EXPECT_NE(read_error(with_summary(gpu, value_of("float64", "-1"))).find("'simple/Device:0'"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary(gpu, value_of("float64", "fast"))).find("not a finite float64"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary(gpu, value_of("float64", "nan"))).find("not a finite"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary(gpu, value_of("float64", "1e308"))).find("overflows"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary(gpu, value_of("float64", 0.001))).find("\"value\""),
            std::string::npos);
  EXPECT_NE(read_error(with_summary(gpu, value_of("complex", "1"))).find("data type 'complex'"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary("nv/cold/sample_size", value_of("int64", "1.5")))
                .find("not a finite int64"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary("nv/cold/sample_size",
                                    value_of("int64", "99999999999999999999")))
                .find("not a finite int64"),
            std::string::npos);
  EXPECT_NE(read_error(with_summary("nv/cold/sample_size", value_of("int64", "-3")))
                .find("negative"),
            std::string::npos);
}

TEST(nvbench_hostile, damaged_structure_names_the_key) {
  json doc = shipped_doc();
  doc["benchmarks"][0]["states"][0].erase("is_skipped");
  EXPECT_NE(read_error(doc.dump()).find("\"is_skipped\""), std::string::npos);
  doc = shipped_doc();
  doc["benchmarks"][1]["name"] = 7;
  EXPECT_NE(read_error(doc.dump()).find("benchmarks[1] has no \"name\""), std::string::npos);
  doc = shipped_doc();
  doc["benchmarks"][0]["states"] = "none";
  EXPECT_NE(read_error(doc.dump()).find("\"states\""), std::string::npos);
  doc = shipped_doc();
  doc["benchmarks"][2]["states"][0]["axis_values"][0]["value"] = 64;
  EXPECT_NE(read_error(doc.dump()).find("axis_values[]: \"value\""), std::string::npos);
  doc = shipped_doc();
  doc["benchmarks"][0]["states"][0]["summaries"] = {{{"tag", "x"}, {"data", 1}}};
  EXPECT_NE(read_error(doc.dump()).find("summary 'x': \"data\""), std::string::npos);
  doc = shipped_doc();
  doc["benchmarks"][0]["states"][0] = 5;
  EXPECT_NE(read_error(doc.dump()).find("states[0]: is number"), std::string::npos);
}

TEST(nvbench_hostile, input_past_the_bounded_layer_is_refused_before_it_is_built) {
  EXPECT_NE(read_error(std::string(100000, '[') + std::string(100000, ']')).find("nested deeper"),
            std::string::npos);
  std::string cut = shipped_doc().dump();
  cut.resize(cut.size() / 2);
  EXPECT_NE(read_error(cut).find("is not valid JSON"), std::string::npos);
  EXPECT_NE(read_error(R"({"meta": {"x": 1e400}})").find("is not valid JSON"), std::string::npos);
  std::string many = "[";
  for (std::size_t i = 0; i <= aorta::detail::max_json_values; ++i) many += "0,";
  many += "0]";
  EXPECT_NE(read_error(many).find("is not valid JSON"), std::string::npos);
  std::string huge(aorta::detail::max_json_file_bytes + 1, ' ');
  EXPECT_NE(read_error(huge).find("bytes"), std::string::npos);
}

TEST(nvbench_hostile, a_state_without_a_cold_gpu_time_is_noted_not_a_row) {
  json doc = shipped_doc();
  doc["benchmarks"] = json::array({doc["benchmarks"][0]});
  for (auto& state : doc["benchmarks"][0]["states"]) state["summaries"] = nullptr;
  const scratch_file file(doc.dump());
  const auto c = aorta::read_nvbench_capture(file.path());
  EXPECT_TRUE(c.kernels.empty());
  // An empty capture, which fails the trial unless the recipe allows it, not "0 errors".
  EXPECT_FALSE(c.reported_errors.has_value());
  bool noted = false;
  for (const auto& note : c.notes) noted |= note.find("no cold GPU time") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
