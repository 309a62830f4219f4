# One CLI vocabulary (docs/cli.md, "One vocabulary"): walks every command's --help, as
# cli_reference.cmake does, and fails when
#   - an option shows CLI11's type (TEXT, INT, FLOAT, UINT) instead of a value name;
#   - one option name shows two value names on two commands;
#   - a command that runs trials lacks one of the options they share.
#   cmake -DAORTA=<aorta> -P vocabulary.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT EXISTS "${AORTA}")
  message(FATAL_ERROR "vocabulary.cmake: -DAORTA=<aorta> must exist (got '${AORTA}')")
endif()

# The options every command that runs trials takes, with their value names ("" for a flag).
set(trial_options "--recipe RECIPE" "--output,--output-dir DIR" "--trials N" "--require-profiler"
                  "-q,--quiet" "-v,--verbose" "--ctest-measurements")
set(payload_options "--check EXPR" "--timeout SECONDS" "--measure METRIC" "--platforms LIST"
                    "--seed N")
set(trial_commands "sweep,run" "ab" "calibrate")
set(payload_commands "sweep,run" "ab")

set(failures "")
set(pending "-")
set(seen_options "")
set(commands_walked 0)
while(pending)
  list(POP_FRONT pending command)
  set(words "")
  if(NOT command STREQUAL "-")
    string(REPLACE "," ";" words "${command}")
  endif()
  execute_process(COMMAND "${AORTA}" ${words} --help
    OUTPUT_VARIABLE help ERROR_VARIABLE help_err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "aorta ${words} --help exited ${rc}: ${help_err}")
  endif()
  math(EXPR commands_walked "${commands_walked} + 1")
  string(REPLACE ";" " " title "aorta;${words}")
  # Option lines: two spaces, the names, then a value name unless it is a flag.
  string(REGEX MATCHALL "\n  -[^ \n]+( [^ \n]+)?" option_lines "${help}")
  foreach(line IN LISTS option_lines)
    string(STRIP "${line}" line)
    if(NOT line MATCHES "^(-[^ ]+)( ([^ ]+))?$")
      continue()
    endif()
    set(names "${CMAKE_MATCH_1}")
    set(value "${CMAKE_MATCH_3}")
    if(value MATCHES "^(TEXT|INT|FLOAT|UINT|[A-Z]+:(INT|FLOAT|UINT))")
      string(APPEND failures "${title}: ${names} shows CLI11's type '${value}', not a value name\n")
    endif()
    if(NOT value MATCHES "^[A-Z]")
      set(value "")  # a flag: the next word is its description
    endif()
    # The first long name keys the option across commands.
    string(REGEX MATCH "--[a-z-]+" key "${names}")
    if(DEFINED value_of_${key} AND NOT value_of_${key} STREQUAL value)
      string(APPEND failures "${names} is '${value}' in ${title} but '${value_of_${key}}' in "
                             "${where_${key}}\n")
    elseif(NOT DEFINED value_of_${key})
      set(value_of_${key} "${value}")
      set(where_${key} "${title}")
    endif()
  endforeach()
  # The options shared by every command that runs trials (and takes a payload's checks).
  foreach(kind IN ITEMS trial payload)
    if("${command}" IN_LIST ${kind}_commands)
      foreach(option IN LISTS ${kind}_options)
        string(FIND "${help}" "\n  ${option}" at)
        if(at EQUAL -1)
          string(APPEND failures "${title}: lacks '${option}', which every command that runs "
                                 "trials takes\n")
        endif()
      endforeach()
    endif()
  endforeach()
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

if(commands_walked LESS 10)
  string(APPEND failures "only ${commands_walked} command(s) walked; the Subcommands lists changed shape\n")
endif()
if(failures)
  message(FATAL_ERROR "the CLI breaks its vocabulary (docs/cli.md, \"One vocabulary\"):\n${failures}")
endif()
message(STATUS "${commands_walked} commands follow the vocabulary")
