// The ncu and rocprofv3 CSV readers fail on a launch whose duration is negative, NaN, infinite or
// not a number, naming the file, the row and the kernel, as rocpd's reader does (issue 39, item 5).
// They dropped such a row with one note: the kernel vanished and `count(bad_kernel) == 0` passed.
#include "aorta/error.hpp"
#include "captures/ncu_reader.hpp"
#include "captures/rocprof_reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

class scratch_dir {
public:
  scratch_dir()
      : m_path(fs::temp_directory_path() / ("aorta-bad-duration-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(++count))) {
    fs::create_directories(m_path);
  }
  ~scratch_dir() { fs::remove_all(m_path); }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  [[nodiscard]] fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(m_path / name) << text;
    return m_path / name;
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }

private:
  static inline int count = 0;
  fs::path m_path;
};

template <typename Read>
std::string read_error(Read read) {
  try {
    read();
  } catch (const aorta::capture_error& e) {
    return e.what();
  }
  return "read without an error";
}

TEST(CsvBadDuration, NcuRawPageTimesThatAreNoTimeFailNamingFileRowAndKernel) {
  for (const std::string value : {"-1", "nan", "inf", "n/a", "abc"}) {
    const scratch_dir dir;
    const fs::path file = dir.write("ncu.csv", "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                                               "\"\",\"\",\"nsecond\"\n"
                                               "\"0\",\"good_kernel\",\"10\"\n"
                                               "\"1\",\"bad_kernel\",\"" +
                                                   value + "\"\n");
    const std::string error = read_error([&] { (void)aorta::read_ncu_capture(file); });
    EXPECT_NE(error.find(file.string() + ": row 4: kernel 'bad_kernel': gpu__time_duration.sum '" +
                         value + "' is not a finite non-negative time"),
              std::string::npos)
        << value << ": " << error;
  }
}

TEST(CsvBadDuration, NcuDetailsPageTimesThatAreNoTimeFail) {
  const scratch_dir dir;
  const fs::path file = dir.write(
      "ncu.csv", "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                 "\"0\",\"bad_kernel\",\"gpu__time_duration.sum\",\"nsecond\",\"-5\"\n");
  const std::string error = read_error([&] { (void)aorta::read_ncu_capture(file); });
  EXPECT_NE(error.find("row 2: kernel 'bad_kernel'"), std::string::npos) << error;
}

TEST(CsvBadDuration, RocprofStatsDurationsThatAreNoTimeFail) {
  for (const std::string value : {"-5", "nan", "inf", "abc", ""}) {
    const scratch_dir dir;
    const fs::path file = dir.write("1_kernel_stats.csv", "\"Name\",\"Calls\",\"TotalDurationNs\"\n"
                                                          "\"good_kernel\",1,100\n"
                                                          "\"bad_kernel\",4," +
                                                              value + "\n");
    const std::string error = read_error([&] { (void)aorta::read_rocprof_capture(dir.path()); });
    EXPECT_NE(error.find(file.string() + ": row 3: kernel 'bad_kernel': TotalDurationNs '" + value +
                         "' is not a finite non-negative number"),
              std::string::npos)
        << value << ": " << error;
  }
}

TEST(CsvBadDuration, RocprofTraceNegativeOrUnreadableDurationsFail) {
  const std::string header = "\"Kind\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
                             "\"KERNEL_DISPATCH\",\"good_kernel\",100,200\n";
  {
    const scratch_dir dir;
    const fs::path file =
        dir.write("1_kernel_trace.csv", header + "\"KERNEL_DISPATCH\",\"bad_kernel\",900,800\n");
    const std::string error = read_error([&] { (void)aorta::read_rocprof_capture(dir.path()); });
    EXPECT_NE(error.find(file.string() + ": row 3: kernel 'bad_kernel': End_Timestamp 800 is "
                                         "before Start_Timestamp 900"),
              std::string::npos)
        << error;
  }
  for (const std::string bad : {"nan,200", "-1,200", "100,inf", "100,n/a"}) {
    const scratch_dir dir;
    (void)dir.write("1_kernel_trace.csv",
                    header + "\"KERNEL_DISPATCH\",\"bad_kernel\"," + bad + "\n");
    const std::string error = read_error([&] { (void)aorta::read_rocprof_capture(dir.path()); });
    EXPECT_NE(error.find("row 3: kernel 'bad_kernel': Start_Timestamp"), std::string::npos)
        << bad << ": " << error;
  }
}

}  // namespace
