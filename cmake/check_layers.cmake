# check_layers.cmake - fails the build when a source file includes a header from a layer
# above its own. Layers, bottom up (docs/architecture.md):
#   common; codecs, model, fixtures; measure; tables; report; study; cli; main.c
# Headers common/sys_<system>_*.h are private to common/sys_*.c (the unit tests, outside
# analyzer/, may include them).
# Run as: cmake -DSOURCE_DIR=<repo> -P cmake/check_layers.cmake
set(allowed_common   common)
set(allowed_codecs   common codecs)
set(allowed_model    common model)
set(allowed_fixtures common fixtures)
set(allowed_measure  common codecs measure)
set(allowed_tables   common codecs model measure tables)
set(allowed_report   common codecs model measure tables report)
set(allowed_study    common codecs model fixtures measure tables report study)
set(allowed_cli      common codecs model fixtures measure tables report study cli)
set(allowed_main     common codecs model fixtures measure tables report study cli)

file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
  ${SOURCE_DIR}/analyzer/*.c ${SOURCE_DIR}/analyzer/*.h
  ${SOURCE_DIR}/codecs/*.c ${SOURCE_DIR}/codecs/*.h
  ${SOURCE_DIR}/fixtures/*.c ${SOURCE_DIR}/fixtures/*.h)
set(violations "")
foreach(src ${sources})
  if(src MATCHES "^analyzer/main\\.c$")
    set(layer main)
  elseif(src MATCHES "^analyzer/([a-z]+)/")
    set(layer ${CMAKE_MATCH_1})
  elseif(src MATCHES "^(codecs|fixtures)/")
    set(layer ${CMAKE_MATCH_1})
  else()
    continue()
  endif()
  if(NOT DEFINED allowed_${layer})
    list(APPEND violations "${src}: not in any layer (add it to cmake/check_layers.cmake)")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${src} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line ${includes})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" header "${line}")
    if(header MATCHES "^([a-z]+)/")
      set(to ${CMAKE_MATCH_1})
      list(FIND allowed_${layer} ${to} found)
      if(found EQUAL -1)
        list(APPEND violations "${src}: includes \"${header}\" (layer ${layer} may not use ${to})")
      endif()
    endif()
    # An OS implementation's own headers (common/sys_linux_parse.h) are private to it.
    if(header MATCHES "^common/sys_[a-z]+_" AND NOT src MATCHES "^analyzer/common/sys_")
      list(APPEND violations "${src}: includes \"${header}\" (private to common/sys_*.c)")
    endif()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "upward includes:\n  ${text}")
endif()
