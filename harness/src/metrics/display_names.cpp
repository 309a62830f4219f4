#include "metrics/display_names.hpp"

#include "aorta/name_regex.hpp"
#include "metrics/quantity_table.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

namespace aorta::detail {
namespace {

// The frames every dynamically linked program runs before and after main: the loader, libc's
// start-up and exit, its string/memory routines, CPU feature probing and unnamed addresses.
const name_regex& system_frames() {
  static const name_regex pattern = name_regex::compile(
      "^(_dl_|dl_|_dl_|__GI_|__libc_|_IO_|__tunable|__init_cpu|init_cpu|init_cacheinfo|"
      "handle_intel|intel_check|__x86_|__memcpy|__memset|__memmove|__mempcpy|__strlen|__strchr|"
      "__strcmp|__strnlen|__strrchr|__rawmemchr|__new_exitfn|__run_exit_handlers|"
      "__call_tls_dtors|__cxa_|_GLOBAL__sub_I|call_init|_init$|_fini$|_start$|exit$|"
      "0x[0-9a-f]+$|\\(below main\\)|std::ios_base::Init|\\?\\?\\?|do_lookup|openaux|"
      "check_match|version_check|match_symbol|elf_|strcmp|strlen|memcpy|memset|getenv|"
      "__sigsetjmp|__GI|_setjmp|init_tls|__sbrk|_dl)|"
      // callgrind names a function of a shared object as "f [file in object]".
      " in (ld-linux|ld-|libc\\.so|libc-|libm\\.so|libgcc_s|libstdc\\+\\+|libpthread)[^]]*\\]$");
  return pattern;
}

// `void ns::f<int>(float*)` -> `ns::f<int>`: the parameter list is the last top-level (...),
// the return type what precedes the last top-level space before the name.
std::string without_signature(std::string_view name) {
  if (name.starts_with("(")) return std::string(name);  // "(below main)"
  std::string_view text = name;
  if (!text.empty() && text.back() == ')') {
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
      if (text[i] == ')' || text[i] == '>') ++depth;
      if (text[i] == '(' || text[i] == '<') --depth;
      if (depth == 0) {
        if (i > 0) text = text.substr(0, i);
        break;
      }
    }
  }
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' || text[i] == '(') ++depth;
    if (text[i] == '>' || text[i] == ')') --depth;
    if (text[i] == ' ' && depth == 0) start = i + 1;
  }
  return std::string(text.substr(start));
}

}  // namespace

std::string demangled_name(std::string_view name) {
  if (!name.starts_with("_Z")) return std::string(name);
  const std::string mangled(name);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && plain ? std::string(plain.get()) : mangled;
}

std::string short_name(std::string_view name, std::size_t width) {
  width = std::max<std::size_t>(width, 8);
  std::string text = without_signature(demangled_name(name));
  if (text.empty()) text = demangled_name(name);
  return ellipsized(text, width);
}

std::string ellipsized(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 8);
  if (text.size() <= width) return std::string(text);
  const std::size_t keep = width - 1;
  const std::size_t tail = keep / 3;
  return std::string(text.substr(0, keep - tail)) + "…" +
         std::string(text.substr(text.size() - tail));
}

bool is_system_frame(std::string_view function) {
  return system_frames().search(function);
}

void visit_ordered_metric_names(const metric_set& metrics, std::vector<std::string>& folded,
                                const std::function<void(std::string_view)>& visit) {
  const std::string_view inclusive_prefix = inclusive_ir_row().metric_prefix;
  const std::string_view self_prefix = self_ir_row().metric_prefix;
  // Whether each function is a system frame, asked once: the sort would run the pattern on
  // every comparison.
  struct ranked_function {
    bool system;
    double inclusive_ir;
    std::string name;
  };
  std::vector<ranked_function> functions;
  for (const auto& [name, value] : metrics.values) {
    if (name.starts_with(inclusive_prefix)) {
      std::string function = name.substr(inclusive_prefix.size());
      const bool system = is_system_frame(function);
      functions.push_back({system, numeric_value(value).value_or(0.0), std::move(function)});
    } else if (!name.starts_with(self_prefix)) {
      visit(name);
    }
  }
  std::stable_sort(functions.begin(), functions.end(), [](const auto& a, const auto& b) {
    if (a.system != b.system) return !a.system;
    return a.inclusive_ir > b.inclusive_ir;
  });
  folded.clear();
  std::string key;
  for (const ranked_function& function : functions) {
    if (function.system) {
      folded.push_back(function.name);
      continue;
    }
    key.assign(inclusive_prefix).append(function.name);
    visit(key);
    key.assign(self_prefix).append(function.name);
    if (metrics.values.contains(key)) visit(key);
  }
}

}  // namespace aorta::detail
