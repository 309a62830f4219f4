// `aorta collectors`: the registry as a table (or JSON), so help, docs and tests read the one list
// of collectors instead of keeping their own.
#include "aorta/collector.hpp"
#include "aorta/launch_plan.hpp"
#include "cli/commands.hpp"
#include "json_text.hpp"
#include "sweep/sweep_steps.hpp"
#include "sweep/tool_versions.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>
#include <memory>
#include <optional>

namespace aorta::cli {
namespace {

std::string platforms_of(const collector_base& collector) {
  if (!collector.attaches()) return "-";
  return to_string(collector.platforms(*collector.parse_options({})));
}

// Why `collector` cannot capture on this machine (no GPU, its tool missing), asked as a sweep asks
// before its first trial; nullopt when it can. The validated-only collectors capture nothing.
std::optional<std::string> unusable_here(const collector_base& collector, const env_map& env) {
  if (!collector.attaches()) return "validated only: a recipe may name it, nothing captures";
  recipe spec;
  spec.collect.push_back(collector_request{std::string(collector.name()), {}, {}, nullptr});
  const auto versions = detail::tool_versions(spec, {}, env);
  return detail::unavailable_collector(spec, env, versions);
}

int print_collectors(bool json) {
  const env_map env = current_environment();
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto* collector : collectors()) {
      rows.push_back({{"name", collector->name()},
                      {"summary", collector->summary()},
                      {"attaches", collector->attaches()},
                      {"gpu", collector->profiles_gpu()},
                      {"platforms", platforms_of(*collector)}});
      const auto why_not = unusable_here(*collector, env);
      rows.back()["usable_here"] = !why_not.has_value();
      rows.back()["why_not"] = why_not.value_or("");
    }
    std::cout << detail::dump_json(rows, 2) << '\n';
    return 0;
  }
  fmt::print(std::cout, "{:<15} {:<13} {:<5} {}\n", "collector", "platforms", "here",
             "what it captures");
  std::vector<std::string> reasons;
  for (const auto* collector : collectors()) {
    const auto why_not = unusable_here(*collector, env);
    fmt::print(std::cout, "{:<15} {:<13} {:<5} {}\n", collector->name(), platforms_of(*collector),
               why_not ? (collector->attaches() ? "no" : "-") : "yes", collector->summary());
    if (why_not) reasons.push_back(fmt::format("{}: {}", collector->name(), *why_not));
  }
  if (!reasons.empty()) fmt::print(std::cout, "\nnot usable on this machine:\n");
  for (const auto& reason : reasons) fmt::print(std::cout, "  {}\n", reason);
  return 0;
}

}  // namespace

void add_collectors_command(CLI::App& app, action& selected) {
  auto* command = app.add_subcommand(
      "collectors", "List the collectors a recipe can name, in wrap order (outermost first), "
                    "and whether each can capture on this machine (and why not)");
  auto json = std::make_shared<bool>(false);
  command->add_flag("--json", *json, "Print the list as JSON");
  command->callback([&selected, json] { selected = [json] { return print_collectors(*json); }; });
}

}  // namespace aorta::cli
