#include "captures/callgrind_reader.hpp"

#include "aorta/error.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using aorta::capture;
using aorta::function_cost;

const function_cost* find_function(const capture& c, const std::string& name) {
  const auto it = std::find_if(c.functions.begin(), c.functions.end(),
                               [&](const function_cost& f) { return f.name == name; });
  return it == c.functions.end() ? nullptr : &*it;
}

class callgrind_reader_test : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            (std::string("aorta_callgrind_") +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
             std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  static bool have_valgrind() { return std::system("valgrind --version >/dev/null 2>&1") == 0; }

  // Runs the payload under callgrind; the command is made of fixed build-tree paths only.
  void run_payload(const std::string& out_name, const std::string& extra = "") {
    const std::string command = "valgrind --tool=callgrind " + extra + " --callgrind-out-file='" +
                                (m_dir / out_name).string() +
                                "' '" AORTA_CALLGRIND_PAYLOAD "' >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(m_dir / name, std::ios::binary) << text;
  }

  fs::path m_dir;
};

TEST_F(callgrind_reader_test, real_run_ratios_follow_the_payload_loops) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed";
  run_payload("callgrind.out.1");
  const capture c = aorta::read_callgrind_capture(m_dir);
  EXPECT_EQ(c.collector, "callgrind");
  EXPECT_TRUE(c.kernels.empty());
  const function_cost* cheap = find_function(c, "cheap()");
  const function_cost* expensive = find_function(c, "expensive()");
  const function_cost* main_fn = find_function(c, "main");
  ASSERT_NE(cheap, nullptr);
  ASSERT_NE(expensive, nullptr);
  ASSERT_NE(main_fn, nullptr);
  // Same loop body, 50x the iterations; prologue and epilogue are a handful of instructions.
  const double ratio = static_cast<double>(expensive->inclusive_ir) / cheap->inclusive_ir;
  EXPECT_GT(ratio, 40.0);
  EXPECT_LT(ratio, 60.0);
  // Leaves: nothing called, so inclusive is self. 20000 iterations need at least 2 Ir each.
  EXPECT_EQ(cheap->self_ir, cheap->inclusive_ir);
  EXPECT_EQ(expensive->self_ir, expensive->inclusive_ir);
  EXPECT_GT(cheap->self_ir, 40000u);
  EXPECT_GE(main_fn->inclusive_ir, expensive->inclusive_ir + cheap->inclusive_ir);
  EXPECT_LT(main_fn->self_ir, cheap->self_ir);  // main itself does almost nothing
  EXPECT_TRUE(std::is_sorted(c.functions.begin(), c.functions.end(),
                             [](const function_cost& a, const function_cost& b) {
                               return a.inclusive_ir > b.inclusive_ir;
                             }));
}

TEST_F(callgrind_reader_test, toggle_collect_limits_the_costs_to_that_function) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed";
  run_payload("callgrind.out.full");
  run_payload("callgrind.out.toggled", "'--toggle-collect=expensive()'");
  const capture full = aorta::read_callgrind_capture(m_dir / "callgrind.out.full");
  const capture toggled = aorta::read_callgrind_capture(m_dir / "callgrind.out.toggled");
  const function_cost* expensive = find_function(toggled, "expensive()");
  ASSERT_NE(expensive, nullptr);
  const function_cost* expensive_in_full = find_function(full, "expensive()");
  ASSERT_NE(expensive_in_full, nullptr);
  EXPECT_EQ(expensive->self_ir, expensive_in_full->self_ir);
  const function_cost* cheap = find_function(toggled, "cheap()");
  EXPECT_TRUE(cheap == nullptr || cheap->inclusive_ir == 0);
  // expensive() calls nothing, so every collected instruction is its own.
  std::uint64_t self_total = 0;
  for (const function_cost& f : toggled.functions) self_total += f.self_ir;
  EXPECT_EQ(self_total, expensive->self_ir);
}

TEST_F(callgrind_reader_test, files_of_several_processes_are_summed) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed";
  run_payload("callgrind.out.100");
  run_payload("callgrind.out.101");
  const capture a = aorta::read_callgrind_capture(m_dir / "callgrind.out.100");
  const capture b = aorta::read_callgrind_capture(m_dir / "callgrind.out.101");
  const capture both = aorta::read_callgrind_capture(m_dir);
  EXPECT_EQ(both.files.size(), 2u);
  EXPECT_EQ(find_function(both, "cheap()")->self_ir,
            find_function(a, "cheap()")->self_ir + find_function(b, "cheap()")->self_ir);
}

