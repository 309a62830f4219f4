#include "bisect/git_repository.hpp"

#include "aorta/error.hpp"
#include "aorta/launch_plan.hpp"
#include "bounded_input.hpp"
#include "process/private_temp_dir.hpp"
#include "process/process.hpp"

#include <fmt/format.h>

#include <array>
#include <sstream>

namespace aorta::detail {
namespace fs = std::filesystem;
namespace {

// Variables that would point git at another repository or index than the one in `-C`.
constexpr std::array<const char*, 6> redirecting_git_variables{
    "GIT_DIR",        "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_COMMON_DIR", "GIT_NAMESPACE"};

// A commit list of a long history runs to some MiB; far more is not a repository git prints.
constexpr std::uint64_t max_git_output_bytes = 64ULL << 20;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

}  // namespace

git_repository::git_repository(fs::path directory) {
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    throw usage_error(fmt::format("bisect: --repo {}: no such directory. Fix: name the checkout "
                                  "of the repository to bisect",
                                  directory.string()));
  }
  m_top = fs::absolute(directory);
  const auto shown = run({"rev-parse", "--show-toplevel"});
  if (shown.status != 0 || shown.lines.empty()) {
    throw usage_error(fmt::format("bisect: --repo {}: not a git work tree ({}). Fix: name the "
                                  "checkout of the repository to bisect",
                                  directory.string(), shown.error));
  }
  m_top = fs::path(shown.lines.front());
}

git_repository::git_output git_repository::run(const std::vector<std::string>& arguments,
                                               const fs::path& where) const {
  private_temp_dir scratch("aorta-git");
  process_spec git;
  git.argv = {"git", "-C", where.empty() ? m_top.string() : where.string()};
  git.argv.insert(git.argv.end(), arguments.begin(), arguments.end());
  git.environment = current_environment();
  for (const char* name : redirecting_git_variables) git.environment.erase(name);
  git.environment["LC_ALL"] = "C";
  git.stdout_log = scratch.create_file("stdout.txt");
  git.stderr_log = scratch.create_file("stderr.txt");
  git.echo = false;
  git.timeout = std::chrono::minutes(10);
  git.kill_grace = std::chrono::seconds(1);
  const process_result result = run_process(git);
  if (result.interrupted_by) {
    throw interrupted_error(*result.interrupted_by, "bisect: interrupted while git ran");
  }
  git_output output;
  output.status = result.exit_status.value_or(-1);
  output.lines = lines_of(read_input_file(git.stdout_log, max_git_output_bytes, "git's output"));
  const auto errors =
      lines_of(read_input_file(git.stderr_log, max_git_output_bytes, "git's output"));
  // The last line: git says what failed after what it was doing ("Preparing worktree ...").
  output.error = errors.empty() ? result.describe() : errors.back();
  return output;
}

std::string git_repository::commit_of(const std::string& revision,
                                      const std::string& option) const {
  if (revision.empty() || revision.starts_with('-')) {
    throw usage_error(fmt::format("bisect: {} '{}' is not a revision. Fix: give a commit id, "
                                  "branch or tag of {}",
                                  option, revision, m_top.string()));
  }
  const auto found = run({"rev-parse", "--verify", "--quiet", revision + "^{commit}"});
  if (found.status != 0 || found.lines.empty()) {
    throw usage_error(fmt::format("bisect: {} '{}' names no commit in {}. Fix: give a commit id, "
                                  "branch or tag of that repository (git log --oneline shows them)",
                                  option, revision, m_top.string()));
  }
  return found.lines.front();
}

bool git_repository::is_ancestor(const std::string& older, const std::string& newer) const {
  return run({"merge-base", "--is-ancestor", older, newer}).status == 0;
}

std::vector<std::string> git_repository::first_parent_range(const std::string& good,
                                                            const std::string& bad) const {
  auto listed = run({"rev-list", "--first-parent", "--reverse", bad, "^" + good});
  if (listed.status != 0) {
    throw setup_error(
        fmt::format("bisect: git rev-list {}..{} failed: {}", good, bad, listed.error));
  }
  return listed.lines;
}

std::string git_repository::first_parent(const std::string& commit) const {
  const auto parent = run({"rev-parse", "--verify", "--quiet", commit + "^1"});
  return parent.status == 0 && !parent.lines.empty() ? parent.lines.front() : std::string();
}

std::string git_repository::subject(const std::string& commit) const {
  const auto shown = run({"log", "-1", "--format=%s", commit});
  return shown.status == 0 && !shown.lines.empty() ? shown.lines.front() : std::string();
}

void git_repository::add_worktree(const fs::path& path, const std::string& commit) const {
  std::error_code error;
  if (fs::exists(path, error)) {
    const auto head = run({"rev-parse", "HEAD"}, path);
    if (head.status == 0 && !head.lines.empty() && head.lines.front() == commit) return;
    throw setup_error(fmt::format("bisect: {} exists but is not a worktree of {}. Fix: remove it "
                                  "(and run `git worktree prune` in {}), then run the bisect again",
                                  path.string(), commit, m_top.string()));
  }
  const auto added = run({"worktree", "add", "--detach", path.string(), commit});
  if (added.status != 0) {
    throw setup_error(fmt::format("bisect: git worktree add {} {} failed: {}", path.string(),
                                  commit, added.error));
  }
}

}  // namespace aorta::detail
