// The callgrind profile format (valgrind docs, "Callgrind Format Specification"): header lines
// `key: value`, position/name lines `fn=(id) name`, cost lines `<positions> <event costs>`, and
// call lines `calls=<count> <target position>` followed by the call's inclusive cost line.
#include "captures/callgrind_reader.hpp"

#include "bounded_input.hpp"

#include "captures/capture_files.hpp"
#include "checked_sum.hpp"
#include "captures/string_keyed_map.hpp"

#include "aorta/error.hpp"
#include "text_trim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>

namespace aorta {

namespace {

// How a label names the profiled program (docs/collectors.md, callgrind).
constexpr std::string_view program_label = "<program>";

namespace fs = std::filesystem;

struct function_sums {
  std::string name;
  std::string file;    // the fl= it was defined under
  std::string object;  // the ob= it was defined under
  std::uint64_t self = 0;
  std::uint64_t callees = 0;  // inclusive cost of the calls it makes
  std::uint64_t calls = 0;    // calls made to it, from every call site
};

// Keyed by object, file and name: glibc has two different functions both named "(below main)",
// one calling the other, and summing them by name alone would count the program twice. Hashed:
// a tree's string comparisons (names share long prefixes) were most of a 100,000-function read.
using function_table = detail::string_keyed_map<function_sums>;

std::string function_key(std::string_view object, std::string_view file, std::string_view name) {
  std::string key;
  key.reserve(object.size() + file.size() + name.size() + 2);
  key.append(object).append(1, '\x1f').append(file).append(1, '\x1f').append(name);
  return key;
}

// One file's parser state. Names are compressed per file: `(id) name` defines, `(id)` refers.
class callgrind_file {
public:
  callgrind_file(const fs::path& file, function_table& table) : m_file(file), m_table(table) {}

  void parse();
  [[nodiscard]] bool had_costs() const noexcept { return m_cost_lines > 0; }
  [[nodiscard]] std::optional<std::uint64_t> summary() const noexcept { return m_summary; }
  // The file name of the profiled program (`cmd:`), "" when the file has none.
  [[nodiscard]] const std::string& program() const noexcept { return m_program; }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw capture_error(fmt::format("{}:{}: {}", m_file.string(), m_line, what));
  }
  // The next line, counted in m_line; false at the end. A line past callgrind_max_line_bytes
  // or a read error is a capture_error.
  bool next_line(detail::input_lines& lines, std::string_view& line);
  std::string resolve(std::unordered_map<std::uint64_t, std::string>& names,
                      std::string_view value);
  function_sums& function(const std::string& key);
  [[noreturn]] void fail_past_limit(std::string_view what) const;
  void header_line(std::string_view key, std::string_view value);
  void cost_line(std::string_view line);
  std::uint64_t ir_of(std::string_view line);
  void call_line(std::string_view value);
  static void add(std::uint64_t& sum, std::uint64_t value, const fs::path& file);

