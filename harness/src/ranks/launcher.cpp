#include "ranks/launcher.hpp"

#include "aorta/error.hpp"
#include "collectors/executable_lookup.hpp"
#include "ranks/rank_identity.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace aorta::detail {
namespace {

// Options of each launcher that take a value as the next word. Any other option is read as a flag,
// so an option missing here must be written `--option=value` (docs/distributed.md).
constexpr std::array<std::string_view, 24> torchrun_value_options{
    "--nnodes",        "--nproc-per-node", "--nproc_per_node", "--rdzv-backend",
    "--rdzv_backend",  "--rdzv-endpoint",  "--rdzv_endpoint",  "--rdzv-id",
    "--rdzv_id",       "--rdzv-conf",      "--rdzv_conf",      "--max-restarts",
    "--max_restarts",  "--monitor-interval", "--monitor_interval", "--start-method",
    "--start_method",  "--role",           "--node-rank",      "--node_rank",
    "--master-addr",   "--master_addr",    "--master-port",    "--master_port"};
constexpr std::array<std::string_view, 7> torchrun_more_value_options{
    "--log-dir", "--log_dir", "-r", "--redirects", "-t", "--tee", "--local-addr"};

constexpr std::array<std::string_view, 30> mpi_value_options{
    "-n",         "-np",       "--n",           "--np",       "-c",          "-N",
    "-npernode",  "--npernode", "-ppn",         "-H",         "-host",       "--host",
    "-hosts",     "-hostfile", "--hostfile",    "-machinefile", "--machinefile", "-f",
    "-x",         "-map-by",   "--map-by",      "-bind-to",   "--bind-to",   "-rank-by",
    "--rank-by",  "-wdir",     "--wdir",        "-wd",        "--prefix",    "-output-filename"};
constexpr std::array<std::string_view, 7> mpi_two_value_options{"-mca", "--mca", "-gmca", "--gmca",
                                                                "-genv", "-env", "--env"};

constexpr std::array<std::string_view, 34> srun_value_options{
    "-n",        "-N",          "-c",           "-p",          "-t",        "-J",
    "-w",        "-x",          "-G",           "-A",          "-q",        "-o",
    "-e",        "-i",          "-D",           "-m",          "-C",        "-d",
    "--ntasks",  "--nodes",     "--cpus-per-task", "--partition", "--time", "--job-name",
    "--nodelist", "--exclude",  "--gpus",       "--gres",      "--account", "--qos",
    "--output",  "--error",     "--mem",        "--chdir"};

template <std::size_t N>
bool is_listed(const std::array<std::string_view, N>& options, std::string_view word) {
  return std::find(options.begin(), options.end(), word) != options.end();
}

std::optional<int> launcher_whole_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

// The value of `option` in argv[begin, end): `--opt V` or `--opt=V`.
std::optional<std::string> option_value(const std::vector<std::string>& argv, std::size_t end,
                                        std::initializer_list<std::string_view> names) {
  std::optional<std::string> value;
  for (std::size_t i = 1; i < end; ++i) {
    for (const auto name : names) {
      if (argv[i] == name && i + 1 < end) value = argv[i + 1];
      if (argv[i].starts_with(std::string(name) + "=")) value = argv[i].substr(name.size() + 1);
    }
  }
  return value;
}

// Index of the first word that is neither an option nor an option's value.
template <typename TakesValues>
std::size_t first_positional(const std::vector<std::string>& argv, std::size_t start,
                             TakesValues takes_values) {
  std::size_t i = start;
  while (i < argv.size()) {
    const std::string& word = argv[i];
    if (word == "--") return i + 1;
    if (word.size() < 2 || word.front() != '-') return i;
    i += 1 + (word.find('=') == std::string::npos ? takes_values(word) : 0);
  }
  return argv.size();
}

std::string shebang_interpreter(const std::string& command, const env_map& env) {
  const auto path = resolve_command(command, env);
  if (!path) return "python3";
  std::ifstream script(*path);
  std::string line;
  if (!std::getline(script, line) || !line.starts_with("#!")) return "python3";
  std::string_view rest(line);
  rest.remove_prefix(2);
  rest = trim_ends(rest, " ", " \r");
  if (rest.starts_with("/usr/bin/env ")) rest.remove_prefix(13);
  if (rest.empty() || rest.find(' ') != std::string_view::npos) return "python3";
  return std::string(rest);
}

launcher_split split_torchrun(const std::vector<std::string>& argv, std::size_t options_start,
                              std::string python) {
  launcher_split split;
  split.launcher = "torchrun";
  split.rank_variables = {"RANK"};
  bool no_python = false;
  bool module = false;
  const std::size_t script = first_positional(argv, options_start, [&](const std::string& word) {
    if (word == "--no-python" || word == "--no_python") no_python = true;
    if (word == "-m" || word == "--module") module = true;
    return is_listed(torchrun_value_options, word) || is_listed(torchrun_more_value_options, word)
               ? 1
               : 0;
  });
  if (script >= argv.size()) {
    throw usage_error(fmt::format(
        "cannot find the per-rank command in '{}': torchrun's training script should follow its "
        "options; an option aorta does not know must be written --option=value",
        fmt::join(argv, " ")));
  }
  for (std::size_t i = 0; i < script; ++i) {
    const bool own_flag = argv[i] == "--" || argv[i] == "-m" || argv[i] == "--module";
    if (i >= options_start && own_flag) continue;
    split.launcher_argv.push_back(argv[i]);
  }
  if (!no_python) split.launcher_argv.emplace_back("--no-python");
  if (!no_python) split.rank_command.push_back(python);
  if (module) split.rank_command.emplace_back("-m");
  split.rank_command.insert(split.rank_command.end(), argv.begin() + static_cast<long>(script),
                            argv.end());
  const auto per_node =
      option_value(argv, script, {"--nproc-per-node", "--nproc_per_node"}).value_or("1");
  const auto nodes = option_value(argv, script, {"--nnodes"}).value_or("1");
  const auto local = launcher_whole_number(per_node);
  const auto node_count = launcher_whole_number(nodes);
  if (local && node_count) {
    // In 64 bits and held just above max_ranks, so a huge product is refused, never wrapped.
    const long long product = static_cast<long long>(*local) * *node_count;
    split.ranks = static_cast<int>(std::min<long long>(product, max_ranks + 1LL));
  }
  return split;
}

}  // namespace

