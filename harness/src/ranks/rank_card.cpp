#include "ranks/rank_card.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <string_view>

namespace aorta::detail {
namespace {

// A /proc information file is a few hundred bytes; a line budget keeps a strange one harmless.
constexpr int max_information_lines = 64;

std::optional<std::size_t> device_number(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::string trimmed_field(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

std::vector<std::string> split_devices(const std::string& list) {
  std::vector<std::string> entries;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const auto end = comma == std::string::npos ? list.size() : comma;
    if (auto entry = trimmed_field(std::string_view(list).substr(start, end - start));
        !entry.empty()) {
      entries.push_back(std::move(entry));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return entries;
}

// The local rank, when a variable gives a whole number.
std::optional<std::size_t> local_rank(const env_map& env, std::string& variable) {
  for (const auto& name : local_rank_variables()) {
    const auto found = env.find(name);
    if (found == env.end()) continue;
    variable = name;
    return device_number(found->second);
  }
  return std::nullopt;
}

std::string device_of_entry(const std::string& entry, const std::vector<std::string>& host_gpus) {
  if (const auto index = device_number(entry)) {
    return *index < host_gpus.size() ? host_gpus[*index] : fmt::format("GPU index {}", *index);
  }
  if (entry.starts_with("GPU-") || entry.starts_with("MIG-")) return entry;
  return {};
}

}  // namespace

const std::vector<std::string>& local_rank_variables() {
  static const std::vector<std::string> names{"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                              "MPI_LOCALRANKID", "SLURM_LOCALID"};
  return names;
}

std::vector<std::string> host_gpu_uuids(const std::filesystem::path& driver_dir) {
  std::error_code ec;
  std::vector<std::filesystem::path> buses;
  for (std::filesystem::directory_iterator it(driver_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    buses.push_back(it->path());
    if (buses.size() > 4096) break;  // no host has more GPUs; a strange directory stops here
  }
  std::sort(buses.begin(), buses.end());
  std::vector<std::string> uuids;
  for (const auto& bus : buses) {
    std::ifstream information(bus / "information");
    std::string line;
    std::string uuid;
    for (int count = 0; count < max_information_lines && std::getline(information, line); ++count) {
      constexpr std::string_view key = "GPU UUID:";
      if (line.starts_with(key)) uuid = trimmed_field(std::string_view(line).substr(key.size()));
    }
    uuids.push_back(uuid.empty() ? fmt::format("GPU at {}", bus.filename().string()) : uuid);
  }
  return uuids;
}

rank_card card_of_rank(const env_map& env, const std::vector<std::string>& host_gpus) {
  std::string variable;
  const auto local = local_rank(env, variable);
  if (const auto visible = env.find("CUDA_VISIBLE_DEVICES"); visible != env.end()) {
    const auto entries = split_devices(visible->second);
    rank_card found;
    if (entries.size() == 1) {
      found = {device_of_entry(entries.front(), host_gpus), "CUDA_VISIBLE_DEVICES"};
    } else if (local && *local < entries.size()) {
      found = {device_of_entry(entries[*local], host_gpus),
               fmt::format("{}={} indexes CUDA_VISIBLE_DEVICES", variable, *local)};
    }
    return found.card.empty() ? rank_card{} : found;
  }
  if (host_gpus.size() == 1) return {host_gpus.front(), "the host's only GPU"};
  if (local && *local < host_gpus.size()) {
    return {host_gpus[*local], fmt::format("{}={} indexes the host's GPUs", variable, *local)};
  }
  return {};
}

}  // namespace aorta::detail
