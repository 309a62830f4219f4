// The sanitizer collector's option schema and argv (compute-sanitizer 2025.3.1's flags, as its
// --help on the H200 lists them: tests/fixtures/sanitizer/h200/compute-sanitizer-help.txt).
#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "collectors/sanitizer/sanitizer_options.hpp"
#include "collectors/sanitizer/sanitizer_wrap.hpp"
#include "unit/option_test_support.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

namespace fs = std::filesystem;
using strings = std::vector<std::string>;

option_map options_of(std::initializer_list<std::pair<std::string, std::string>> entries) {
  return testing_support::make_options(entries);
}

// The option_error's text, or "" when parsing succeeded.
std::string refusal(const option_map& options) {
  try {
    (void)parse_sanitizer_options(options);
  } catch (const option_error& e) {
    return e.what();
  }
  return "";
}

TEST(sanitizer_options, defaults_are_memcheck_on_every_process_with_the_tools_own_defaults) {
  const sanitizer_options parsed = parse_sanitizer_options({});
  EXPECT_EQ(parsed.tool, "memcheck");
  EXPECT_EQ(parsed.target_processes, "all");
  EXPECT_FALSE(parsed.leak_check.has_value());
  EXPECT_FALSE(parsed.padding.has_value());
}

TEST(sanitizer_options, every_option_typed) {
  const sanitizer_options parsed = parse_sanitizer_options(options_of(
      {{"tool", " MemCheck "}, {"leak_check", "full"}, {"padding", "32"},
       {"target_processes", "application-only"}}));
  EXPECT_EQ(parsed.tool, "memcheck");
  EXPECT_EQ(parsed.leak_check, true);
  EXPECT_EQ(parsed.padding, 32U);
  EXPECT_EQ(parsed.target_processes, "application-only");
  EXPECT_EQ(parse_sanitizer_options(options_of({{"leak_check", "no"}})).leak_check, false);
  EXPECT_EQ(parse_sanitizer_options(options_of({{"leak_check", "true"}})).leak_check, true);
  for (const char* tool : {"racecheck", "initcheck", "synccheck"}) {
    EXPECT_EQ(parse_sanitizer_options(options_of({{"tool", tool}})).tool, tool);
  }
}

TEST(sanitizer_options, an_unknown_tool_names_the_key_and_lists_the_allowed_values) {
  const std::string message = refusal(options_of({{"tool", "memchek"}}));
  EXPECT_NE(message.find("sanitizer.tool: 'memchek'"), std::string::npos) << message;
  EXPECT_NE(message.find("allowed: memcheck, racecheck, initcheck, synccheck"), std::string::npos)
      << message;
  EXPECT_NE(message.find("Did you mean 'memcheck'?"), std::string::npos) << message;
  try {
    (void)parse_sanitizer_options(options_of({{"tool", "asan"}}));
    FAIL() << "tool: asan was accepted";
  } catch (const option_error& e) {
    EXPECT_EQ(e.key(), "tool");
    EXPECT_EQ(static_cast<int>(e.code()), 64);
  }
}

TEST(sanitizer_options, unknown_keys_and_bad_values_are_refused_with_the_fix) {
  EXPECT_NE(refusal(options_of({{"leakcheck", "full"}})).find("unknown option(s) [leakcheck]"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"leak_check", "summary"}})).find("allowed: full, no"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"padding", "-4"}})).find("expected a whole number of bytes"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"padding", "99999999999999999999999"}})).find("padding"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"padding", "2097152"}})).find("from 0 to 1048576"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"target_processes", "children"}}))
                .find("allowed: all, application-only"),
            std::string::npos);
  EXPECT_NE(refusal(options_of({{"tool", "racecheck"}, {"padding", "8"}}))
                .find("sanitizer.padding: is a memcheck option, but tool is racecheck"),
            std::string::npos);
}

TEST(sanitizer_wrap, default_argv_checks_every_process_and_lets_the_checks_judge) {
  const strings expected{"compute-sanitizer", "--tool", "memcheck", "--error-exitcode", "0",
                         "--target-processes", "all", "--log-file", "/t/sanitizer/sanitizer.log"};
  EXPECT_EQ(sanitizer_argv(sanitizer_options{}, "/t/sanitizer", "compute-sanitizer"), expected);
}

TEST(sanitizer_wrap, every_option_in_its_place_and_a_percent_in_the_path_is_literal) {
  sanitizer_options options;
  options.leak_check = true;
  options.padding = 32;
  options.target_processes = "application-only";
  const strings expected{"/cs", "--tool", "memcheck", "--error-exitcode", "0",
                         "--target-processes", "application-only", "--leak-check", "full",
                         "--padding", "32", "--log-file", "/t/100%%/sanitizer.log"};
  EXPECT_EQ(sanitizer_argv(options, "/t/100%", "/cs"), expected);
  options.leak_check = false;
  EXPECT_EQ(sanitizer_argv(options, "/t", "/cs")[8], "no");
}

