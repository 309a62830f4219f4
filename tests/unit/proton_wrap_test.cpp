// Proton mode cli: the argv shape, interpreter choice and every refusal of rules 9 and 10.
#include "collectors/proton/proton_wrap.hpp"

#include "aorta/error.hpp"
#include "unit/wrap_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

using strings = std::vector<std::string>;
constexpr std::string_view escape = "switch the recipe to proton: {mode: env}";

// A PATH holding a fake python3, so the interpreter check at wrap time has something to find.
class proton_cli_wrap : public ::testing::Test {
protected:
  test::scratch_dir m_dir;
  env_map m_env{{"PATH", (m_dir.path() / "bin").string()}};

  void SetUp() override { m_dir.write("bin/python3", "#!/bin/sh\n"); }

  launch_plan wrap(const strings& argv, const proton_options& options = {}) const {
    return proton_wrap(launch_plan{argv, {}, {}, {}}, options, "/t/proton", m_env);
  }

  std::string refusal(const strings& argv, const proton_options& options = {}) const {
    try {
      (void)wrap(argv, options);
    } catch (const recipe_error& e) {
      return e.what();
    }
    ADD_FAILURE() << "expected recipe_error";
    return {};
  }
};

bool ends_with_escape(const std::string& message) {
  return message.ends_with(escape);
}

TEST_F(proton_cli_wrap, script_launch_with_default_options) {
  const strings expected{"python3",
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/t/proton/proton",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "vecadd.py",
                         "--iters",
                         "20"};
  const launch_plan plan = wrap({"python3", "vecadd.py", "--iters", "20"});
  EXPECT_EQ(plan.argv, expected);
  EXPECT_TRUE(plan.env_set.empty());
  EXPECT_TRUE(plan.env_unset.empty());
  EXPECT_TRUE(plan.warnings.empty());
}

TEST_F(proton_cli_wrap, instrumentation_renders_backend_mode_granularity_and_hook) {
  proton_options options;
  options.backend = "instrumentation";
  options.context = "python";
  options.data = "trace";
  options.instrumentation_mode = "mma";
  options.granularity = "cta";
  options.hook = "triton";
  const strings expected{"python3",   "-u",
                         "-m",        "triton.profiler.proton",
                         "-n",        "/t/proton/proton",
                         "-b",        "instrumentation",
                         "--context", "python",
                         "--data",    "trace",
                         "--mode",    "mma:granularity=cta",
                         "-k",        "triton",
                         "kernel.py"};
  EXPECT_EQ(wrap({"python3", "-u", "kernel.py"}, options).argv, expected);
}

TEST_F(proton_cli_wrap, granularity_alone_renders_the_default_mode) {
  proton_options options;
  options.backend = "instrumentation";
  options.granularity = "warp";
  const strings expected{"python3",
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/t/proton/proton",
                         "-b",
                         "instrumentation",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "--mode",
                         "default:granularity=warp",
                         "k.py"};
  EXPECT_EQ(wrap({"python3", "k.py"}, options).argv, expected);
}

TEST_F(proton_cli_wrap, backend_mode_is_the_mode_value_and_rocprofiler_may_be_pinned) {
  proton_options options;
  options.backend = "rocprofiler";
  options.backend_mode = "periodic_flushing";
  const strings expected{"python3",
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/t/proton/proton",
                         "-b",
                         "rocprofiler",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "--mode",
                         "periodic_flushing",
                         "k.py"};
  EXPECT_EQ(wrap({"python3", "k.py"}, options).argv, expected);
}

TEST_F(proton_cli_wrap, python_dash_m_pytest_becomes_bare_pytest_after_the_flags) {
  const strings expected{"python3",   "-B",
                         "-m",        "triton.profiler.proton",
                         "-n",        "/t/proton/proton",
                         "--context", "shadow",
                         "--data",    "tree",
                         "pytest",    "-x",
                         "tests/"};
  EXPECT_EQ(wrap({"python3", "-B", "-m", "pytest", "-x", "tests/"}).argv, expected);
  EXPECT_EQ(wrap({"python3", "-B", "-mpytest", "-x", "tests/"}).argv, expected);
}

