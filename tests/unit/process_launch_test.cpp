// run_process launching: argv passed literally (no shell), the executable found on the child's
// PATH, the child's environment exactly as given, and the working directory.
#include "aorta/error.hpp"
#include "process/process.hpp"
#include "unit/process_test_support.hpp"

#include <gtest/gtest.h>

namespace aorta {
namespace {

namespace fs = std::filesystem;
using test::logged_spec;
using test::read_file;
using test::scratch_dir;

void install_copy(const fs::path& source, const fs::path& target, fs::perms mode) {
  fs::create_directories(target.parent_path());
  fs::copy_file(source, target, fs::copy_options::overwrite_existing);
  fs::permissions(target, mode);
}

std::string setup_error_message(const process_spec& spec) {
  try {
    static_cast<void>(run_process(spec));
  } catch (const setup_error& e) {
    return e.what();
  }
  return "(no setup_error)";
}

TEST(RunProcessLaunch, ArgvIsPassedLiterallyWithoutAShell) {
  scratch_dir dir;
  const std::vector<std::string> arguments{
      "two words", "it's", "\"quoted\"", "$(touch X)", "a;b", "*", "`touch Y`", "$HOME", ""};
  std::vector<std::string> argv{"printf", "[%s]\\n"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  auto spec = logged_spec(dir, argv);
  spec.working_directory = dir.path();
  ASSERT_EQ(run_process(spec).exit_status, 0);

  std::string expected;
  for (const auto& argument : arguments) expected += "[" + argument + "]\n";
  EXPECT_EQ(read_file(dir / "stdout.log"), expected);
  EXPECT_FALSE(fs::exists(dir / "X"));
  EXPECT_FALSE(fs::exists(dir / "Y"));
}

TEST(RunProcessLaunch, ExecutablePathWithSpaces) {
  scratch_dir dir;
  const fs::path program = dir / "dir with spaces" / "my echo";
  install_copy("/bin/echo", program, fs::perms::owner_all);
  const auto result = run_process(logged_spec(dir, {program.string(), "hello", "there"}));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "hello there\n");
}

TEST(RunProcessLaunch, ChildSeesExactlyItsEnvironment) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"env", "-0"});
  spec.environment = {{"PATH", "/usr/bin:/bin"},
                      {"AORTA_SPACES", "a b = c"},
                      {"AORTA_EMPTY", ""},
                      {"AORTA_NEWLINE", "line1\nline2"}};
  ASSERT_EQ(run_process(spec).exit_status, 0);

  const std::string expected = std::string("AORTA_EMPTY=") + '\0' + "AORTA_NEWLINE=line1\nline2" +
                               '\0' + "AORTA_SPACES=a b = c" + '\0' + "PATH=/usr/bin:/bin" + '\0';
  EXPECT_EQ(read_file(dir / "stdout.log"), expected);
}

TEST(RunProcessLaunch, BareNameIsFoundOnTheChildsPathNotOurs) {
  scratch_dir dir;
  // The child's PATH puts a copy of echo named `printf` first; ours would find the real printf.
  install_copy("/bin/echo", dir / "shadow" / "printf", fs::perms::owner_all);
  auto spec = logged_spec(dir, {"printf", "%s-", "a"});
  spec.environment["PATH"] =
      "/nonexistent-aorta-dir:" + (dir / "shadow").string() + ":/usr/bin:/bin";
  ASSERT_EQ(run_process(spec).exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "%s- a\n");
}

TEST(RunProcessLaunch, PathLookupSkipsNonExecutablesAndDirectories) {
  scratch_dir dir;
  install_copy("/bin/echo", dir / "first" / "aorta-tool",
               fs::perms::owner_read | fs::perms::owner_write);
  fs::create_directories(dir / "second" / "aorta-tool");
  install_copy("/bin/echo", dir / "third" / "aorta-tool", fs::perms::owner_all);
  auto spec = logged_spec(dir, {"aorta-tool", "from third"});
  spec.environment["PATH"] =
      (dir / "first").string() + ":" + (dir / "second").string() + ":" + (dir / "third").string();
  ASSERT_EQ(run_process(spec).exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "from third\n");
}

TEST(RunProcessLaunch, RelativePathEntryIsTakenFromTheWorkingDirectory) {
  scratch_dir dir;
  install_copy("/bin/echo", dir / "work" / "tools" / "aorta-tool", fs::perms::owner_all);
  auto spec = logged_spec(dir, {"aorta-tool", "relative"});
  spec.environment["PATH"] = "tools";
  spec.working_directory = dir / "work";
  ASSERT_EQ(run_process(spec).exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), "relative\n");
}

TEST(RunProcessLaunch, NotFoundOnPathIsASetupErrorNamingProgramAndPath) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"aorta-definitely-missing", "x"});
  spec.environment["PATH"] = "/nonexistent-a:/nonexistent-b";
  EXPECT_EQ(setup_error_message(spec), "cannot start 'aorta-definitely-missing': not found on PATH "
                                       "(/nonexistent-a:/nonexistent-b)");
}

TEST(RunProcessLaunch, BareNameWithoutPathInTheEnvironmentIsASetupError) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"true"});
  spec.environment.clear();
  EXPECT_EQ(
      setup_error_message(spec).rfind("cannot start 'true': not found on PATH (PATH is not set", 0),
      0u);
}

TEST(RunProcessLaunch, MissingExplicitPathIsASetupErrorWithTheReason) {
  scratch_dir dir;
  const std::string missing = (dir / "no-such-program").string();
  EXPECT_EQ(setup_error_message(logged_spec(dir, {missing})),
            "cannot start '" + missing + "': No such file or directory");
}

TEST(RunProcessLaunch, EmptyArgvIsASetupError) {
  scratch_dir dir;
  EXPECT_EQ(setup_error_message(logged_spec(dir, {})),
            "cannot start the command: its argv is empty");
}

TEST(RunProcessLaunch, WorkingDirectoryIsHonoured) {
  scratch_dir dir;
  fs::create_directories(dir / "sub dir");
  auto spec = logged_spec(dir, {"/bin/pwd", "-P"});
  spec.working_directory = dir / "sub dir";
  ASSERT_EQ(run_process(spec).exit_status, 0);
  EXPECT_EQ(read_file(dir / "stdout.log"), fs::canonical(dir / "sub dir").string() + "\n");
}

TEST(RunProcessLaunch, MissingWorkingDirectoryIsASetupError) {
  scratch_dir dir;
  auto spec = logged_spec(dir, {"/bin/true"});
  spec.working_directory = dir / "absent";
  EXPECT_EQ(setup_error_message(spec), "cannot start '/bin/true': working directory '" +
                                           (dir / "absent").string() + "' is not a directory");
}

}  // namespace
}  // namespace aorta
