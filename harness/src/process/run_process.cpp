#include "process/process.hpp"

#include "aorta/error.hpp"
#include "process/child_group.hpp"
#include "process/descendants.hpp"
#include "process/executable_lookup.hpp"
#include "process/group_keeper.hpp"
#include "process/output_pump.hpp"
#include "process/signal_forwarding.hpp"
#include "process/unique_fd.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace aorta {
namespace {

using detail::unique_fd;
using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How often a quiet child is checked for exit, forwarded signals and deadlines.
constexpr milliseconds status_check_interval{20};
// After the group is gone, output may still be held by processes that left the group (setsid):
// read what they wrote so far, but do not wait on them.
constexpr milliseconds orphaned_output_limit{1000};
// How long the group's last members and the escaped processes get to die and be reaped.
constexpr milliseconds orphan_sweep_limit{3000};

std::string describe_start_failure(const std::string& argv0, const std::string& reason) {
  return "cannot start '" + argv0 + "': " + reason;
}

unique_fd open_log(const std::filesystem::path& path) {
  // O_NOFOLLOW: a symlink planted where a log goes is refused, never written through.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int failure = errno;
    throw setup_error("cannot open log file '" + path.string() + "' for writing: " +
                      std::strerror(failure) + " (its directory must exist and be writable)");
  }
  return unique_fd(fd);
}

struct pipe_pair {
  unique_fd read_end;
  unique_fd write_end;
};

// O_CLOEXEC on both ends: only the dup2'd copies reach the child, and no other child spawned
// meanwhile (by another thread) inherits a write end that would keep our reads from ending.
pipe_pair open_pipe() {
  int ends[2] = {-1, -1};
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    const int failure = errno;
    throw setup_error(std::string("cannot create a pipe for the child's output: ") +
                      std::strerror(failure));
  }
  return {unique_fd(ends[0]), unique_fd(ends[1])};
}

// posix_spawn wants NULL-terminated arrays of mutable strings; this keeps the storage alive.
class c_string_array {
public:
  explicit c_string_array(std::vector<std::string> strings) : m_strings(std::move(strings)) {
    for (auto& text : m_strings) m_pointers.push_back(text.data());
    m_pointers.push_back(nullptr);
  }
  [[nodiscard]] char* const* get() noexcept { return m_pointers.data(); }

private:
  std::vector<std::string> m_strings;
  std::vector<char*> m_pointers;
};

std::vector<std::string> environment_entries(const env_map& environment) {
  std::vector<std::string> entries;
  entries.reserve(environment.size());
  for (const auto& [name, value] : environment) {
    if (name.empty() || name.find('=') != std::string::npos) {
      throw setup_error("cannot start the command: environment variable name '" + name +
                        "' is empty or contains '='; remove it from the child's environment");
    }
    entries.push_back(name + "=" + value);
  }
  return entries;
}

class spawn_setup {
public:
  spawn_setup() {
    ::posix_spawn_file_actions_init(&m_actions);
    ::posix_spawnattr_init(&m_attributes);
  }
  spawn_setup(const spawn_setup&) = delete;
  spawn_setup& operator=(const spawn_setup&) = delete;
  ~spawn_setup() {
    ::posix_spawn_file_actions_destroy(&m_actions);
    ::posix_spawnattr_destroy(&m_attributes);
  }

  // Returns 0 or an errno value.
  int configure(int stdout_fd, int stderr_fd, const std::filesystem::path& working_directory) {
    int failure = ::posix_spawn_file_actions_adddup2(&m_actions, stdout_fd, STDOUT_FILENO);
    if (failure == 0) {
      failure = ::posix_spawn_file_actions_adddup2(&m_actions, stderr_fd, STDERR_FILENO);
    }
    if (failure == 0 && !working_directory.empty()) {
      failure = ::posix_spawn_file_actions_addchdir_np(&m_actions, working_directory.c_str());
    }
    if (failure != 0) return failure;

    sigset_t empty_mask;
    sigemptyset(&empty_mask);
    // SIGPIPE and SIGXFSZ back to default: pipelines in the payload (`yes | head`) and its own
    // `ulimit -f` rely on them even when aorta itself ignores them.
    sigset_t defaulted;
    sigemptyset(&defaulted);
    sigaddset(&defaulted, SIGPIPE);
    sigaddset(&defaulted, SIGXFSZ);
    failure = ::posix_spawnattr_setflags(
        &m_attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (failure == 0) failure = ::posix_spawnattr_setpgroup(&m_attributes, 0);
    if (failure == 0) failure = ::posix_spawnattr_setsigmask(&m_attributes, &empty_mask);
    if (failure == 0) failure = ::posix_spawnattr_setsigdefault(&m_attributes, &defaulted);
    return failure;
  }

  [[nodiscard]] const posix_spawn_file_actions_t* actions() const noexcept { return &m_actions; }
  [[nodiscard]] const posix_spawnattr_t* attributes() const noexcept { return &m_attributes; }

private:
  posix_spawn_file_actions_t m_actions{};
  posix_spawnattr_t m_attributes{};
};

milliseconds until(steady::time_point deadline, steady::time_point now) {
  return std::max(milliseconds(0), std::chrono::ceil<milliseconds>(deadline - now));
}

void record_status(process_result& result, int status) {
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
}

// The child's log files; one file for both streams shares one offset, so neither overwrites the
// other.
struct output_logs {
  unique_fd stdout_log;
  unique_fd stderr_log;
  bool shared = false;

