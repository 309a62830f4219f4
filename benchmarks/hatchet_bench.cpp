// Throughput and memory of read_hatchet_capture on a generated Proton tree. The file is written
// once per size into a temporary directory (deterministic: fixed seed), shaped like a real
// `proton --context python` capture: ~20 levels of "file.py:line@function" frames above each
// kernel and ~5,000 distinct kernel names, keys in nlohmann's sorted order as Proton writes them.
//
// Peak RSS is reported after each size. Both files are generated first, then the 50 MB case runs;
// since ru_maxrss is a high-water mark, an equal figure after the 200 MB case shows the reader's
// memory does not grow with input. Rates are per CPU second (Google Benchmark's default); the
// Time column is wall time.
#include "captures/hatchet_reader.hpp"
#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

namespace fs = std::filesystem;

constexpr int python_depth = 20;
constexpr std::size_t distinct_kernels = 5000;

class lcg {
public:
  std::uint32_t next(std::uint32_t bound) {
    m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>((m_state >> 33) % bound);
  }

private:
  std::uint64_t m_state = 0x5eed;
};

class hatchet_writer {
public:
  hatchet_writer(const fs::path& file, std::size_t target_bytes)
      : m_file(std::fopen(file.c_str(), "wb")), m_target(target_bytes) {
    if (m_file == nullptr) throw std::runtime_error("cannot write " + file.string());
    const char* stems[] = {"triton_poi_fused_add_mul_", "triton_red_fused_native_layer_norm_",
                           "void at::native::vectorized_elementwise_kernel<4, "
                           "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >_",
                           "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_",
                           "_attn_fwd_inner_"};
    for (std::size_t i = 0; i < distinct_kernels; ++i)
      m_kernels.push_back(stems[i % 5] + std::to_string(i));
  }
  hatchet_writer(const hatchet_writer&) = delete;
  hatchet_writer& operator=(const hatchet_writer&) = delete;
  ~hatchet_writer() { std::fclose(m_file); }

  void write() {
    m_out = R"j([{"children":[)j";
    for (bool first = true; m_written + m_out.size() < m_target; first = false) {
      if (!first) m_out += ',';
      frame(0);
    }
    m_out += R"j(],"frame":{"name":"ROOT","type":"function"},"metrics":{"count":0,)j"
             R"j("time (ns)":0}},{"CUDA":{"0":{"arch":"90","bus_width":6144,)j"
             R"j("clock_rate":1980000,"memory_clock_rate":2619000,"num_sms":132}}}])j";
    flush();
  }

private:
  void flush() {
    if (std::fwrite(m_out.data(), 1, m_out.size(), m_file) != m_out.size())
      throw std::runtime_error("short write");
    m_written += m_out.size();
    m_out.clear();
  }

  void frame(int depth) {
    if (m_out.size() > (1U << 20)) flush();
    m_out += R"j({"children":[)j";
    if (depth + 1 < python_depth) {
      const std::uint32_t children = depth < 3 ? 1 + m_rng.next(2) : (m_rng.next(5) == 0 ? 2 : 1);
      for (std::uint32_t i = 0; i < children; ++i) {
        if (i != 0) m_out += ',';
        frame(depth + 1);
      }
    } else {
      const std::uint32_t kernels = 4 + m_rng.next(12);
      for (std::uint32_t i = 0; i < kernels; ++i) {
        if (i != 0) m_out += ',';
        kernel();
      }
    }
    fmt::format_to(std::back_inserter(m_out),
                   R"j(],"frame":{{"name":"model_{}.py:{}@forward_{}","type":"function"}},)j"
                   R"j("metrics":{{}}}})j",
                   m_rng.next(40), 10 + m_rng.next(900), depth);
  }

  void kernel() {
    fmt::format_to(std::back_inserter(m_out),
                   R"j({{"children":[],"frame":{{"name":"{}","type":"function"}},"metrics":)j"
                   R"j({{"count":{},"device_id":"0","device_type":"CUDA","time (ns)":{}}}}})j",
                   m_kernels[m_rng.next(distinct_kernels)], 1 + m_rng.next(64),
                   1000 + m_rng.next(5000000));
  }

  std::FILE* m_file;
  std::size_t m_target;
  std::size_t m_written = 0;
  std::string m_out;
  std::vector<std::string> m_kernels;
  lcg m_rng;
};

aorta::bench::generated_inputs& files() {
  static aorta::bench::generated_inputs instance(
      "aorta_hatchet_bench", "proton_{}mb.hatchet", [](const fs::path& file, std::int64_t mib) {
        hatchet_writer(file, static_cast<std::size_t>(mib) << 20).write();
      });
  return instance;
}

}  // namespace

int main(int argc, char** argv) {
  return aorta::bench::run_reader_benchmarks(
      argc, argv,
      {"read_hatchet_capture", &files(), {50, 200}, 2.0,
       [](const fs::path& file) { return aorta::read_hatchet_capture(file); }});
}
