# What `cmake --install` puts under the prefix (GNUInstallDirs):
#   lib/        libevprof.so.*, libevprof.a, and the same of libevprof-graph
#               and libevprof-export
#   lib/pkgconfig/evprof.pc, evprof-graph.pc, evprof-export.pc
#   lib/cmake/evprof/   evprofConfig.cmake, its version file, the targets
#   include/evprof/     the public headers and version.h
# The CLI and its man page are installed by the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

# EVPROF_LIBRARIES: the target prefixes built (evprof, evprof_graph,
# evprof_export: see EVPROF_GRAPH and EVPROF_EXPORT).
set(targets)
foreach(lib IN LISTS EVPROF_LIBRARIES)
  list(APPEND targets ${lib}_shared ${lib}_static)
endforeach()
install(TARGETS ${targets}
        EXPORT evprofTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The headers of a library left out (EVPROF_GRAPH, EVPROF_EXPORT) stay out.
set(excluded)
if(NOT EVPROF_GRAPH)
  list(APPEND excluded PATTERN graph.h EXCLUDE)
endif()
if(NOT EVPROF_EXPORT)
  list(APPEND excluded PATTERN speedscope.h EXCLUDE PATTERN pprof.h EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/evprof
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" ${excluded})
install(FILES ${PROJECT_BINARY_DIR}/include/evprof/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/evprof)

# pkg-config: the .pc files find the prefix from their own place
# (${pcfiledir}), so `cmake --install build --prefix DIR` gives working
# files for any DIR. Graphviz appears only in evprof-graph.pc, as
# Requires.private: `pkg-config --libs evprof-graph` links libevprof-graph
# and libevprof; --static adds libgvc and libcgraph. The same for
# evprof-export.pc and protobuf-c, zlib and libcurl.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(EVPROF_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(EVPROF_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(EVPROF_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH rel "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" rel "${rel}")
  set(EVPROF_PC_PREFIX "\${pcfiledir}/${rel}")
  set(EVPROF_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(EVPROF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
foreach(lib IN LISTS EVPROF_LIBRARIES)
  string(REPLACE "_" "-" pc ${lib})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# CMake: find_package(evprof) gives evprof::evprof (shared),
# evprof::evprof-static, evprof::graph(-static), evprof::export(-static).
set(EVPROF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/evprof)
install(EXPORT evprofTargets NAMESPACE evprof:: DESTINATION ${EVPROF_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/evprofConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/evprofConfig.cmake
  INSTALL_DESTINATION ${EVPROF_CMAKE_DIR})
# 0.x: a minor release may break the API, so 0.1 does not satisfy 0.2.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(compat SameMinorVersion)
else()
  set(compat SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/evprofConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${compat})
install(FILES ${PROJECT_BINARY_DIR}/cmake/evprofConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/evprofConfigVersion.cmake
        DESTINATION ${EVPROF_CMAKE_DIR})
