// Fuzz target: the recipe loader (YAML, or strict JSON when the input starts with '{'), its
// collector option validation, and the compilation of the recipe's check expressions.
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/sweep.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool json = size > 0 && data[0] == '{';
  const auto file = aorta::fuzz::write_input(data, size, json ? "recipe.json" : "recipe.yaml");
  try {
    const aorta::recipe spec = aorta::load_recipe(file);
    (void)aorta::parse_checks(spec, {});
  } catch (const aorta::error&) {
  }
  return 0;
}