  fs::path m_file;
  function_table& m_table;
  std::size_t m_line = 0;
  std::unordered_map<std::uint64_t, std::string> m_file_names;  // fl, fi, fe, cfi, cfl
  std::unordered_map<std::uint64_t, std::string> m_fn_names;    // fn, cfn
  std::unordered_map<std::uint64_t, std::string> m_obj_names;   // ob, cob
  std::size_t m_positions = 1;      // "line" unless `positions:` says otherwise
  std::optional<std::size_t> m_ir;  // index of Ir among the events
  std::string m_object;             // current ob=
  std::string m_source;             // current fl=
  std::string m_fn;                 // key of the current function
  std::string m_fn_name;
  std::string m_cfn;  // key of the function the pending call goes to
  function_sums m_callee;  // its name, file and object, for a callee with no cost lines yet
  std::string m_call_object;
  std::string m_call_source;
  bool m_call_pending = false;  // the next cost line is a call's inclusive cost
  std::size_t m_cost_lines = 0;
  std::optional<std::uint64_t> m_summary;
  std::string m_program;
};

void callgrind_file::add(std::uint64_t& sum, std::uint64_t value, const fs::path& file) {
  if (__builtin_add_overflow(sum, value, &sum)) {
    throw capture_error(fmt::format(
        "{}: an instruction count overflowed 64 bits; the file is likely corrupt", file.string()));
  }
}

void callgrind_file::fail_past_limit(std::string_view what) const {
  fail(fmt::format(
      "more than {} distinct {} (max_callgrind_functions), aorta's limit on one callgrind "
      "capture; the file is damaged, or the profile covers far more code than a check needs: "
      "limit it to the code under test with callgrind's --toggle-collect=<function>",
      detail::max_callgrind_functions, what));
}

// The sums of the function `key`, added (checked against the bound) when it is new.
function_sums& callgrind_file::function(const std::string& key) {
  const auto found = m_table.find(key);
  if (found != m_table.end()) return found->second;
  if (m_table.size() >= detail::max_callgrind_functions) fail_past_limit("functions");
  return m_table.emplace(key, function_sums{}).first->second;
}

std::string callgrind_file::resolve(std::unordered_map<std::uint64_t, std::string>& names,
                                    std::string_view value) {
  value = detail::trim_line(value);
  if (!value.starts_with('(')) return std::string(value);
  const std::size_t close = value.find(')');
  if (close == std::string_view::npos) return std::string(value);
  std::uint64_t id = 0;
  const auto [end, ec] = std::from_chars(value.data() + 1, value.data() + close, id);
  if (ec != std::errc{} || end != value.data() + close) {
    return std::string(value);  // not compressed, e.g. "(below main)" with --compress-strings=no
  }
  const std::string_view name = detail::trim_line(value.substr(close + 1));
  if (!name.empty()) {
    if (names.size() >= detail::max_callgrind_functions && !names.contains(id))
      fail_past_limit("compressed names of one kind");
    return names[id] = std::string(name);
  }
  const auto it = names.find(id);
  if (it == names.end()) fail(fmt::format("name id ({}) used before it was defined", id));
  return it->second;
}

void callgrind_file::header_line(std::string_view key, std::string_view value) {
  if (key == "events") {
    std::size_t index = 0;
    m_ir.reset();
    while (!value.empty()) {
      value = detail::trim_line(value);
      const std::size_t space = value.find(' ');
      if (value.substr(0, space) == "Ir") m_ir = index;
      if (space == std::string_view::npos) break;
      value.remove_prefix(space);
      ++index;
    }
    if (!m_ir) {
      fail("the events: line has no Ir column; run callgrind without --collect-... options that "
           "drop instruction counts");
    }
  } else if (key == "positions") {
    m_positions = 0;
    for (std::string_view kind : {"instr", "line"}) {
      if (value.find(kind) != std::string_view::npos) ++m_positions;
    }
    if (m_positions == 0) fail(fmt::format("unknown positions: '{}'", value));
  } else if (key == "summary" || key == "totals") {
    if (m_ir) m_summary = ir_of(value);
  } else if (key == "cmd") {
    m_program = fs::path(std::string(value.substr(0, value.find(' ')))).filename().string();
  }
}

// The Ir cost of a cost line whose position columns have been removed.
std::uint64_t callgrind_file::ir_of(std::string_view costs) {
  std::size_t index = 0;
  costs = detail::trim_line(costs);
  while (!costs.empty()) {
    const std::size_t space = costs.find(' ');
    const std::string_view token = costs.substr(0, space);
    if (index == *m_ir) {
      std::uint64_t value = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
      if (ec != std::errc{} || end != token.data() + token.size()) {
        fail(fmt::format("cost '{}' is not a whole number", token));
      }
      return value;
    }
    if (space == std::string_view::npos) break;
    costs = detail::trim_line(costs.substr(space));
    ++index;
  }
  return 0;  // trailing zero costs may be left out
}

void callgrind_file::cost_line(std::string_view line) {
  if (!m_ir) fail("a cost line before the events: line");
  // Position columns: absolute ("12", "0x4a"), relative ("+3", "-2") or "*" (same as before).
  for (std::size_t i = 0; i < m_positions; ++i) {
    line = detail::trim_line(line);
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) {
      line = {};  // a position with no costs: all zero
      break;
    }
    line.remove_prefix(space);
  }
  const std::uint64_t ir = ir_of(line);
  ++m_cost_lines;
  if (m_fn.empty()) fail("a cost line before any fn= line");
  function_sums& sums = function(m_fn);
  if (sums.name.empty()) {
    sums.name = m_fn_name;
    sums.file = m_source;
    sums.object = m_object;
  }
  if (m_call_pending) {
    m_call_pending = false;
    // A call to itself is already inside its own cost; adding it would count it twice.
    if (m_cfn != m_fn) add(sums.callees, ir, m_file);
  } else {
    add(sums.self, ir, m_file);
  }
}

