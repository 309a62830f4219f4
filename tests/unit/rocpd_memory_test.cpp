// Issue 21 ("readers at the machine's limit"): a rocpd read holds each dispatched kernel's name
// once. The database is built here with SQLite's API in the direct layout of schema version 3
// (tests/fixtures/rocpd/README.md), with long names so that a second copy of them stands out of
// the process's peak resident memory.
#include "captures/rocprof_reader.hpp"

#include <gtest/gtest.h>
#include <malloc.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

[[maybe_unused]] constexpr int kernels = 20'000;
[[maybe_unused]] constexpr long name_bytes = 1'000;
// Many kernels of short names: what the read holds per kernel beside its name shows.
[[maybe_unused]] constexpr int short_kernels = 500'000;

[[maybe_unused]] long peak_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// `count` symbols with distinct names (`display_name`, an SQL expression of i), one dispatch
// each.
[[maybe_unused]] void write_database(const fs::path& file, int count,
                                     const std::string& display_name) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  const std::string sql =
      "CREATE TABLE rocpd_metadata (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
      "INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '3');"
      "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
      "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
      "product_name TEXT);"
      "INSERT INTO rocpd_info_agent VALUES (1, 'g', 'GPU', 1, 0, 'a', 'gfx942', 'MI300X');"
      "CREATE TABLE rocpd_info_kernel_symbol (id INTEGER PRIMARY KEY, guid TEXT, "
      "kernel_name TEXT, display_name TEXT);"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
      std::to_string(count) + ") INSERT INTO rocpd_info_kernel_symbol SELECT i, 'g', 'k' || i || "
      "'.kd', " + display_name + " FROM n;"
      "CREATE TABLE rocpd_kernel_dispatch (id INTEGER PRIMARY KEY, guid TEXT, agent_id INTEGER, "
      "kernel_id INTEGER, start BIGINT, \"end\" BIGINT);"
      "INSERT INTO rocpd_kernel_dispatch (guid, agent_id, kernel_id, start, \"end\") "
      "SELECT 'g', 1, id, id * 1000, id * 1000 + id FROM rocpd_info_kernel_symbol;";
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << message;
}

// 20 MB of names: the reader's copy and the frame tree's copy of them were both held at the read's
// peak, and the tree's copy again beside the capture's strings; now the names are interned once
// and the capture's kernels share that one block (kernel_stat::name, a shared_name). Measured
// 1.01 times the names' size; the bound leaves a tenth of it for the rest of the read (the sums,
// SQLite's page cache, the capture's kernel table), so a second copy of the names fails.
// GCC says so by __SANITIZE_ADDRESS__, clang (the asan preset's compiler) only by __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define AORTA_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AORTA_TEST_UNDER_ASAN 1
#endif
#endif

TEST(RocpdMemory, EachKernelNameIsHeldOnceAtThePeak) {
#if defined(AORTA_TEST_UNDER_ASAN)
  GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: peak memory is its own";
#else
  const fs::path dir = fs::temp_directory_path() / "aorta_rocpd_memory";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_database(dir / "aorta_results.db", kernels,
                 "printf('%0" + std::to_string(name_bytes) + "d', i)");
  const long before = peak_rss_kib();
  const aorta::capture c = aorta::read_rocprof_capture(dir, false);
  const long grown = peak_rss_kib() - before;
  fs::remove_all(dir);
  ASSERT_EQ(c.kernels.size(), static_cast<std::size_t>(kernels));
  EXPECT_EQ(c.kernels.front().name.size(), static_cast<std::size_t>(name_bytes));
  const long names_kib = kernels * name_bytes / 1024;
  EXPECT_LT(grown, names_kib * 11 / 10) << "KiB more at peak, for " << names_kib << " KiB of names";
#endif
}

// The capture's kernel names are views of one block, the reader's interned names back to back
// (kernel_stat::name shares it), not a heap block each: sorted by address, each name starts where
// the one before it ends. Also under the sanitizers, where a view past its block's life fails.
TEST(RocpdMemory, KernelNamesShareOneBlock) {
  const fs::path dir = fs::temp_directory_path() / "aorta_rocpd_one_block";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_database(dir / "aorta_results.db", 2'000, "'kernel_' || i");
  const aorta::capture c = aorta::read_rocprof_capture(dir, false);
  fs::remove_all(dir);
  ASSERT_EQ(c.kernels.size(), 2'000U);
  std::vector<std::string_view> names;
  for (const aorta::kernel_stat& k : c.kernels) names.push_back(k.name.view());
  std::sort(names.begin(), names.end(),
            [](std::string_view a, std::string_view b) { return a.data() < b.data(); });
  for (std::size_t i = 1; i < names.size(); ++i)
    ASSERT_EQ(names[i].data(), names[i - 1].data() + names[i - 1].size())
        << "'" << names[i] << "' is not right after '" << names[i - 1] << "'";
}

// Runs `step` in a child process and returns what it returns (0-255), or -1 if it died: the
// child's heap starts as the parent's, not as the previous step (SQLite's writer) left it.
template <class Step> [[maybe_unused]] int in_child(const Step& step) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(step());
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// 500,000 kernels of names short enough to need no heap of their own: what the read holds per
// kernel is the dispatch sums, the names' table and index and the capture's kernel_stat. The
// names' index was held beside the kernel totals, and the dispatched ids' table beside both, at
// the read's peak: ~102 bytes a kernel, then 94; with the sums in whole 128 KiB blocks (a freed
// block leaves the process), no id table and 48-byte kernel_stats, 78; with 32-byte groups and
// 32-bit name offsets, 66.
TEST(RocpdMemory, ManyKernelsCostFewBytesEachAtThePeak) {
#if defined(AORTA_TEST_UNDER_ASAN)
  GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: peak memory is its own";
#else
  const fs::path dir = fs::temp_directory_path() / "aorta_rocpd_memory_short";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_EQ(in_child([&] {
              write_database(dir / "aorta_results.db", short_kernels, "'k' || i");
              return ::testing::Test::HasFailure() ? 1 : 0;
            }),
            0);
  // Bytes a kernel at the read's peak, or 255 when the read went wrong.
  const int bytes_each = in_child([&] {
#if defined(__GLIBC__)
    // As aorta's main() (cli/main.cpp, fix_mmap_threshold): RSS then follows the live blocks.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    const long before = peak_rss_kib();
    const aorta::capture c = aorta::read_rocprof_capture(dir, false);
    const long grown = peak_rss_kib() - before;
    if (c.kernels.size() != static_cast<std::size_t>(short_kernels)) return 255;
    return static_cast<int>(std::min(254L, grown * 1024 / short_kernels));
  });
  fs::remove_all(dir);
  ASSERT_NE(bytes_each, 255) << "the read did not return every kernel";
  ASSERT_GE(bytes_each, 0) << "the reading process died";
  EXPECT_LE(bytes_each, 70) << "bytes a kernel at the read's peak";
#endif
}

}  // namespace
