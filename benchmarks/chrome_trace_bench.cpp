// Throughput and memory of reading Proton's data: trace output (<name>.chrome_trace) through
// read_hatchet_capture, on generated traces shaped like Triton's TraceData writer: one JSON line
// per stream, complete events of 500 distinct kernels, each with a 4-frame call_stack
// (ROOT, two scopes, kernel). Deterministic (fixed seed). Peak RSS is a high-water mark reported
// after each size; both files are written before anything is measured.
#include "captures/hatchet_reader.hpp"
#include "bench_support.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace {

namespace fs = std::filesystem;

void write_trace(const fs::path& file, std::size_t target) {
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (out == nullptr) throw std::runtime_error("cannot write " + file.string());
  std::uint64_t state = 0x5eed;
  const auto next = [&state](std::uint32_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>((state >> 33) % bound);
  };
  std::size_t written = 0;
  std::string line;
  for (int stream = 0; written < target; ++stream) {
    line = R"({"displayTimeUnit":"us","traceEvents":[)";
    for (int i = 0; i < 20000 && written + line.size() < target; ++i) {
      if (i != 0) line += ',';
      const std::uint32_t k = next(500);
      fmt::format_to(std::back_inserter(line),
                     R"({{"args":{{"call_stack":["ROOT","layer_{}","{}","triton_kernel_{}"]}},)"
                     R"("cat":"kernel","dur":{}.{},"name":"triton_kernel_{}","ph":"X",)"
                     R"("tid":{},"ts":{}.5}})",
                     next(32), next(2) == 0 ? "prefill" : "decode", k, next(5000), next(1000), k,
                     stream, i * 10);
    }
    line += "]}\n";
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size())
      throw std::runtime_error("short write");
    written += line.size();
  }
  std::fclose(out);
}

aorta::bench::generated_inputs& files() {
  static aorta::bench::generated_inputs instance(
      "aorta_trace_bench", "proton_{}mb.chrome_trace", [](const fs::path& file, std::int64_t mib) {
        write_trace(file, static_cast<std::size_t>(mib) << 20);
      });
  return instance;
}

}  // namespace

int main(int argc, char** argv) {
  return aorta::bench::run_reader_benchmarks(
      argc, argv,
      {"read_chrome_trace", &files(), {25, 100}, 1.0,
       [](const fs::path& file) { return aorta::read_hatchet_capture(file); }});
}
