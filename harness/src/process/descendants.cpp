#include "process/descendants.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>

namespace aorta::detail {
namespace {

std::mutex g_registry_mutex;
std::set<pid_t> g_registered;

struct process_status {
  pid_t parent = 0;
  pid_t group = 0;
  char state = '?';
};

// Fields after the command name in /proc/<pid>/stat: "S ppid pgrp ..."; the name may hold
// spaces and parentheses, so parsing starts after the last ')'.
std::optional<process_status> read_status(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  const auto name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(name_end + 1));
  process_status status;
  if (!(rest >> status.state >> status.parent >> status.group)) return std::nullopt;
  return status;
}

// "sleep 300" from /proc/<pid>/cmdline (NULs become spaces), at most 200 characters.
std::string command_of(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  while (!text.empty() && text.back() == '\0') text.pop_back();
  for (char& c : text) {
    if (c == '\0') c = ' ';
  }
  if (text.size() > 200) text = text.substr(0, 200) + "...";
  return text.empty() ? "(command unknown)" : text;
}

struct child_entry {
  pid_t pid;
  process_status status;
};

// The children as each thread's /proc/self/task/<tid>/children lists them (an orphan re-parents
// to one of this process's threads); nullopt where the kernel has no such file.
std::optional<std::vector<pid_t>> listed_children() {
  std::vector<pid_t> pids;
  bool listed = false;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream file(task.path() / "children");
    if (!file) return std::nullopt;
    listed = true;
    pid_t pid = 0;
    while (file >> pid) pids.push_back(pid);
  }
  if (ec || !listed) return std::nullopt;
  return pids;
}

// Every process on the machine, for kernels without the children files.
std::vector<pid_t> every_process() {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

// Runs once per trial: the children files cost a read per child, where a scan of /proc costs a
// read per process on the machine (milliseconds on a busy CI host).
std::vector<child_entry> children_of_self() {
  std::vector<child_entry> children;
  const pid_t self = ::getpid();
  auto pids = listed_children();
  if (!pids) pids = every_process();
  for (const pid_t pid : *pids) {
    if (const auto status = read_status(pid); status && status->parent == self) {
      children.push_back({pid, *status});
    }
  }
  return children;
}

}  // namespace

void become_subreaper() noexcept {
  static const bool done = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
  static_cast<void>(done);
}

int spawn_registered(pid_t& pid, const std::function<int(pid_t&)>& spawn) {
  const std::lock_guard lock(g_registry_mutex);
  const int failure = spawn(pid);
  if (failure == 0) g_registered.insert(pid);
  return failure;
}

pid_t fork_registered_child(const std::function<void()>& in_child) {
  const std::lock_guard lock(g_registry_mutex);
  const pid_t pid = ::fork();
  if (pid == 0) {
    in_child();
    ::_exit(0);
  }
  if (pid > 0) g_registered.insert(pid);
  return pid;
}

std::optional<int> reap_registered_child(pid_t pid) noexcept {
  const std::lock_guard lock(g_registry_mutex);
  int status = 0;
  pid_t got = -1;
  do {
    got = ::waitpid(pid, &status, 0);
  } while (got < 0 && errno == EINTR);
  g_registered.erase(pid);
  if (got != pid) return std::nullopt;
  return status;
}

std::vector<escaped_process> end_orphans(pid_t group, std::chrono::milliseconds limit) {
  std::vector<escaped_process> escaped;
  std::set<pid_t> reported;
  const auto give_up = std::chrono::steady_clock::now() + limit;
  while (true) {
    // Members still dying may yet orphan children of their own: wait for the group to empty.
    const bool group_alive = ::kill(-group, 0) == 0 || errno == EPERM;
    bool strays = false;
    {
      const std::lock_guard lock(g_registry_mutex);
      for (const auto& [pid, status] : children_of_self()) {
        if (g_registered.contains(pid)) continue;
        strays = true;
        if (status.state == 'Z') {
          int ignored = 0;
          ::waitpid(pid, &ignored, WNOHANG);
          continue;
        }
        if (status.group != group && reported.insert(pid).second) {
          escaped.push_back({pid, command_of(pid)});
        }
        // While pid is alive and unreaped, the group named by its id can only be its own.
        if (status.group == pid) ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
      }
    }
    if (!strays && !group_alive) break;
    if (std::chrono::steady_clock::now() >= give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return escaped;
}

}  // namespace aorta::detail