std::optional<launcher_split> split_launcher(const std::vector<std::string>& argv,
                                             const env_map& env) {
  if (argv.empty()) return std::nullopt;
  const std::string name = std::filesystem::path(argv[0]).filename().string();
  if (name == "torchrun") return split_torchrun(argv, 1, shebang_interpreter(argv[0], env));
  if (name.starts_with("python") && argv.size() > 2 && argv[1] == "-m" &&
      argv[2] == "torch.distributed.run") {
    launcher_split split = split_torchrun(argv, 3, argv[0]);
    return split;
  }

  launcher_split split;
  split.launcher = name;
  std::size_t command = 0;
  if (name == "mpirun" || name == "mpiexec" || name == "orterun" || name == "mpiexec.hydra") {
    split.rank_variables = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    command = first_positional(argv, 1, [](const std::string& word) {
      return is_listed(mpi_two_value_options, word) ? 2
             : is_listed(mpi_value_options, word)   ? 1
                                                    : 0;
    });
    const auto count = option_value(argv, command, {"-n", "-np", "--n", "--np", "-c"});
    if (count) split.ranks = launcher_whole_number(*count);
  } else if (name == "srun") {
    split.rank_variables = {"SLURM_PROCID"};
    command = first_positional(argv, 1, [](const std::string& word) {
      return is_listed(srun_value_options, word) ? 1 : 0;
    });
    const auto count = option_value(argv, command, {"-n", "--ntasks"});
    if (count) split.ranks = launcher_whole_number(*count);
  } else {
    return std::nullopt;
  }
  if (command >= argv.size()) {
    throw usage_error(fmt::format(
        "cannot find the per-rank command in '{}': the program each rank runs should follow {}'s "
        "options; an option aorta does not know must be written --option=value",
        fmt::join(argv, " "), name));
  }
  split.launcher_argv.assign(argv.begin(), argv.begin() + static_cast<long>(command));
  split.rank_command.assign(argv.begin() + static_cast<long>(command), argv.end());
  return split;
}

}  // namespace aorta::detail
