// `aorta collectors`: the registry as a table (or JSON), so help, docs and tests read the one list
// of collectors instead of keeping their own.
#include "aorta/collector.hpp"
#include "cli/commands.hpp"
#include "json_text.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <memory>

namespace aorta::cli {
namespace {

std::string platforms_of(const collector_base& collector) {
  if (!collector.attaches()) return "-";
  return to_string(collector.platforms(*collector.parse_options({})));
}

int print_collectors(bool json) {
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto* collector : collectors()) {
      rows.push_back({{"name", collector->name()},
                      {"summary", collector->summary()},
                      {"attaches", collector->attaches()},
                      {"gpu", collector->profiles_gpu()},
                      {"platforms", platforms_of(*collector)}});
    }
    std::cout << detail::dump_json(rows, 2) << '\n';
    return 0;
  }
  fmt::print(std::cout, "{:<15} {:<13} {}\n", "collector", "platforms", "what it captures");
  for (const auto* collector : collectors()) {
    fmt::print(std::cout, "{:<15} {:<13} {}\n", collector->name(), platforms_of(*collector),
               collector->summary());
  }
  return 0;
}

}  // namespace

void add_collectors_command(CLI::App& app, action& selected) {
  auto* command = app.add_subcommand(
      "collectors", "List the collectors a recipe can name, in wrap order (outermost first)");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print the list as JSON");
  command->callback([&selected, json] { selected = [json] { return print_collectors(*json); }; });
}

}  // namespace aorta::cli
