# cmake -DCXX=<compiler> -DINCLUDE_DIR=<harness/include> "-DEXTRA_INCLUDES=a|b" -P check_headers.cmake
# Compiles every public header alone, at test time, each in its own translation unit with only the
# public include directory (and the packages the installed config exports): a header that leans on
# an include its includer happened to make fails here. Headers are listed now, not at configure
# time, so a header added since is checked too.
file(GLOB headers "${INCLUDE_DIR}/aorta/*.hpp")
list(LENGTH headers count)
if(count EQUAL 0)
  message(FATAL_ERROR "no public headers under ${INCLUDE_DIR}/aorta: is INCLUDE_DIR right?")
endif()
set(include_flags "-I${INCLUDE_DIR}")
string(REPLACE "|" ";" extra "${EXTRA_INCLUDES}")
foreach(dir IN LISTS extra)
  # The compiler's own directories stay implicit: naming /usr/include breaks libstdc++'s
  # #include_next chain.
  if(dir AND NOT dir MATCHES "^/usr(/local)?/include/?$")
    list(APPEND include_flags "-isystem${dir}")
  endif()
endforeach()
set(failed)
foreach(header IN LISTS headers)
  get_filename_component(name "${header}" NAME)
  file(WRITE "${WORK_DIR}/${name}.cpp" "#include \"aorta/${name}\"\n")
  execute_process(
    COMMAND "${CXX}" -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror ${include_flags}
            "${WORK_DIR}/${name}.cpp"
    RESULT_VARIABLE rc ERROR_VARIABLE errors OUTPUT_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "self-contained: aorta/${name}")
  else()
    message("NOT self-contained: aorta/${name}\n${out}${errors}")
    list(APPEND failed "aorta/${name}")
  endif()
endforeach()
if(failed)
  list(JOIN failed ", " names)
  message(FATAL_ERROR "public headers that do not compile alone: ${names}; add the includes they use")
endif()
message(STATUS "${count} public headers compile alone")
