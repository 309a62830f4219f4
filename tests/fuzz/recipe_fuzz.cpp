// Fuzz target: the recipe loader (YAML, or strict JSON when the input starts with '{'), its
// collector option validation, the cells it plans (axes, stacks, diagnostics, the cell limit)
// and the compilation of the recipe's check expressions. An input holding the line
// `#--- mitigations file ---` is two files: the recipe before it and a `--mitigations-file`
// after it (issue 46: recipes with cells and mitigations files).
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "fuzz_input_file.hpp"

#include <string_view>
#include <vector>

namespace {
constexpr std::string_view mitigations_separator = "\n#--- mitigations file ---\n";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find(mitigations_separator);
  const std::string_view recipe_text = input.substr(0, split);
  const bool json = !recipe_text.empty() && recipe_text.front() == '{';
  const auto file = aorta::fuzz::write_input(
      reinterpret_cast<const std::uint8_t*>(recipe_text.data()), recipe_text.size(),
      json ? "recipe.json" : "recipe.yaml");
  std::vector<std::filesystem::path> mitigations_files;
  if (split != std::string_view::npos) {
    const std::string_view rest = input.substr(split + mitigations_separator.size());
    mitigations_files.push_back(aorta::fuzz::write_input(
        reinterpret_cast<const std::uint8_t*>(rest.data()), rest.size(), "mitigations.json"));
  }
  try {
    const aorta::recipe spec = aorta::load_recipe(file, mitigations_files);
    (void)aorta::parse_checks(spec, {});
  } catch (const aorta::error&) {
  }
  return 0;
}