// Hand-written to the format spec: compressed names, two position columns with absolute, hex,
// relative (+N/-N) and "*" positions, a call, a recursive call, an omitted trailing cost.
TEST_F(callgrind_reader_test, format_details_by_hand) {
  write("callgrind.out.7", "# callgrind format\n"
                           "version: 1\n"
                           "creator: hand\n"
                           "positions: instr line\n"
                           "events: Dr Ir\n"
                           "summary: 0 112\n"
                           "\n"
                           "ob=(1) /bin/app\n"
                           "fl=(1) app.cpp\n"
                           "fn=(1) main\n"
                           "0x10 3 1 5\n"
                           "+2 * 0 7\n"
                           "cob=(1)\n"
                           "cfl=(1)\n"
                           "cfn=(2) helper(int, char const*)\n"
                           "calls=2 0x40 10\n"
                           "* * 0 100\n"
                           "fn=(2)\n"
                           "0x40 10 0 60\n"
                           "-4 +1 0 40\n"
                           "cfn=(2)\n"
                           "calls=1 0x40 10\n"
                           "* * 0 100\n"
                           "fi=(2) inl.h\n"
                           "fn=(3) (below main)\n"
                           "0x80 1\n"
                           "totals: 0 112\n");
  const capture c = aorta::read_callgrind_capture(m_dir);
  ASSERT_EQ(c.functions.size(), 3u);
  EXPECT_EQ(c.functions[0].name, "main");
  EXPECT_EQ(c.functions[0].self_ir, 12u);        // 5 + 7
  EXPECT_EQ(c.functions[0].inclusive_ir, 112u);  // + the call's 100
  EXPECT_EQ(c.functions[1].name, "helper(int, char const*)");
  EXPECT_EQ(c.functions[1].self_ir, 100u);
  EXPECT_EQ(c.functions[1].inclusive_ir, 100u);  // its call to itself is not added again
  EXPECT_EQ(c.functions[2].name, "(below main)");
  EXPECT_EQ(c.functions[2].inclusive_ir, 0u);
  EXPECT_NE(std::find_if(c.notes.begin(), c.notes.end(),
                         [](const std::string& n) { return n.find("total Ir 112") != n.npos; }),
            c.notes.end());
}

TEST_F(callgrind_reader_test, malformed_files_are_capture_errors) {
  write("callgrind.out.1", "events: Dr Dw\nfn=main\n1 2 3\n");
  EXPECT_THROW((void)aorta::read_callgrind_capture(m_dir / "callgrind.out.1"),
               aorta::capture_error);
  write("callgrind.out.2", "fn=main\n1 2\n");
  EXPECT_THROW((void)aorta::read_callgrind_capture(m_dir / "callgrind.out.2"),
               aorta::capture_error);
  write("callgrind.out.3", "events: Ir\nfn=(9)\n1 2\n");
  try {
    (void)aorta::read_callgrind_capture(m_dir / "callgrind.out.3");
    FAIL() << "expected capture_error";
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("callgrind.out.3:2"), std::string::npos) << e.what();
  }
}

TEST_F(callgrind_reader_test, absent_path_is_an_empty_capture) {
  const capture c = aorta::read_callgrind_capture(m_dir / "absent");
  EXPECT_TRUE(c.empty());
  EXPECT_FALSE(c.notes.empty());
}

}  // namespace

namespace {

// glibc has two functions callgrind names "(below main)" (in different files), one calling the
// other; summed by name, the program would be counted twice.
TEST_F(callgrind_reader_test, same_named_functions_in_different_files_stay_apart) {
  write("callgrind.out.7", "events: Ir\n"
                           "ob=(1) /lib/libc.so.6\n"
                           "fl=(1) libc-start.c\n"
                           "fn=(1) (below main)\n"
                           "1 5\n"
                           "cfl=(2) libc_start_call_main.h\n"
                           "cfn=(2) (below main)\n"
                           "calls=1 1\n"
                           "1 100\n"
                           "fl=(2)\n"
                           "fn=(2)\n"
                           "1 10\n"
                           "cob=(2) /app\n"
                           "cfl=(3) app.c\n"
                           "cfn=(3) main\n"
                           "calls=1 1\n"
                           "1 90\n"
                           "ob=(2)\n"
                           "fl=(3)\n"
                           "fn=(3)\n"
                           "1 90\n"
                           "totals: 105\n");
  const capture c = aorta::read_callgrind_capture(m_dir);
  ASSERT_EQ(c.functions.size(), 3u);
  const function_cost* outer = find_function(c, "(below main) [libc-start.c in libc.so.6]");
  const function_cost* inner =
      find_function(c, "(below main) [libc_start_call_main.h in libc.so.6]");
  const function_cost* main_fn = find_function(c, "main");
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  ASSERT_NE(main_fn, nullptr);
  EXPECT_EQ(outer->self_ir, 5u);
  EXPECT_EQ(outer->inclusive_ir, 105u);  // = totals, not 205
  EXPECT_EQ(inner->self_ir, 10u);
  EXPECT_EQ(inner->inclusive_ir, 100u);
  EXPECT_EQ(main_fn->inclusive_ir, 90u);
}

}  // namespace

