#include "collectors/callgrind/callgrind_wrap.hpp"

#include "collectors/executable_lookup.hpp"

namespace aorta {

std::vector<std::string> callgrind_argv(const callgrind_options& options,
                                        const std::filesystem::path& output_dir,
                                        const std::string& valgrind_binary) {
  std::vector<std::string> argv{valgrind_binary, "--tool=callgrind",
                                "--callgrind-out-file=" +
                                    (output_dir / "callgrind.out.%p").string()};
  if (options.toggle_collect) argv.push_back("--toggle-collect=" + *options.toggle_collect);
  argv.emplace_back(options.cache_sim ? "--cache-sim=yes" : "--cache-sim=no");
  if (options.trace_children) argv.emplace_back("--trace-children=yes");
  // No banner or summary on stderr: it came before the verdict in every test's output, pushing
  // the check lines past the 1024 bytes CTest keeps of a passing test. Errors still print.
  argv.emplace_back("-q");
  return argv;
}

std::string resolve_valgrind_binary(const env_map& env) {
  return detail::resolve_tool(env, "VALGRIND_BIN", "valgrind", "callgrind",
                              "install valgrind (e.g. apt-get install valgrind)");
}

}  // namespace aorta
