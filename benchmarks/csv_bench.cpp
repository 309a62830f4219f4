// Throughput and peak memory of read_rocprof_capture on large rocprofv3 kernel traces.
// The traces are generated at benchmark time (22 columns, ~200 distinct Tensile-style names) under
// $TMPDIR and removed at exit. Peak RSS comes from getrusage; since the reader streams, it should
// not grow with the file size.
#include "captures/rocprof_reader.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int distinct_kernels = 200;

std::vector<std::string> tensile_names() {
  std::vector<std::string> names;
  const char* types[] = {"HHS_BH", "SSS_BH", "BBS_BH", "DDD_BH"};
  const int tiles[] = {64, 128, 256};
  for (int i = 0; i < distinct_kernels; ++i) {
    names.push_back(fmt::format(
        "Cijk_Alik_Bljk_{}_MT{}x{}x32_MI32x32x8x1_SN_1LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_"
        "DTVA0_DTVB0_EPS1_FSSC10_FL0_GRPM1_GRVW8_GSU1_GSUAMB_GLS0_ISA942_IU1_K1_KLA_LBSPPA256_"
        "LBSPPB256_LPA16_LPB16_LDL1_LRVW8_LWPMn1_MIAV1_MIWT4_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_"
        "NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_SIA3_SS1_SU32_SUM0_SUS256_SPO0_SRVW0_SSO0_SVW4_"
        "TT4_64_TLDS1_UMLDSA1_UMLDSB1_U64SL1_USFGROn1_VAW2_VSn1_VW4_VWB4_WSGRA1_WSGRB1_WG32_4_1_"
        "WGM{}",
        types[i % 4], tiles[i % 3], tiles[(i / 3) % 3], i));
  }
  return names;
}

// Writes `rows` kernel dispatches; returns the file size.
std::uint64_t write_trace(const fs::path& file, std::int64_t rows) {
  const std::vector<std::string> names = tensile_names();
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (out == nullptr) throw std::runtime_error("cannot write " + file.string());
  std::fputs("\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
             "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
             "\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
             "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
             "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n",
             out);
  std::mt19937_64 rng(42);
  std::uint64_t t = 1'700'000'000'000'000'000ULL;
  std::string line;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::size_t k = rng() % names.size();
    const std::uint64_t duration = 1000 + rng() % 500000;
    line = fmt::format(
        "\"KERNEL_DISPATCH\",\"Agent 4\",1,0,{},{},{},\"{}\",{},{},{},16384,0,128,128,96,256,1,1,"
        "{},1,1\n",
        31337, i + 1, k + 1, names[k], i + 1, t, t + duration, 256 * (1 + k % 64));
    std::fwrite(line.data(), 1, line.size(), out);
    t += duration + 250;
  }
  std::fclose(out);
  return fs::file_size(file);
}

struct trace_cache {
  fs::path root = fs::temp_directory_path() / fmt::format("aorta_csv_bench_{}", ::getpid());
  std::map<std::int64_t, std::uint64_t> sizes;

  fs::path dir_for(std::int64_t rows) {
    const fs::path dir = root / std::to_string(rows);
    if (!sizes.contains(rows)) {
      fs::create_directories(dir);
      sizes[rows] = write_trace(dir / "aorta_kernel_trace.csv", rows);
    }
    return dir;
  }
  ~trace_cache() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

trace_cache& cache() {
  static trace_cache instance;
  return instance;
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void read_rocprof_trace(benchmark::State& state) {
  const std::int64_t rows = state.range(0);
  const fs::path dir = cache().dir_for(rows);
  const std::uint64_t bytes = cache().sizes.at(rows);
  const double rss_before = peak_rss_mib();
  std::size_t kernels = 0;
  for (auto _ : state) {
    const aorta::capture c = aorta::read_rocprof_capture(dir);
    kernels = c.kernels.size();
    benchmark::DoNotOptimize(c.kernels.data());
  }
  if (kernels != distinct_kernels) state.SkipWithError("wrong number of kernels read");
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MiB_before"] = rss_before;
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

}  // namespace

BENCHMARK(read_rocprof_trace)
    ->Arg(1'000'000)
    ->Arg(2'000'000)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

BENCHMARK_MAIN();
