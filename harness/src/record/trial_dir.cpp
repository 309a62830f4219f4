#include "record/trial_dir.hpp"

#include "aorta/error.hpp"
#include "json_document.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <system_error>

namespace aorta::detail {
namespace fs = std::filesystem;

void prepare_trial_dir(const fs::path& trial_dir, const std::vector<std::string>& collector_dirs) {
  std::error_code ec;
  const auto status = fs::symlink_status(trial_dir, ec);
  if (fs::is_symlink(status)) {
    throw setup_error(fmt::format(
        "cannot prepare trial directory {}: it is a symlink; aorta deletes and recreates trial "
        "directories and will not follow a link. Remove it or choose another --output.",
        trial_dir.string()));
  }
  if (fs::exists(status) && !fs::is_directory(status)) {
    throw setup_error(fmt::format(
        "cannot prepare trial directory {}: a file is in the way. Remove it or choose another "
        "--output.",
        trial_dir.string()));
  }
  fs::remove_all(trial_dir, ec);
  if (ec) {
    throw setup_error(fmt::format("cannot clear trial directory {}: {}. Fix the permissions or "
                                  "choose another --output.",
                                  trial_dir.string(), ec.message()));
  }
  for (const auto& name : collector_dirs) {
    fs::create_directories(trial_dir / name, ec);
    if (ec) break;
  }
  if (!ec) fs::create_directories(trial_dir, ec);
  if (ec) {
    throw setup_error(fmt::format("cannot create trial directory {}: {}. Fix the permissions or "
                                  "choose another --output.",
                                  trial_dir.string(), ec.message()));
  }
}

void write_command_record(const fs::path& file, const std::vector<std::string>& command,
                          const launch_plan& plan) {
  nlohmann::json record{{"command", command},         {"argv", plan.argv},
                        {"env_set", plan.env_set},     {"env_unset", plan.env_unset},
                        {"warnings", plan.warnings}};
  write_json_document(file, std::move(record), schemas::command);
}

void write_trial_result(const fs::path& dir, const trial_record& record) {
  write_result_json(dir / "result.json", record);
}

}  // namespace aorta::detail
