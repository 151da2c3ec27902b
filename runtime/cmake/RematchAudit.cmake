# rematch_audit(<target>): compile <target> with REMATCH_AUDIT=1 in its Debug
# configuration, so debug builds record and compare both passes while release
# builds only replay RNG. The library needs no audit build of its own: it
# always contains the recorder (see docs/runtime.md, "Audit mode and the ODR").
function(rematch_audit target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "rematch_audit: ${target} is not a target")
  endif()
  target_compile_definitions(${target} PRIVATE
    $<$<CONFIG:Debug>:REMATCH_AUDIT=1>)
endfunction()