namespace {

// Hand-written to the format spec (valgrind manual, "Callgrind Format Specification": a call is
// `calls=<count> <target position>` after cfn=, then the call's inclusive cost line): helper is
// called from two sites and by itself, so its calls are the sum of the three counts.
TEST_F(callgrind_reader_test, calls_are_summed_over_every_call_site) {
  write("callgrind.out.1", "events: Ir\n"
                           "fl=(1) app.cpp\n"
                           "fn=(1) main\n"
                           "1 5\n"
                           "cfn=(2) helper\n"
                           "calls=2 10\n"
                           "1 40\n"
                           "cfn=(3) other\n"
                           "calls=1 20\n"
                           "1 70\n"
                           "fn=(2)\n"
                           "10 30\n"
                           "cfn=(2)\n"
                           "calls=1 10\n"
                           "10 10\n"
                           "fn=(3)\n"
                           "20 10\n"
                           "cfn=(2)\n"
                           "calls=3 10\n"
                           "20 60\n");
  // A second thread's file: its calls add to the first's.
  write("callgrind.out.1-02", "events: Ir\n"
                              "fl=(1) app.cpp\n"
                              "fn=(1) other\n"
                              "20 1\n"
                              "cfn=(2) helper\n"
                              "calls=4 10\n"
                              "20 8\n");
  const capture c = aorta::read_callgrind_capture(m_dir);
  const function_cost* helper = find_function(c, "helper");
  const function_cost* other = find_function(c, "other");
  const function_cost* main_fn = find_function(c, "main");
  ASSERT_NE(helper, nullptr);
  ASSERT_NE(other, nullptr);
  ASSERT_NE(main_fn, nullptr);
  EXPECT_EQ(helper->calls, 10u);  // 2 + 1 (itself) + 3 + 4
  EXPECT_EQ(other->calls, 1u);
  EXPECT_EQ(main_fn->calls, 0u);
  EXPECT_EQ(helper->self_ir, 30u);
  EXPECT_EQ(other->self_ir, 11u);
}

// A function only ever seen as a callee (its cost lines cut off by --toggle-collect) still has
// its calls.
TEST_F(callgrind_reader_test, a_callee_without_cost_lines_keeps_its_calls) {
  write("callgrind.out.1", "events: Ir\n"
                           "ob=(1) /app\n"
                           "fl=(1) app.cpp\n"
                           "fn=(1) main\n"
                           "1 5\n"
                           "cfl=(2) lib.cpp\n"
                           "cfn=(2) leaf\n"
                           "calls=7 3\n"
                           "1 0\n");
  const capture c = aorta::read_callgrind_capture(m_dir);
  const function_cost* leaf = find_function(c, "leaf");
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(leaf->calls, 7u);
  EXPECT_EQ(leaf->self_ir, 0u);
}

void expect_capture_error(const fs::path& file, const std::string& wanted) {
  try {
    (void)aorta::read_callgrind_capture(file);
    FAIL() << "expected capture_error containing: " << wanted;
  } catch (const aorta::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find(wanted), std::string::npos) << e.what();
  }
}

// Hostile call counts: never a wrap, a clamp or a silent zero (checked_sum.hpp).
TEST_F(callgrind_reader_test, hostile_call_counts_are_errors_naming_the_line) {
  const std::string head = "events: Ir\nfn=(1) main\n1 5\ncfn=(2) f\n";
  write("callgrind.out.past_u64", head + "calls=99999999999999999999 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.past_u64",
                       "callgrind.out.past_u64:5: call count '99999999999999999999' is not a "
                       "whole number");
  write("callgrind.out.past_i64", head + "calls=9223372036854775808 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.past_i64", "callgrind.out.past_i64:5");
  expect_capture_error(m_dir / "callgrind.out.past_i64", "max_count");
  // Each count fits; their sum does not.
  write("callgrind.out.sum",
        head + "calls=9223372036854775807 1\n1 1\ncfn=(2)\ncalls=1 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.sum", "callgrind.out.sum:8");
  expect_capture_error(m_dir / "callgrind.out.sum", "the sum of counts passes");
  write("callgrind.out.negative", head + "calls=-3 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.negative", "call count '-3' is not a whole number");
  write("callgrind.out.word", head + "calls=many 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.word", "call count 'many' is not a whole number");
  write("callgrind.out.orphan", "events: Ir\nfn=(1) main\n1 5\ncalls=2 1\n1 1\n");
  expect_capture_error(m_dir / "callgrind.out.orphan", "calls= before any cfn=");
}

