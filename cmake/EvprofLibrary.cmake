# evprof_add_library(PREFIX OUTPUT_NAME MODULES [SOURCES...]): one library
# built from the .c files of the module folders MODULES (and SOURCES), compiled once into PREFIX_objects
# (position-independent) and linked twice: PREFIX_shared
# (libOUTPUT_NAME.so.VERSION, SONAME libOUTPUT_NAME.so.SOVERSION) and
# PREFIX_static (libOUTPUT_NAME.a). Both see the public headers
# (include/evprof/, and the generated version.h) and export them.
#
# Compiled with -fvisibility=hidden: a shared library exports only what
# the public headers declare with EVPROF_API (include/evprof/export.h;
# tests/cli/symbols.sh compares `nm -D` with the headers both ways).
# evprof_private_objects(SOURCES...) makes the object library of util/'s
# helpers that libevprof-graph and libevprof-export call but no public
# header declares: their shared libraries link a hidden copy of their own
# (their static libraries take them from libevprof.a).
#
# SOVERSION: the major version, or major.minor while the major is 0 (every
# 0.x release may change the ABI).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(EVPROF_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(EVPROF_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()

function(evprof_add_library prefix output_name modules)
  set(globs)
  foreach(m IN LISTS modules)
    list(APPEND globs ${PROJECT_SOURCE_DIR}/${m}/*.c)
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${globs})

  add_library(${prefix}_objects OBJECT ${sources} ${ARGN})
  set_target_properties(${prefix}_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # Calls between the library's own functions stay direct and inlinable
  # even though the code is position-independent (no interposition of
  # library symbols; the static library and the CLI keep their speed).
  target_compile_options(${prefix}_objects PRIVATE -fno-semantic-interposition)
  set_target_properties(${prefix}_objects PROPERTIES C_VISIBILITY_PRESET hidden)
  target_include_directories(${prefix}_objects
    PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
    PRIVATE ${PROJECT_SOURCE_DIR})

  add_library(${prefix}_shared SHARED $<TARGET_OBJECTS:${prefix}_objects>)
  add_library(${prefix}_static STATIC $<TARGET_OBJECTS:${prefix}_objects>)
  set_target_properties(${prefix}_shared PROPERTIES
    OUTPUT_NAME ${output_name} VERSION ${PROJECT_VERSION} SOVERSION ${EVPROF_SOVERSION})
  set_target_properties(${prefix}_static PROPERTIES OUTPUT_NAME ${output_name})
  # Every symbol a shared library needs comes from a library it names
  # (not under sanitizers: clang puts their runtime in executables only).
  if(NOT EVPROF_SANITIZE AND NOT EVPROF_FUZZ)
    target_link_options(${prefix}_shared PRIVATE -Wl,--no-undefined)
  endif()
  foreach(t ${prefix}_shared ${prefix}_static)
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
endfunction()

function(evprof_private_objects)
  add_library(evprof_private_objects OBJECT ${ARGN})
  set_target_properties(evprof_private_objects PROPERTIES POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  target_compile_options(evprof_private_objects PRIVATE -fno-semantic-interposition)
  target_include_directories(evprof_private_objects
    PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include ${PROJECT_SOURCE_DIR})
endfunction()