// `calls=<count> <target position>`: the count is added to the callee named by the last cfn=.
void callgrind_file::call_line(std::string_view value) {
  if (m_cfn.empty()) fail("calls= before any cfn= line naming the function called");
  value = detail::trim_line(value);
  const std::string_view token = value.substr(0, value.find(' '));
  std::uint64_t count = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), count);
  if (ec != std::errc{} || end != token.data() + token.size()) {
    fail(fmt::format("call count '{}' is not a whole number of at most {}", token.substr(0, 40),
                     detail::max_count));
  }
  const std::string where = fmt::format("{}:{}", m_file.string(), m_line);
  function_sums& callee = function(m_cfn);
  if (callee.name.empty()) {
    callee.name = m_callee.name;
    callee.file = m_callee.file;
    callee.object = m_callee.object;
  }
  callee.calls =
      detail::add_count(callee.calls, count, where, fmt::format("calls= of '{}'", callee.name));
  m_call_pending = true;
}

bool callgrind_file::next_line(detail::input_lines& lines, std::string_view& line) {
  try {
    if (!lines.next(line)) return false;
  } catch (const detail::input_line_too_long&) {
    ++m_line;
    fail(fmt::format(
        "the line is longer than {} bytes (callgrind_max_line_bytes), aorta's limit on one "
        "callgrind line; valgrind writes one name per line, and a name this long means a "
        "damaged or hostile file. Fix: re-run the capture; if the program's names really are "
        "this long, limit the capture with callgrind's --toggle-collect=<function>",
        detail::callgrind_max_line_bytes));
  } catch (const detail::input_error& e) {
    throw capture_error(e.what());
  }
  ++m_line;
  return true;
}

