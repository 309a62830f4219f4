// `aorta history changes` and `aorta history show`: the store's series read back, their change
// points found (history/change_points.hpp) and printed for people or as JSON.
#pragma once

#include "history/change_points.hpp"

#include <string>

namespace aorta::cli {

struct history_view_flags {
  std::string store;
  std::string test;      // "" for every test
  std::string quantity;  // "" for every quantity
  bool json = false;
  bool full_pass = false;  // ignore the detector's saved state (docs/history.md)
  detail::change_point_options detector;
};

// Every change of every matching series; exit 0 (a listing, not a verdict).
int print_history_changes(const history_view_flags& flags);
// Per commit of each series of flags.test: median, spread, and the change points marked. Exit 1
// when the store has no such series.
int print_history_show(const history_view_flags& flags);

}  // namespace aorta::cli