TEST(sanitizer_wrap, binary_from_override_then_path_then_the_cuda_toolkit) {
  const test::scratch_dir dir;
  const auto toolkit = dir.write("root/usr/local/cuda/bin/compute-sanitizer", "#!/bin/sh\n");
  const auto on_path = dir.write("bin/compute-sanitizer", "#!/bin/sh\n");
  const auto pinned = dir.write("pinned/cs", "#!/bin/sh\n");
  const auto standard = sanitizer_standard_locations(dir.path() / "root");
  ASSERT_EQ(standard.size(), 1U);
  EXPECT_EQ(resolve_sanitizer_binary({{"PATH", "/nonexistent"}}, standard), toolkit.string());
  EXPECT_EQ(resolve_sanitizer_binary({{"PATH", (dir.path() / "bin").string()}}, standard),
            on_path.string());
  EXPECT_EQ(resolve_sanitizer_binary({{"PATH", "/nonexistent"},
                                      {"COMPUTE_SANITIZER_BIN", pinned.string()}},
                                     standard),
            pinned.string());
}

TEST(sanitizer_wrap, absent_compute_sanitizer_is_a_skip_naming_the_variable_and_the_fix) {
  try {
    (void)resolve_sanitizer_binary({{"PATH", "/nonexistent"}}, {});
    FAIL() << "resolved a binary that does not exist";
  } catch (const skip_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("compute-sanitizer was not found on $PATH"), std::string::npos);
    EXPECT_NE(message.find("COMPUTE_SANITIZER_BIN"), std::string::npos);
    EXPECT_NE(message.find("install the CUDA toolkit"), std::string::npos);
  }
}

TEST(sanitizer_collector, absent_tool_is_the_unavailable_reason_and_nvidia_its_platform) {
  const collector_base* sanitizer = find_collector("sanitizer");
  ASSERT_NE(sanitizer, nullptr);
  const auto config = sanitizer->parse_options({});
  const auto reason = sanitizer->unavailable_reason(
      *config,
      {{"PATH", "/nonexistent"}, {"COMPUTE_SANITIZER_BIN", "/nonexistent/compute-sanitizer"}}, {});
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("$COMPUTE_SANITIZER_BIN=/nonexistent/compute-sanitizer is not an "
                         "executable file"),
            std::string::npos)
      << *reason;
  EXPECT_EQ(to_string(sanitizer->platforms(*config)), "nvidia");
  // A dry run prints the wrap with the missing tool named instead of refusing it.
  plan_context dry;
  dry.env = {{"PATH", "/nonexistent"}, {"COMPUTE_SANITIZER_BIN", "/nonexistent/cs"}};
  dry.dry_run = true;
  launch_plan inner;
  inner.argv = {"./oob"};
  const launch_plan wrapped = sanitizer->wrap(inner, *config, "/t/sanitizer", dry);
  EXPECT_EQ(wrapped.argv.front(), "<compute-sanitizer: not installed>");
  EXPECT_EQ(wrapped.argv.back(), "./oob");
  dry.dry_run = false;
  EXPECT_THROW((void)sanitizer->wrap(inner, *config, "/t/sanitizer", dry), skip_error);
  // The version from the banner compute-sanitizer 2025.3.1 printed on the H200.
  const test::scratch_dir dir;
  const auto banner = fs::path(AORTA_FIXTURES_DIR) / "sanitizer" / "h200" /
                      "compute-sanitizer-version.txt";
  const auto fake = dir.write("compute-sanitizer", "#!/bin/sh\nhead -3 '" + banner.string() + "'\n");
  const auto versions = sanitizer->probe_versions(
      *config, {"./oob"}, {{"PATH", "/usr/bin:/bin"}, {"COMPUTE_SANITIZER_BIN", fake.string()}});
  ASSERT_TRUE(versions.contains("compute_sanitizer"));
  EXPECT_EQ(versions.at("compute_sanitizer"), "2025.3.1.0");
  // Without a report the empty capture says what to look at.
  capture empty;
  empty.collector = "sanitizer";
  empty.artifact_dir = "/t/sanitizer";
  EXPECT_NE(sanitizer->explain_empty(empty, *config).find("compute-sanitizer (memcheck) wrote no "
                                                          "report under /t/sanitizer"),
            std::string::npos);
}

}  // namespace
}  // namespace aorta
