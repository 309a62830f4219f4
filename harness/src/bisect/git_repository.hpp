// The few git questions `aorta bisect` asks, each one git process started with an argv (never a
// shell), in the repository the user named. Nothing here changes the user's checkout, index or
// refs: the only write is `git worktree add --detach`, whose files go under the bisect's output.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace aorta::detail {

class git_repository {
public:
  // Refuses (usage_error, 64) a directory that does not exist or is not inside a git work tree.
  explicit git_repository(std::filesystem::path directory);

  [[nodiscard]] const std::filesystem::path& top_level() const noexcept { return m_top; }
  // The full id of `revision` as a commit; usage_error naming `option` and the fix when it names
  // none (or looks like an option).
  [[nodiscard]] std::string commit_of(const std::string& revision, const std::string& option) const;
  [[nodiscard]] bool is_ancestor(const std::string& older, const std::string& newer) const;
  // The commits after `good` up to and including `bad`, oldest first, along bad's first parents.
  [[nodiscard]] std::vector<std::string> first_parent_range(const std::string& good,
                                                            const std::string& bad) const;
  [[nodiscard]] std::string first_parent(const std::string& commit) const;
  [[nodiscard]] std::string subject(const std::string& commit) const;
  // A detached worktree of `commit` at `path`, or the one already there when it is at that commit.
  // Throws setup_error when git refuses, or when `path` holds something else.
  void add_worktree(const std::filesystem::path& path, const std::string& commit) const;

private:
  struct git_output {
    int status = -1;
    std::vector<std::string> lines;
    std::string error;
  };
  [[nodiscard]] git_output run(const std::vector<std::string>& arguments,
                               const std::filesystem::path& where = {}) const;

  std::filesystem::path m_top;
};

}  // namespace aorta::detail
