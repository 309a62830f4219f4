// Throughput and memory of read_rocprof_capture on generated rocpd databases (the direct layout
// of schema version 3, tests/fixtures/rocpd/README.md): N kernel dispatches of 2,000 distinct
// kernels on 4 agents, written with SQLite's API before anything is measured. The reader scans the
// dispatch rows once and sums per (kernel id, agent) in a hash table, so peak RSS should follow
// SQLite's page cache and the number of kernels, not the file size.
#include "captures/rocprof_reader.hpp"
#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace {

namespace fs = std::filesystem;

void exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite: ") + (error ? error : "?"));
}

void write_database(const fs::path& file, std::int64_t dispatches) {
  sqlite3* db = nullptr;
  if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) throw std::runtime_error("cannot open");
  exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
           "CREATE TABLE rocpd_metadata (id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
           "INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '3');"
           "CREATE TABLE rocpd_info_agent (id INTEGER PRIMARY KEY, guid TEXT, type TEXT, "
           "absolute_index INTEGER, type_index INTEGER, name TEXT, generic_name TEXT, "
           "product_name TEXT);"
           "CREATE TABLE rocpd_info_kernel_symbol (id INTEGER PRIMARY KEY, guid TEXT, "
           "kernel_name TEXT, display_name TEXT);"
           "CREATE TABLE rocpd_kernel_dispatch (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, "
           "pid INTEGER, agent_id INTEGER, kernel_id INTEGER, dispatch_id INTEGER, "
           "queue_id INTEGER, stream_id INTEGER, start BIGINT, \"end\" BIGINT, "
           "workgroup_size_x INTEGER, grid_size_x INTEGER);");
  for (int a = 0; a < 4; ++a)
    exec(db, fmt::format("INSERT INTO rocpd_info_agent VALUES ({0}, 'g', 'GPU', {0}, {0}, "
                         "'agent{0}', 'gfx942', 'AMD Instinct MI300X')",
                         a + 1));
  for (int k = 0; k < 2000; ++k)
    exec(db, fmt::format("INSERT INTO rocpd_info_kernel_symbol VALUES ({0}, 'g', "
                         "'Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_{0}.kd', "
                         "'Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_{0}')",
                         k + 1));
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db,
                     "INSERT INTO rocpd_kernel_dispatch (guid, nid, pid, agent_id, kernel_id, "
                     "dispatch_id, queue_id, stream_id, start, \"end\", workgroup_size_x, "
                     "grid_size_x) VALUES ('g', 1, 1, ?1, "
                     "?2, ?3, 1, 1, ?4, ?5, 256, 65536)",
                     -1, &insert, nullptr);
  std::uint64_t state = 0x5eed;
  for (std::int64_t i = 0; i < dispatches; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto r = static_cast<std::int64_t>(state >> 33);
    sqlite3_bind_int64(insert, 1, 1 + r % 4);
    sqlite3_bind_int64(insert, 2, 1 + (r >> 3) % 2000);
    sqlite3_bind_int64(insert, 3, i);
    sqlite3_bind_int64(insert, 4, i * 1000);
    sqlite3_bind_int64(insert, 5, i * 1000 + 100 + r % 5000);
    sqlite3_step(insert);
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  exec(db, "COMMIT;");
  sqlite3_close(db);
}

// One directory per size, holding aorta_results.db, as rocprofv3's -o aorta writes it.
aorta::bench::generated_inputs& dirs() {
  static aorta::bench::generated_inputs instance(
      "aorta_rocpd_bench", "{}", [](const fs::path& dir, std::int64_t dispatches) {
        fs::create_directories(dir);
        write_database(dir / "aorta_results.db", dispatches);
      });
  return instance;
}

}  // namespace

int main(int argc, char** argv) {
  return aorta::bench::run_reader_benchmarks(
      argc, argv,
      {"read_rocpd", &dirs(), {500'000, 2'000'000}, 1.0,
       [](const fs::path& dir) { return aorta::read_rocprof_capture(dir); },
       [](const fs::path& dir) { return dir / "aorta_results.db"; }});
}
