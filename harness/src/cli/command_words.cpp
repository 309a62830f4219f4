#include "cli/command_words.hpp"

#include "aorta/error.hpp"
#include "option_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <map>
#include <memory>

namespace aorta::cli {
namespace {

// Guesses a new user makes for a command that exists under another name.
const std::map<std::string, std::string, std::less<>>& usual_guesses() {
  static const std::map<std::string, std::string, std::less<>> guesses = {
      {"run", "sweep run"},          {"test", "sweep run"},     {"profile", "sweep run"},
      {"record", "baseline record"}, {"show", "baseline show"}, {"diff", "compare"},
      {"list", "collectors"},        {"gate", "compare"}};
  return guesses;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(command->get_name());
  }
  return names;
}

// One usage line per command that takes a payload after `--`.
const std::map<std::string, std::string, std::less<>>& payload_usages() {
  static const std::map<std::string, std::string, std::less<>> usages = {
      {"sweep run", "aorta sweep run --recipe RECIPE --output DIR [OPTIONS] -- CMD [ARG...]"},
      {"ab", "aorta ab --recipe RECIPE --output DIR --base PROG --head PROG [OPTIONS] -- "
             "[ARG...]"},
      {"calibrate", "aorta calibrate --recipe RECIPE --output DIR --into DIR [OPTIONS] -- CMD "
                    "[ARG...]"},
      {"bisect", "aorta bisect --good REV --bad REV --build CMD --recipe RECIPE --output DIR "
                 "[OPTIONS] -- COMMAND [ARG...]"},
      {"rank-exec", "aorta rank-exec --trial-dir DIR [OPTIONS] -- CMD [ARG...]"}};
  return usages;
}

// The value name of each option (by its first long name) and positional (by its name).
const std::map<std::string, std::string, std::less<>>& value_names() {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"--recipe", "RECIPE"},
      {"--output", "DIR"},
      {"--check", "EXPR"},
      {"--collectors", "LIST"},
      {"--collector", "NAME"},
      {"--trials", "N"},
      {"--timeout", "SECONDS"},
      {"--measure", "METRIC"},
      {"--platforms", "LIST"},
      {"--baseline", "DIR"},
      {"--test-name", "NAME"},
      {"--gate", "SPEC"},
      {"--baseline-cell", "CELL"},
      {"--confound-threshold", "RATIO"},
      {"--ambiguous", "POLICY"},
      {"--seed", "N"},
      {"--mitigations-file", "FILE"},
      {"--base", "PROG"},
      {"--head", "PROG"},
      {"--into", "DIR"},
      {"--gate-trials", "N"},
      {"--min-trials", "N"},
      {"--alpha", "P"},
      {"--trial-dir", "DIR"},
      {"--rank-from", "LIST"},
      {"--metric", "METRIC"},
      {"--depth", "N"},
      {"--sort", "KEY"},
      {"--commit", "REV"},
      {"--branch", "NAME"},
      {"--time", "ISO-8601"},
      {"--history", "STORE"},
      {"--history-commits", "N"},
      {"--max-p", "P"},
      {"--permutations", "N"},
      {"--min-commits", "N"},
      {"--test", "NAME"},
      {"--quantity", "NAME"},
      {"--good", "REV"},
      {"--bad", "REV"},
      {"--build", "CMD"},
      {"--repo", "DIR"},
      {"--rounds", "N"},
      {"--max-rounds", "N"},
      {"--html", "FILE"},
      {"--events-jsonl", "FILE"},
      {"recipe", "RECIPE"},
      {"path", "PATH"},
      {"results", "DIR"},
      {"dir", "DIR"},
      {"base", "DIR"},
      {"new", "DIR"},
      {"command", "COMMAND"},
      {"directories", "DIR"},
      {"test", "TEST"},
      {"quantity", "QUANTITY"},
      {"a", "A"},
      {"b", "B"}};
  return names;
}

void name_values(CLI::App& command) {
  for (auto* option : command.get_options()) {
    if (option->get_type_size() == 0) continue;  // a flag
    const auto& long_names = option->get_lnames();
    const std::string key = option->get_positional() && long_names.empty()
                                ? option->get_name()
                                : (long_names.empty() ? "" : "--" + long_names.front());
    const auto found = value_names().find(key);
    if (found != value_names().end()) option->type_name(found->second);
  }
  for (auto* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    name_values(*sub);
  }
}

}  // namespace

void add_help_command(CLI::App& app, action& selected) {
  auto* help = app.add_subcommand("help", "aorta help [COMMAND [SUBCOMMAND]]: the help of aorta "
                                          "or of one command (as COMMAND --help)");
  auto words = std::make_shared<std::vector<std::string>>();
  help->add_option("command", *words, "The command, e.g. ab or sweep run");
  help->callback([&selected, &app, words] {
    selected = [&app, words] {
      const CLI::App* target = &app;
      std::string path;
      for (const auto& word : *words) {
        const auto matches =
            target->get_subcommands([&word](const CLI::App* sub) { return sub->check_name(word); });
        if (matches.empty()) {
          throw usage_error(path.empty() ? unknown_command_message(app, word)
                                         : fmt::format("'aorta {}' has no command '{}'; see "
                                                       "'aorta help {}'",
                                                       path, word, path));
        }
        target = matches.front();
        path += (path.empty() ? "" : " ") + word;
      }
      // CLI11 names a subcommand's usage after the words above it: "Usage: aorta sweep run".
      const std::string above = path.rfind(' ') == std::string::npos
                                    ? "aorta"
                                    : "aorta " + path.substr(0, path.rfind(' '));
      // Asked of the top level after a parse, CLI11 would print the entered command's (help's).
      std::cout << (target == &app ? app.get_formatter()->make_help(&app, app.get_name(),
                                                                    CLI::AppFormatMode::Normal)
                                   : target->help(above));
      return 0;
    };
  });
}

std::string unknown_command_message(const CLI::App& app, const std::string& word) {
  const auto names = command_names(app);
  std::string suggestion;
  if (const auto guess = usual_guesses().find(word); guess != usual_guesses().end()) {
    suggestion = fmt::format(" Did you mean 'aorta {}'?", guess->second);
  } else if (const auto close = detail::closest_match(word, names)) {
    suggestion = fmt::format(" Did you mean 'aorta {}'?", *close);
  }
  return fmt::format("'{}' is not an aorta command.{} The commands are {} (see 'aorta help')", word,
                     suggestion, fmt::join(names, ", "));
}

std::string missing_command_message(const CLI::App& app) {
  return fmt::format("no command given. Usage: aorta COMMAND [OPTIONS] [-- CMD [ARG...]]; the "
                     "commands are {}. 'aorta help COMMAND' describes one",
                     fmt::join(command_names(app), ", "));
}

bool takes_payload(const std::string& command_path) {
  return payload_usages().contains(command_path);
}

std::string stray_arguments_message(const std::string& command_path,
                                    const std::vector<std::string>& stray, bool separator_seen) {
  const std::string listed = fmt::format("{}", fmt::join(stray, " "));
  const auto usage = payload_usages().find(command_path);
  if (usage != payload_usages().end() && !separator_seen) {
    return fmt::format("{}: unexpected argument(s): {}; missing '--' separator before the "
                       "command? Usage: {}",
                       command_path, listed, usage->second);
  }
  return fmt::format("{}: unexpected argument(s): {}; see 'aorta {} --help'", command_path, listed,
                     command_path);
}

void apply_value_names(CLI::App& app) {
  name_values(app);
}

}  // namespace aorta::cli
