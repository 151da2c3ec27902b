# Runs an example and requires exit status 0 and every line in EXPECT (a
# ;-list of regular expressions) in its output.
execute_process(COMMAND ${EXAMPLE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXAMPLE} exited with ${rc}\n${err}")
endif()
foreach(pattern IN LISTS EXPECT)
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "output lacks: ${pattern}")
  endif()
endforeach()
