// Reads one row per line, `tolerance | base1 base2 ... | new1 new2 ...`, judges it as a timed
// `<= baseline + tolerance` row of the gate and prints its one-sided p-value and whether its
// estimate is past the bound, then Yuen's and Welch's t, df and p on the raw samples, for
// check_gate_test.py to compare with SciPy, and 1 when the row was judged by its process modes
// (baseline/gate_modes.hpp; check_process_modes.py checks those). A line `holm p1 p2 ...`
// prints the Holm-adjusted p-values instead.
#include "baseline/gate_rule.hpp"
#include "baseline/welch_p_values.hpp"

#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void print_holm(std::istringstream& words) {
  std::vector<double> p_values;
  for (std::string word; words >> word;) p_values.push_back(std::stod(word));
  for (const double p : aorta::detail::holm_adjusted(p_values)) fmt::print("{:.17g} ", p);
  fmt::print("\n");
}

void print_row(std::istringstream& words, double tolerance) {
  std::vector<double> base;
  std::vector<double> fresh;
  bool second = false;
  for (std::string word; words >> word;) {
    if (word == "|") {
      second = true;
    } else {
      (second ? fresh : base).push_back(std::stod(word));
    }
  }
  aorta::detail::gate_row row;
  row.quantity = aorta::check_quantity::time_ms;
  row.fraction = tolerance;
  row.base = base;
  row.fresh = fresh;
  aorta::detail::judge(row, aorta::detail::gate_params{});
  const auto yuen = aorta::detail::yuen_greater(fresh, base);
  const auto welch = aorta::detail::welch_greater(fresh, base);
  fmt::print("{:.17g} {:d} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:d}\n",
             row.p_value.value_or(-1.0), row.estimate_beyond ? 1 : 0, yuen.t, yuen.df, yuen.p_value,
             welch.t, welch.df, welch.p_value, row.modes ? 1 : 0);
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "holm") {
      print_holm(words);
      continue;
    }
    std::string bar;
    words >> bar;  // the '|' after the tolerance
    print_row(words, std::stod(first));
  }
  return 0;
}
