#include "ranks/rank_exec.hpp"

#include "ranks/rank_card.hpp"

#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "atomic_file.hpp"
#include "contained_path.hpp"
#include "json_document.hpp"
#include "json_text.hpp"
#include "ranks/rank_identity.hpp"
#include "ranks/rank_plan.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace aorta::detail {
namespace {

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

constexpr const char* rank_exec_source = "aorta rank-exec";

int refuse_rank_exec(const rank_exec_request& request, reporting::reporter& report, int code,
                     const std::string& reason) {
  report.report(reporting::note_event{reporting::severity::error, reason,
                                      reporting::channel::diagnostic, rank_exec_source});
  std::error_code ec;
  const auto dir = rank_errors_directory(request.trial_dir);
  std::filesystem::create_directories(dir, ec);
  try {
    write_file_atomically(dir / fmt::format("{}.{}.txt", host_name(), ::getpid()), reason + "\n");
  } catch (const setup_error& failure) {
    // The reason is on stderr already; the trial then reports the rank as missing.
    report.report(reporting::note_event{reporting::severity::info, failure.what(),
                                        reporting::channel::diagnostic, rank_exec_source});
  }
  return code;
}

// The other claimant as its rank.json tells it; a field of the wrong type reads as unknown, so a
// damaged file still gives the refusal, not an internal error.
std::string describe_claim(const std::filesystem::path& rank_dir) {
  std::ifstream file(rank_dir / "rank.json");
  nlohmann::json json;
  try {
    json = parse_json(file);
  } catch (const json_input_error&) {
    return "another process";
  }
  if (!json.is_object()) return "another process";
  const auto text = [&json](const char* key) {
    const auto found = json.find(key);
    if (found == json.end()) return std::string("?");
    return found->is_string() ? found->get<std::string>() : dump_json(*found).substr(0, 80);
  };
  return fmt::format("pid {} on {} ({}={})", text("pid"), text("host"), text("variable"),
                     text("rank"));
}

std::string substituted(std::string text, const std::string& rank) {
  for (auto at = text.find(rank_placeholder); at != std::string::npos;
       at = text.find(rank_placeholder, at + rank.size())) {
    text.replace(at, rank_placeholder.size(), rank);
  }
  return text;
}

}  // namespace

std::filesystem::path rank_errors_directory(const std::filesystem::path& trial_dir) {
  return trial_dir / "rank_errors";
}

int run_rank_exec(const rank_exec_request& request, reporting::reporter& report) {
  if (request.command.empty()) {
    return refuse_rank_exec(request, report, 64, "no command to run after '--'");
  }
  const env_map env = current_environment();
  rank_identity identity;
  try {
    identity = identify_rank(env, request.rank_from.empty() ? rank_variables()
                                                            : request.rank_from);
  } catch (const usage_error& e) {
    return refuse_rank_exec(request, report, 64,
                            fmt::format("pid {} on {}: {}", ::getpid(), host_name(), e.what()));
  }
  const auto rank_dir = rank_directory(request.trial_dir, identity.rank);
  std::vector<std::filesystem::path> collector_dirs;
  try {
    for (const auto& collector : request.collectors) {
      collector_dirs.push_back(contained_path(rank_dir, collector, "rank-exec --collectors"));
    }
  } catch (const usage_error& e) {
    return refuse_rank_exec(request, report, 64, e.what());
  }
  // mkdir is atomic, also on NFS: exactly one process wins a rank number.
  if (::mkdir(rank_dir.c_str(), 0777) != 0) {
    const int error = errno;
    if (error == EEXIST) {
      return refuse_rank_exec(
          request, report, 64,
          fmt::format("two processes claim rank {}: this one (pid {} on {}, {}={}) and "
                      "{}; the launcher gave two processes one rank number",
                      identity.rank, ::getpid(), host_name(), identity.variable, identity.rank,
                      describe_claim(rank_dir)));
    }
    return refuse_rank_exec(
        request, report, 64,
        fmt::format("cannot create {}: {}", rank_dir.string(), std::strerror(error)));
  }
  nlohmann::json claim{{"rank", identity.rank}, {"variable", identity.variable},
                       {"host", host_name()},   {"pid", ::getpid()}};
  if (identity.world_size) claim["world_size"] = *identity.world_size;
  if (const auto card = card_of_rank(env, host_gpu_uuids()); !card.card.empty()) {
    claim["card"] = card.card;
    claim["card_source"] = card.source;
  }
  try {
    write_json_document(rank_dir / "rank.json", std::move(claim), schemas::rank);
  } catch (const setup_error& failure) {
    return refuse_rank_exec(request, report, 64, failure.what());
  }
  for (const auto& dir : collector_dirs) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
  }

  const std::string rank = std::to_string(identity.rank);
  ::setenv(std::string(rank_export).c_str(), rank.c_str(), 1);
  for (const auto& [name, value] : env) {
    if (name.starts_with("AORTA_PROTON_") && value.find(rank_placeholder) != std::string::npos) {
      ::setenv(name.c_str(), substituted(value, rank).c_str(), 1);
    }
  }
  std::vector<std::string> argv;
  for (const auto& arg : request.command) argv.push_back(substituted(arg, rank));
  std::vector<char*> raw;
  for (auto& arg : argv) raw.push_back(arg.data());
  raw.push_back(nullptr);
  report.flush();
  ::execvp(raw[0], raw.data());
  return refuse_rank_exec(request, report, 127,
                          fmt::format("rank {}: cannot execute '{}': {}", identity.rank, argv[0],
                                      std::strerror(errno)));
}

}  // namespace aorta::detail
