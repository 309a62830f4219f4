// The single catch boundary: every aorta::error becomes its exit code here, and nowhere else.
#include "aorta/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  CLI::App app{"aorta: GPU profiling as a test"};
  app.set_version_flag("--version", AORTA_VERSION);
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(aorta::exit_code::usage);
  } catch (const aorta::error& e) {
    fmt::print(stderr, "aorta: {}\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "aorta: internal error: {}\n", e.what());
    return static_cast<int>(aorta::exit_code::failed);
  }
  return 0;
}