TEST_F(proton_cli_wrap, every_safe_flag_stays_in_front_of_dash_m) {
  const strings flags{"-u", "-B", "-E", "-s", "-S", "-O", "-OO", "-I", "-b", "-q"};
  strings argv{"python3"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.emplace_back("s.py");
  strings expected{"python3"};
  expected.insert(expected.end(), flags.begin(), flags.end());
  expected.insert(expected.end(), {"-m", "triton.profiler.proton", "-n", "/t/proton/proton",
                                   "--context", "shadow", "--data", "tree", "s.py"});
  EXPECT_EQ(wrap(argv).argv, expected);
}

TEST_F(proton_cli_wrap, versioned_interpreter_path_is_kept_as_written) {
  const auto python = m_dir.write("venv/bin/python3.12", "#!/bin/sh\n");
  const launch_plan plan = wrap({python.string(), "train.py"});
  ASSERT_FALSE(plan.argv.empty());
  EXPECT_EQ(plan.argv.front(), python.string());
  EXPECT_EQ(plan.argv.back(), "train.py");
}

TEST_F(proton_cli_wrap, empty_argv_is_refused) {
  const std::string message = refusal({});
  EXPECT_NE(message.find("cannot wrap an empty argv"), std::string::npos) << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, non_python_command_is_refused) {
  const std::string message = refusal({"./hip_app", "--n", "3"});
  EXPECT_NE(message.find("needs a Python script launch"), std::string::npos) << message;
  EXPECT_NE(message.find("got './hip_app'"), std::string::npos) << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, proton_console_script_is_not_a_python_launch) {
  EXPECT_NE(refusal({"proton", "script.py"}).find("needs a Python script launch"),
            std::string::npos);
}

TEST_F(proton_cli_wrap, dash_c_is_refused_naming_the_supported_flags) {
  const std::string message = refusal({"python3", "-c", "print(1)"});
  EXPECT_NE(message.find("interpreter option '-c'"), std::string::npos) << message;
  EXPECT_NE(message.find("-u -B -E -s -S -O -OO -I -b -q"), std::string::npos) << message;
  EXPECT_NE(message.find("'-m' with ['pytest']"), std::string::npos) << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, other_modules_are_refused_in_both_spellings) {
  for (const strings& argv : {strings{"python3", "-m", "torch.distributed.run", "x.py"},
                              strings{"python3", "-mtorch.distributed.run", "x.py"}}) {
    const std::string message = refusal(argv);
    EXPECT_NE(message.find("cannot wrap 'python -m torch.distributed.run'"), std::string::npos)
        << message;
    EXPECT_NE(message.find("runpy.run_path"), std::string::npos) << message;
    EXPECT_TRUE(ends_with_escape(message)) << message;
  }
}

TEST_F(proton_cli_wrap, dash_m_without_a_module_is_refused) {
  const std::string message = refusal({"python3", "-u", "-m"});
  EXPECT_NE(message.find("saw '-m' with no module name"), std::string::npos) << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, interpreter_without_a_script_is_refused) {
  const std::string message = refusal({"python3", "-u"});
  EXPECT_NE(message.find("needs a script path after the interpreter"), std::string::npos)
      << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, pinned_roctracer_is_refused_before_the_argv_shape) {
  proton_options options;
  options.backend = "roctracer";
  // A command that rule 9 would also refuse: rule 10's message must win.
  const std::string message = refusal({"./hip_app"}, options);
  EXPECT_TRUE(message.starts_with("proton: cannot pin backend 'roctracer'")) << message;
  EXPECT_NE(message.find("empty ROOT"), std::string::npos) << message;
  EXPECT_NE(message.find("Triton <= 3.7.x"), std::string::npos) << message;
  EXPECT_NE(message.find("proton: {backend: auto}"), std::string::npos) << message;
  EXPECT_NE(message.find("amd-roctracer"), std::string::npos) << message;
  EXPECT_TRUE(ends_with_escape(message)) << message;
}

TEST_F(proton_cli_wrap, roctracer_under_mode_env_is_accepted) {
  proton_options options;
  options.mode = "env";
  options.backend = "roctracer";
  EXPECT_EQ(wrap({"./hip_app"}, options).argv, strings{"./hip_app"});
}

TEST_F(proton_cli_wrap, missing_interpreter_skips) {
  EXPECT_THROW((void)wrap({"python3.99", "s.py"}), skip_error);
}

TEST(proton_interpreter, names_that_are_python) {
  EXPECT_TRUE(is_python_interpreter("python"));
  EXPECT_TRUE(is_python_interpreter("python3"));
  EXPECT_TRUE(is_python_interpreter("python3.12"));
  EXPECT_TRUE(is_python_interpreter("/opt/venv/bin/python3.9"));
  EXPECT_FALSE(is_python_interpreter("python3."));
  EXPECT_FALSE(is_python_interpreter("python3.12-config"));
  EXPECT_FALSE(is_python_interpreter("pytest"));
  EXPECT_FALSE(is_python_interpreter("/usr/bin/python/tool"));
  EXPECT_FALSE(is_python_interpreter("ipython"));
}

TEST(proton_interpreter, override_wins_and_expands_home) {
  const env_map env{{"HOME", "/home/me"}, {"AORTA_PROTON_PYTHON", "~/venv/bin/python"}};
  const python_choice choice = resolve_python({"python3", "s.py"}, env);
  EXPECT_EQ(choice.interpreter, "/home/me/venv/bin/python");
  EXPECT_TRUE(choice.warnings.empty());
}

TEST(proton_interpreter, argv0_python_is_used_as_written) {
  EXPECT_EQ(resolve_python({"/usr/bin/python3.11", "s.py"}, {}).interpreter, "/usr/bin/python3.11");
}

TEST(proton_interpreter, pytest_shebang_names_the_interpreter) {
  const test::scratch_dir dir;
  const auto python = dir.write("venv/bin/python3.11", "#!/bin/sh\n");
  dir.write("venv/bin/pytest", "#!" + python.string() + "\nimport sys\n");
  const env_map env{{"PATH", (dir.path() / "venv/bin").string()}};
  const python_choice choice = resolve_python({"pytest", "-q"}, env);
  EXPECT_EQ(choice.interpreter, python.string());
  EXPECT_TRUE(choice.warnings.empty());
}

TEST(proton_interpreter, pytest_shebang_through_env_names_the_command) {
  const test::scratch_dir dir;
  dir.write("bin/pytest", "#!/usr/bin/env python3\nimport sys\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}};
  EXPECT_EQ(resolve_python({"pytest"}, env).interpreter, "python3");
}

TEST(proton_interpreter, non_python_shebang_falls_back_with_a_warning) {
  const test::scratch_dir dir;
  const auto pytest = dir.write("bin/pytest", "#!/bin/sh\nexec python3 -m pytest \"$@\"\n");
  const env_map env{{"PATH", (dir.path() / "bin").string()}};
  const python_choice choice = resolve_python({"pytest"}, env);
  EXPECT_EQ(choice.interpreter, "python3");
  ASSERT_EQ(choice.warnings.size(), 1U);
  EXPECT_EQ(choice.warnings.front(),
            "proton: the shebang of " + pytest.string() +
                " names '/bin/sh', not a Python interpreter; using python3; set "
                "$AORTA_PROTON_PYTHON to the interpreter that has Triton and pytest installed");
}

TEST(proton_interpreter, pytest_not_on_path_falls_back_with_a_warning) {
  const python_choice choice = resolve_python({"pytest"}, env_map{{"PATH", "/nonexistent"}});
  EXPECT_EQ(choice.interpreter, "python3");
  EXPECT_EQ(choice.warnings,
            strings{"proton: 'pytest' is not an executable file or on $PATH, so the interpreter "
                    "it belongs to is unknown; using python3; set $AORTA_PROTON_PYTHON to the "
                    "interpreter that has Triton and pytest installed"});
}

TEST(proton_interpreter, pytest_by_path_reads_that_files_shebang_and_runs_as_bare_pytest) {
  const test::scratch_dir dir;
  const auto python = dir.write("venv/bin/python3.10", "#!/bin/sh\n");
  const auto pytest = dir.write("venv/bin/pytest", "#!" + python.string() + "\n");
  // PATH names no pytest: only the path in argv[0] can lead to the venv's interpreter.
  const env_map env{{"PATH", "/nonexistent"}};
  const strings expected{python.string(),
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/t/proton/proton",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "pytest",
                         "tests/test_gelu.py"};
  EXPECT_EQ(proton_wrap(launch_plan{{pytest.string(), "tests/test_gelu.py"}, {}, {}, {}},
                        proton_options{}, "/t/proton", env)
                .argv,
            expected);
}

TEST(proton_interpreter, bare_pytest_wrap_runs_proton_under_the_shebang_interpreter) {
  const test::scratch_dir dir;
  const auto python = dir.write("venv/bin/python3", "#!/bin/sh\n");
  dir.write("venv/bin/pytest", "#!" + python.string() + "\n");
  const env_map env{{"PATH", (dir.path() / "venv/bin").string()}};
  const strings expected{python.string(),
                         "-m",
                         "triton.profiler.proton",
                         "-n",
                         "/t/proton/proton",
                         "--context",
                         "shadow",
                         "--data",
                         "tree",
                         "pytest",
                         "-k",
                         "gelu"};
  EXPECT_EQ(proton_wrap(launch_plan{{"pytest", "-k", "gelu"}, {}, {}, {}}, proton_options{},
                        "/t/proton", env)
                .argv,
            expected);
}

TEST(proton_interpreter, unresolvable_override_is_an_unavailable_reason_in_cli_mode_only) {
  const env_map env{{"PATH", "/nonexistent"}, {"AORTA_PROTON_PYTHON", "/nonexistent/python3"}};
  EXPECT_TRUE(proton_unavailable_reason(proton_options{}, env).has_value());
  proton_options env_mode;
  env_mode.mode = "env";
  EXPECT_FALSE(proton_unavailable_reason(env_mode, env).has_value());
  EXPECT_FALSE(proton_unavailable_reason(proton_options{}, {{"PATH", "/nonexistent"}}));
}

}  // namespace
}  // namespace aorta
