// Compiles against the installed aorta headers and links the harness library.
#include "aorta/error.hpp"

#include <cstdio>

int main() {
  const aorta::source_location where{"recipe.yaml", 3, 1};
  std::printf("%s\n", where.to_string().c_str());
  return 0;
}
