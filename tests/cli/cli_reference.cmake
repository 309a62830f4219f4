# docs/cli.md cannot drift from the CLI: below its marker line it holds the `--help` output of
# every aorta command, found by walking the "Subcommands:" lists from `aorta --help` down. This
# script regenerates that part and fails when it differs from the file.
#   cmake -DAORTA=<aorta> -DDOC=<docs/cli.md> [-DUPDATE=ON] -P cli_reference.cmake
# With UPDATE=ON it rewrites the file instead (the part above the marker is kept).
cmake_minimum_required(VERSION 3.25)
if(NOT EXISTS "${AORTA}" OR NOT EXISTS "${DOC}")
  message(FATAL_ERROR "cli_reference.cmake: -DAORTA=<aorta> and -DDOC=<docs/cli.md> must exist "
                      "(got '${AORTA}', '${DOC}')")
endif()
set(marker "<!-- Generated below this line by tests/cli/cli_reference.cmake from `aorta ... --help`; do not edit by hand. -->")

set(pending "-")  # "-" is aorta itself; otherwise words joined by ";" are a command path
set(generated "")
while(pending)
  list(POP_FRONT pending command)
  if(command STREQUAL "-")
    set(words "")
  else()
    string(REPLACE "," ";" words "${command}")
  endif()
  execute_process(COMMAND "${AORTA}" ${words} --help
    OUTPUT_VARIABLE help ERROR_VARIABLE help_err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "aorta ${words} --help exited ${rc}: ${help_err}")
  endif()
  # The usage line names the binary by its path; the reference names it `aorta`.
  string(REGEX REPLACE "Usage: [^ \n]*aorta" "Usage: aorta" help "${help}")
  string(REGEX REPLACE "\n+$" "" help "${help}")
  string(REPLACE ";" " " title "aorta;${words}")
  string(APPEND generated "\n## ${title}\n\n```\n${help}\n```\n")
  # Subcommands listed after "Subcommands:", two spaces in, become commands to walk.
  string(FIND "${help}" "\nSubcommands:\n" at)
  if(at GREATER -1)
    string(SUBSTRING "${help}" ${at} -1 listed)
    string(REGEX MATCHALL "\n  [a-z][a-z-]*" names "${listed}")
    foreach(name IN LISTS names)
      string(STRIP "${name}" name)
      if(command STREQUAL "-")
        list(APPEND pending "${name}")
      else()
        list(APPEND pending "${command},${name}")
      endif()
    endforeach()
  endif()
endwhile()

file(READ "${DOC}" current)
string(FIND "${current}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC}: the marker line is missing; it must hold, on a line of its own:\n"
                      "${marker}")
endif()
string(LENGTH "${marker}" marker_length)
math(EXPR end "${at} + ${marker_length}")
string(SUBSTRING "${current}" 0 ${end} kept)
string(SUBSTRING "${current}" ${end} -1 old_generated)
# The line break that ends the marker line (REGEX REPLACE "^\n" would take every leading one).
string(SUBSTRING "${old_generated}" 0 1 first)
if(first STREQUAL "\n")
  string(SUBSTRING "${old_generated}" 1 -1 old_generated)
endif()
if(UPDATE)
  file(WRITE "${DOC}" "${kept}\n${generated}")
  message(STATUS "rewrote the generated part of ${DOC}")
elseif(NOT old_generated STREQUAL generated)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/cli_reference.generated.md" "${generated}")
  message(FATAL_ERROR "${DOC} differs from the `--help` output of this aorta (new text in "
                      "${CMAKE_CURRENT_BINARY_DIR}/cli_reference.generated.md). Fix: "
                      "cmake -DAORTA=${AORTA} -DDOC=${DOC} -DUPDATE=ON -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
