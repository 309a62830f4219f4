// Names as people read them: kernel names demangled by the C++ ABI's demangler and shortened to
// fit a column, and callgrind's functions ranked with the program's own first.
#pragma once

#include "aorta/metrics.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

// abi::__cxa_demangle of an Itanium-mangled name (`_Z...`); any other name unchanged.
[[nodiscard]] std::string demangled_name(std::string_view name);

// The demangled name without its return type and parameter list (`void f<int>(float*)` ->
// `f<int>`), then, if still longer than `width`, its head and tail around "…" so that two
// instantiations differing at the end stay distinguishable. Counts bytes; `width` >= 8.
[[nodiscard]] std::string short_name(std::string_view name, std::size_t width);

// `text` if it fits `width` bytes, else its head and tail around "…" (one column, three bytes).
[[nodiscard]] std::string ellipsized(std::string_view text, std::size_t width);

// The metric names of `metrics` in reading order, handed to `visit` one at a time (a report's
// cell of 200,000 metrics would copy each name once more into a list): everything but callgrind's
// per-function keys by name; then callgrind_ir./callgrind_self_ir. pairs by inclusive Ir, largest
// first, the program's own functions before the dynamic loader's and libc's, which are folded:
// their names go to `folded` (function names, largest first) instead of to `visit`.
void visit_ordered_metric_names(const metric_set& metrics, std::vector<std::string>& folded,
                                const std::function<void(std::string_view)>& visit);

// A dynamic-loader, libc or startup frame (`_dl_*`, `(below main)`, `__libc_start_main`, ...).
[[nodiscard]] bool is_system_frame(std::string_view function);

}  // namespace aorta::detail