  explicit output_logs(const process_spec& spec) {
    if (!spec.stdout_log.empty()) stdout_log = open_log(spec.stdout_log);
    shared = !spec.stderr_log.empty() && !spec.stdout_log.empty() &&
             std::filesystem::absolute(spec.stderr_log).lexically_normal() ==
                 std::filesystem::absolute(spec.stdout_log).lexically_normal();
    if (!spec.stderr_log.empty() && !shared) stderr_log = open_log(spec.stderr_log);
  }
  [[nodiscard]] int stderr_fd() const { return shared ? stdout_log.get() : stderr_log.get(); }
};

// What can be refused before anything starts: an empty argv, a missing working directory, an
// executable not found, a timeout past the largest accepted. Returns the executable's path.
std::string checked_executable(const process_spec& spec) {
  if (spec.argv.empty()) throw setup_error("cannot start the command: its argv is empty");
  const std::string& argv0 = spec.argv.front();
  if (!spec.working_directory.empty() && !std::filesystem::is_directory(spec.working_directory)) {
    throw setup_error(describe_start_failure(
        argv0, "working directory '" + spec.working_directory.string() + "' is not a directory"));
  }
  return detail::resolve_executable(argv0, spec.environment, spec.working_directory);
}

// The deadlines of one run after the spawn (timeout, SIGKILL after the grace, the stop probe,
// the drain of output held by escaped processes) and what they did, turn by turn of the loop.
class run_deadlines {
public:
  run_deadlines(const process_spec& spec, steady::time_point start)
      : m_spec(spec), m_start(start),
        m_next_stop_check(spec.stop_when ? start + spec.stop_check_interval : never) {
    m_result.kill_grace_seconds = std::chrono::duration<double>(spec.kill_grace).count();
    if (spec.timeout > milliseconds(0)) m_timeout_at = start + spec.timeout;
  }

  // Forwarded signals, the timeout, the stop probe, the grace, then a reap.
  void check(detail::child_group& child, detail::signal_forwarding& forwarding,
             steady::time_point now) {
    for (const int signal_number : forwarding.take_pending()) {
      if (signal_number == 0) continue;
      if (m_result.interrupted_by) {
        child.signal_all(SIGKILL);  // asked twice: stop waiting for it
      } else {
        m_result.interrupted_by = signal_number;
        begin_ending(child, now, signal_number);
      }
    }
    if (m_timeout_at && !m_result.timed_out && now >= *m_timeout_at) {
      m_result.timed_out = true;
      m_result.timeout_seconds = std::chrono::duration<double>(m_spec.timeout).count();
      begin_ending(child, now, SIGTERM);
    }
    if (now >= m_next_stop_check) {
      if (m_spec.stop_when()) {
        m_result.stopped = true;
        begin_ending(child, now, SIGTERM);
      } else {
        m_next_stop_check = steady::now() + m_spec.stop_check_interval;
      }
    }
    if (m_kill_at != never && now >= m_kill_at) {
      child.signal_all(SIGKILL);
      m_result.killed_after_grace = true;
      m_kill_at = never;
    }
    const auto status = child.try_reap();
    if (child.reaped()) {
      const auto ended = steady::now();
      m_result.wall_seconds = std::chrono::duration<double>(ended - m_start).count();
      if (status) record_status(m_result, *status);
      m_drain_until = ended + orphaned_output_limit;
    }
  }

