// Fuzz target: the check expression parser and evaluator. The first line of the input is the
// expression; each further line is a kernel name (and a scope and a function of that name) in a
// capture the expression is evaluated against, so regexes meet hostile names too.
#include "aorta/check.hpp"
#include "aorta/error.hpp"
#include "aorta/metrics.hpp"

#include <string_view>

namespace {

aorta::capture capture_of(std::string_view names) {
  aorta::capture made;
  made.collector = "fuzz";
  double ns = 1.0;
  while (!names.empty()) {
    const std::size_t end = names.find('\n');
    const std::string name(names.substr(0, end));
    made.kernels.push_back({name, 1, ns});
    made.scopes.push_back({name, name, ns, ns / 2});
    made.functions.push_back({name, 1, 2});
    ns *= 2;
    if (end == std::string_view::npos) break;
    names.remove_prefix(end + 1);
  }
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t end = input.find('\n');
  const std::string_view expression = input.substr(0, end);
  const std::string_view names = end == std::string_view::npos ? "" : input.substr(end + 1);
  try {
    const auto check = aorta::check_expression::parse(expression);
    const std::vector<aorta::capture> captures{capture_of(names)};
    const aorta::metric_set metrics = aorta::compute_metrics(captures.front());
    (void)aorta::evaluate_check(check, captures, metrics);
  } catch (const aorta::error&) {
  }
  return 0;
}