void callgrind_file::parse() {
  std::optional<detail::input_lines> lines;
  try {
    lines.emplace(detail::open_input_file(m_file), detail::callgrind_max_line_bytes);
  } catch (const detail::input_error& e) {
    throw capture_error(e.what());
  }
  std::string_view raw;
  while (next_line(*lines, raw)) {
    const std::string_view line = detail::trim_line(raw);
    if (line.empty() || line.front() == '#') continue;
    const char c = line.front();
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
      cost_line(line);
      continue;
    }
    const std::size_t eq = line.find('=');
    const std::size_t colon = line.find(':');
    if (eq != std::string_view::npos && (colon == std::string_view::npos || eq < colon)) {
      const std::string_view key = line.substr(0, eq);
      const std::string_view value = line.substr(eq + 1);
      if (m_call_pending && key != "calls") {
        fail("calls= must be followed by its cost line");
      }
      if (key == "fn") {
        m_fn_name = resolve(m_fn_names, value);
        m_fn = function_key(m_object, m_source, m_fn_name);
        m_call_object = m_object;
        m_call_source = m_source;
      } else if (key == "cfn") {
        m_callee.name = resolve(m_fn_names, value);
        m_callee.file = m_call_source;
        m_callee.object = m_call_object;
        m_cfn = function_key(m_call_object, m_call_source, m_callee.name);
        // cob=/cfi= apply to one call only.
        m_call_object = m_object;
        m_call_source = m_source;
      } else if (key == "fl") {
        m_source = resolve(m_file_names, value);
        m_call_source = m_source;
      } else if (key == "fi" || key == "fe") {
        resolve(m_file_names, value);
      } else if (key == "cfi" || key == "cfl") {
        m_call_source = resolve(m_file_names, value);
      } else if (key == "ob") {
        m_object = resolve(m_obj_names, value);
        m_call_object = m_object;
      } else if (key == "cob") {
        m_call_object = resolve(m_obj_names, value);
      } else if (key == "calls") {
        call_line(value);
      }
      // jump=/jcnd= (with --collect-jumps) carry no cost we use.
      continue;
    }
    if (colon != std::string_view::npos) {
      header_line(detail::trim_line(line.substr(0, colon)), detail::trim_line(line.substr(colon + 1)));
      continue;
    }
    fail(fmt::format("unrecognised line '{}'", line.substr(0, 80)));
  }
}

bool is_callgrind_file(const std::string& name) {
  return name.starts_with("callgrind.out");
}

// An object in a function's label: its file name, or `<program>` for the profiled program itself,
// so that one binary under two file names (an A/A of copies) gives the same function names.
std::string object_label(const std::string& object,
                         const std::set<std::string, std::less<>>& programs) {
  std::string name = fs::path(object).filename().string();
  return programs.contains(name) ? std::string(program_label) : name;
}

}  // namespace

capture read_callgrind_capture(const fs::path& dir_or_file) {
  capture out;
  out.collector = "callgrind";
  auto inputs =
      detail::find_capture_inputs(dir_or_file, is_callgrind_file, "callgrind", "callgrind.out*");
  out.artifact_dir = inputs.artifact_dir;
  out.notes = std::move(inputs.notes);
  const std::vector<fs::path> files = std::move(inputs.files);
  function_table table;
  std::set<std::string, std::less<>> programs;
  for (const fs::path& file : files) {
    callgrind_file parser(file, table);
    parser.parse();
    if (!parser.program().empty()) programs.insert(parser.program());
    if (parser.had_costs()) {
      out.files.push_back(file);
    } else {
      out.notes.push_back(fmt::format("{}: no cost lines, no data", file.string()));
    }
    if (parser.summary()) {
      out.notes.push_back(fmt::format("{}: total Ir {}", file.string(), *parser.summary()));
    }
  }
  std::unordered_map<std::string_view, int> name_uses;
  for (const auto& [key, sums] : table) ++name_uses[sums.name];
  for (const auto& [key, sums] : table) {
    function_cost f;
    f.name = sums.name;
    if (name_uses[sums.name] > 1) {
      // Distinct functions sharing a name: say which file (and object) each one is.
      f.name += fmt::format(" [{}{}{}]", fs::path(sums.file).filename().string(),
                            sums.object.empty() ? "" : " in ", object_label(sums.object, programs));
    }
    const std::string& name = f.name;
    f.self_ir = sums.self;
    f.calls = sums.calls;
    if (__builtin_add_overflow(sums.self, sums.callees, &f.inclusive_ir)) {
      throw capture_error(fmt::format("{}: inclusive Ir of '{}' overflowed 64 bits",
                                      out.artifact_dir.string(), name));
    }
    out.functions.push_back(std::move(f));
  }
  std::sort(out.functions.begin(), out.functions.end(),
            [](const function_cost& a, const function_cost& b) {
              if (a.inclusive_ir != b.inclusive_ir) return a.inclusive_ir > b.inclusive_ir;
              return a.name < b.name;
            });
  return out;
}

}  // namespace aorta
