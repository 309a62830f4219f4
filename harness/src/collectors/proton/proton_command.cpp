// Mode cli's view of the payload command: which interpreter runs Proton, and what Proton runs.
#include "collectors/proton/proton_wrap.hpp"

#include "aorta/error.hpp"
#include "collectors/executable_lookup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

namespace aorta {
namespace {

constexpr std::string_view escape = "or switch the recipe to proton: {mode: env}";
constexpr std::string_view fallback_python = "python3";
// Interpreter flags that take no argument and do not change what gets run.
constexpr std::array<std::string_view, 10> safe_flags{"-u", "-B",  "-E", "-s", "-S",
                                                      "-O", "-OO", "-I", "-b", "-q"};

std::string basename_of(std::string_view command) {
  const auto slash = command.rfind('/');
  return std::string(slash == std::string_view::npos ? command : command.substr(slash + 1));
}

std::string proton_argv_text(const std::vector<std::string>& argv) {
  return fmt::format("{}", fmt::join(argv, " "));
}

// The interpreter a `#!` line runs: `#!/usr/bin/python3 -E` gives /usr/bin/python3,
// `#!/usr/bin/env [-S] [VAR=x] python3` gives python3. nullopt for a file without a shebang.
std::optional<std::string> shebang_command(const std::filesystem::path& script) {
  std::ifstream in(script);
  std::string line;
  if (!in || !std::getline(in, line) || !line.starts_with("#!")) return std::nullopt;
  std::istringstream words(line.substr(2));
  std::string word;
  if (!(words >> word)) return std::nullopt;
  if (basename_of(word) != "env") return word;
  while (words >> word) {
    if (word.starts_with("-") || word.find('=') != std::string::npos) continue;
    return word;
  }
  return std::string("env");
}

bool is_pytest(std::string_view command) {
  return basename_of(command) == "pytest";
}

python_choice pytest_interpreter(const std::string& command, const env_map& env) {
  const std::string fix =
      "set $AORTA_PROTON_PYTHON to the interpreter that has Triton and pytest installed";
  const auto pytest = detail::resolve_command(command, env);
  if (!pytest) {
    return {std::string(fallback_python),
            {fmt::format("proton: '{}' is not an executable file or on $PATH, so the interpreter "
                         "it belongs to is unknown; using {}; {}",
                         command, fallback_python, fix)}};
  }
  const auto interpreter = shebang_command(*pytest);
  if (interpreter && is_python_interpreter(*interpreter)) return {*interpreter, {}};
  return {std::string(fallback_python),
          {fmt::format("proton: the shebang of {} names {}, not a Python interpreter; using {}; {}",
                       pytest->string(),
                       interpreter ? "'" + *interpreter + "'" : std::string("nothing"),
                       fallback_python, fix)}};
}

[[noreturn]] void refuse_proton_command(const std::string& message) {
  throw recipe_error(fmt::format("{}; {}", message, escape));
}

}  // namespace

bool is_python_interpreter(std::string_view command) {
  const std::string name = basename_of(command);
  if (name == "python" || name == "python3") return true;
  if (!name.starts_with("python3.") || name.size() == 8) return false;
  return std::all_of(name.begin() + 8, name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

python_choice resolve_python(const std::vector<std::string>& argv, const env_map& env) {
  const auto override_entry = env.find("AORTA_PROTON_PYTHON");
  if (override_entry != env.end() && !override_entry->second.empty()) {
    return {detail::expand_home(override_entry->second, env), {}};
  }
  if (!argv.empty() && is_python_interpreter(argv.front())) return {argv.front(), {}};
  if (!argv.empty() && is_pytest(argv.front())) return pytest_interpreter(argv.front(), env);
  return {std::string(fallback_python), {}};
}

python_command split_python_command(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    refuse_proton_command(
        "proton: cannot wrap an empty argv; mode: cli needs a Python script or pytest command "
        "after '--'");
  }
  const std::string& program = argv.front();
  // Proton recognises its pytest target by the bare name and runs it inside its interpreter.
  if (is_pytest(program)) {
    python_command command;
    command.target.emplace_back("pytest");
    command.target.insert(command.target.end(), argv.begin() + 1, argv.end());
    return command;
  }
  if (!is_python_interpreter(program)) {
    refuse_proton_command(fmt::format(
        "proton: mode: cli needs a Python script launch (python script.py ..., python -m pytest "
        "... or pytest ...), got '{}' in '{}'; Proton's CLI runs only Python; to profile another "
        "command, let the payload call proton.start()/proton.finalize() itself",
        program, proton_argv_text(argv)));
  }
  python_command command;
  for (auto word = argv.begin() + 1; word != argv.end(); ++word) {
    if (!word->starts_with("-")) {
      command.target.assign(word, argv.end());
      return command;
    }
    if (std::find(safe_flags.begin(), safe_flags.end(), *word) != safe_flags.end()) {
      command.interpreter_flags.push_back(*word);
      continue;
    }
    if (word->starts_with("-m")) {
      std::string module = word->substr(2);
      if (module.empty()) {
        if (word + 1 == argv.end()) {
          refuse_proton_command(
              fmt::format("proton: saw '-m' with no module name in '{}'; name a script path "
                          "or '-m pytest'",
                          proton_argv_text(argv)));
        }
        module = *++word;
      }
      if (module != "pytest") {
        refuse_proton_command(fmt::format(
            "proton: cannot wrap 'python -m {}': Proton runs its target with runpy.run_path, "
            "which takes a script path, not a module; only '-m' with ['pytest'] is supported; "
            "run the module's script path instead",
            module));
      }
      command.target.emplace_back("pytest");
      command.target.insert(command.target.end(), word + 1, argv.end());
      return command;
    }
    refuse_proton_command(fmt::format(
        "proton: mode: cli cannot wrap the interpreter option '{}' in '{}'; supported are the "
        "no-argument flags {} and '-m' with ['pytest']; put the code in a script file",
        *word, proton_argv_text(argv), fmt::join(safe_flags, " ")));
  }
  refuse_proton_command(
      fmt::format("proton: mode: cli needs a script path after the interpreter, got '{}'; "
                  "add the script (python3 script.py ...)",
                  proton_argv_text(argv)));
}

}  // namespace aorta