  // How long the pump may wait for output, or nullopt when the run is over.
  [[nodiscard]] std::optional<milliseconds> wait(const detail::child_group& child,
                                                 const detail::output_pump& pump,
                                                 steady::time_point now) const {
    auto wait = status_check_interval;
    if (child.reaped()) {
      if (!pump.any_open() || now >= m_drain_until) return std::nullopt;
      return std::min(wait, until(m_drain_until, now));
    }
    if (m_timeout_at && !m_result.timed_out) wait = std::min(wait, until(*m_timeout_at, now));
    if (m_kill_at != never) wait = std::min(wait, until(m_kill_at, now));
    return wait;
  }

  [[nodiscard]] process_result& result() noexcept { return m_result; }

private:
  // time_point::max() = no SIGKILL scheduled (an optional here trips GCC 12's
  // -Wmaybe-uninitialized at -O2).
  static constexpr steady::time_point never = steady::time_point::max();

  // SIGTERM now, SIGKILL after the grace unless one is already scheduled.
  void begin_ending(const detail::child_group& child, steady::time_point now, int signal_number) {
    child.signal_all(signal_number);
    if (m_kill_at == never) m_kill_at = now + m_spec.kill_grace;
    m_next_stop_check = never;
  }

  const process_spec& m_spec;
  steady::time_point m_start;
  process_result m_result;
  std::optional<steady::time_point> m_timeout_at;
  steady::time_point m_kill_at = never;
  steady::time_point m_drain_until{};
  steady::time_point m_next_stop_check;
};

}  // namespace

process_result run_process(const process_spec& spec) {
  const std::string executable = checked_executable(spec);
  const std::string& argv0 = spec.argv.front();
  c_string_array argv(spec.argv);
  c_string_array envp(environment_entries(spec.environment));
  const output_logs logs(spec);
  pipe_pair out = open_pipe();
  pipe_pair err = open_pipe();

  spawn_setup setup;
  if (const int failure =
          setup.configure(out.write_end.get(), err.write_end.get(), spec.working_directory);
      failure != 0) {
    throw setup_error(describe_start_failure(argv0, std::strerror(failure)));
  }

  // Whatever we printed before must come out before the child's output.
  std::fflush(stdout);
  std::fflush(stderr);

  if (spec.timeout >= max_process_timeout) {
    throw setup_error(describe_start_failure(
        argv0, fmt::format("timeout of {} ms is beyond the largest accepted ({} h)",
                           spec.timeout.count(), max_process_timeout.count())));
  }
  detail::become_subreaper();
  // Forked before the spawn, so it exists by the time there is a group to take down.
  detail::group_keeper keeper;
  // Installed before the spawn so that a Ctrl-C arriving during it is forwarded, not lost.
  detail::signal_forwarding forwarding;
  const auto start = steady::now();
  pid_t pid = -1;
  if (const int failure = detail::spawn_registered(pid,
                                                   [&](pid_t& spawned) {
                                                     return ::posix_spawn(
                                                         &spawned, executable.c_str(),
                                                         setup.actions(), setup.attributes(),
                                                         argv.get(), envp.get());
                                                   });
      failure != 0) {
    const std::string where = executable == argv0 ? "" : " (" + executable + ")";
    throw setup_error("cannot start '" + argv0 + "'" + where + ": " + std::strerror(failure));
  }
  keeper.watch(pid);
  detail::child_group child(pid);
  // Readable once the child exits, so the loop wakes at once instead of at its next status check
  // (which otherwise adds up to status_check_interval to every run). Absent on kernels before
  // 5.3: then the periodic check alone notices the exit.
  const detail::unique_fd exit_notice(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  out.write_end.reset();
  err.write_end.reset();

  detail::output_pump pump;
  pump.add(std::move(out.read_end), logs.stdout_log.get(), spec.stdout_log,
           spec.echo ? STDOUT_FILENO : -1);
  pump.add(std::move(err.read_end), logs.stderr_fd(),
           logs.shared ? spec.stdout_log : spec.stderr_log, spec.echo ? STDERR_FILENO : -1);

  run_deadlines deadlines(spec, start);
  while (true) {
    const auto now = steady::now();
    if (!child.reaped()) deadlines.check(child, forwarding, now);
    const std::optional<milliseconds> wait = deadlines.wait(child, pump, now);
    if (!wait) break;
    pump.pump(*wait, child.reaped() ? -1 : exit_notice.get());
  }
  pump.abandon();
  process_result result = std::move(deadlines.result());
  result.escaped = detail::end_orphans(pid, orphan_sweep_limit);
  result.log_failure = pump.log_failure();
  return result;
}

}  // namespace aorta
