#include "collectors/callgrind/callgrind_wrap.hpp"

#include "aorta/error.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;

TEST(callgrind_wrap, default_options_name_the_per_pid_out_file_and_no_cache_sim) {
  const strings expected{"valgrind", "--tool=callgrind",
                         "--callgrind-out-file=/t/callgrind/callgrind.out.%p", "--cache-sim=no",
                         "-q"};
  EXPECT_EQ(callgrind_argv(callgrind_options{}, "/t/callgrind", "valgrind"), expected);
}

TEST(callgrind_wrap, every_option_in_its_place) {
  callgrind_options options;
  options.toggle_collect = "matmul(int)";
  options.cache_sim = true;
  options.trace_children = true;
  const strings expected{"/usr/bin/valgrind",
                         "--tool=callgrind",
                         "--callgrind-out-file=/t/callgrind/callgrind.out.%p",
                         "--toggle-collect=matmul(int)",
                         "--cache-sim=yes",
                         "--trace-children=yes",
                         "-q"};
  EXPECT_EQ(callgrind_argv(options, "/t/callgrind", "/usr/bin/valgrind"), expected);
}

TEST(callgrind_wrap, real_valgrind_is_found_on_path) {
  ASSERT_TRUE(std::filesystem::exists("/usr/bin/valgrind")) << "this test needs valgrind";
  const env_map env{{"PATH", "/nonexistent:/usr/bin"}};
  EXPECT_EQ(resolve_valgrind_binary(env), "/usr/bin/valgrind");
}

TEST(callgrind_wrap, valgrind_bin_bare_name_resolves_through_path) {
  const env_map env{{"PATH", "/usr/bin"}, {"VALGRIND_BIN", "valgrind"}};
  EXPECT_EQ(resolve_valgrind_binary(env), "/usr/bin/valgrind");
}

TEST(callgrind_wrap, missing_valgrind_skips_naming_valgrind_bin) {
  const test::scratch_dir dir;
  const env_map env{{"PATH", dir.path().string()}};
  try {
    (void)resolve_valgrind_binary(env);
    FAIL() << "expected skip_error";
  } catch (const skip_error& e) {
    EXPECT_STREQ(e.what(),
                 "callgrind: valgrind was not found on $PATH; install valgrind (e.g. apt-get "
                 "install valgrind), or set $VALGRIND_BIN to its full path");
  }
}

TEST(callgrind_wrap, unset_path_finds_nothing) {
  EXPECT_THROW((void)resolve_valgrind_binary(env_map{}), skip_error);
}

}  // namespace
}  // namespace aorta