// Issue 18: the table of functions grew with every distinct name, without a bound. One function
// (or one compressed name of a kind) past max_callgrind_functions fails the read naming the file,
// the line and the bound; the line shows that the bound itself was read.
TEST_F(callgrind_reader_test, more_functions_or_names_than_the_bound_are_refused_naming_it) {
  const std::size_t bound = aorta::detail::max_callgrind_functions;
  const auto write_lines = [&](const std::string& name, std::size_t count, const char* pattern) {
    std::ofstream out(m_dir / name, std::ios::binary);
    out << "events: Ir\n";
    for (std::size_t i = 1; i <= count; ++i) out << fmt::format(fmt::runtime(pattern), i);
  };
  // Names written out, not compressed: the table of compressed names is not what stops them.
  write_lines("callgrind.out.functions", bound + 1, "fn=f{0}\n0 1\n");
  try {
    (void)aorta::read_callgrind_capture(m_dir / "callgrind.out.functions");
    ADD_FAILURE() << "a capture past max_callgrind_functions was read";
  } catch (const aorta::capture_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(fmt::format("callgrind.out.functions:{}: more than {} distinct functions "
                                    "(max_callgrind_functions)",
                                    2 * bound + 3, bound)),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("--toggle-collect"), std::string::npos) << what;
  }
  write_lines("callgrind.out.files", bound + 1, "fl=({0}) file{0}.c\n");
  expect_capture_error(m_dir / "callgrind.out.files",
                       fmt::format("callgrind.out.files:{}: more than {} distinct compressed names",
                                   bound + 2, bound));
}

// Issue 39, item 7: callgrind labels a function by its object's file name, so one binary copied
// under another name (an A/A of `hot_base` and `hot_base_copy`) gave rows that never matched.
// The profiled program (`cmd:`) is `<program>` in a label whatever its file is called.
std::string program_capture_text(const std::string& binary) {
  return "cmd: /build/" + binary +
         " --flag\n"
         "events: Ir\n"
         "ob=(1) /build/" +
         binary +
         "\n"
         "fl=(1) ???\n"
         "fn=(1) (below main)\n"
         "1 5\n"
         "ob=(2) /lib/libc.so.6\n"
         "fl=(2) libc-start.c\n"
         "fn=(2) (below main)\n"
         "1 7\n";
}

TEST_F(callgrind_reader_test, the_program_is_named_the_same_whatever_its_file_is_called) {
  std::vector<std::vector<std::string>> names;
  for (const std::string binary : {"hot_base", "hot_base_copy"}) {
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    write("callgrind.out.1", program_capture_text(binary));
    const capture c = aorta::read_callgrind_capture(m_dir);
    names.emplace_back();
    for (const auto& function : c.functions) names.back().push_back(function.name);
  }
  EXPECT_EQ(names[0], names[1]);
  EXPECT_EQ(names[0], (std::vector<std::string>{"(below main) [libc-start.c in libc.so.6]",
                                                "(below main) [??? in <program>]"}));
}

TEST_F(callgrind_reader_test, a_real_copy_of_the_payload_has_the_same_function_names) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed";
  const fs::path copy = m_dir / "payload_copy_with_another_name";
  fs::copy_file(AORTA_CALLGRIND_PAYLOAD, copy);
  std::vector<std::vector<std::string>> names;
  for (const std::string& binary : {std::string(AORTA_CALLGRIND_PAYLOAD), copy.string()}) {
    const fs::path out = m_dir / ("run" + std::to_string(names.size()));
    fs::create_directories(out);
    const std::string command = "valgrind --tool=callgrind --callgrind-out-file='" +
                                (out / "callgrind.out.1").string() + "' '" + binary +
                                "' >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    names.emplace_back();
    for (const auto& function : aorta::read_callgrind_capture(out).functions)
      names.back().push_back(function.name);
    std::sort(names.back().begin(), names.back().end());
  }
  EXPECT_EQ(names[0], names[1]);
}

}  // namespace
