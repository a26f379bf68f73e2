# `cmake --install` lays out headers, libraries, tools and the plugin under a
# prefix, with a package so `find_package(MemPlan)` works (test/Install).
include(CMakePackageConfigHelpers)

set(MEMPLAN_EXPORTED MemPlanCore MemPlanAnalysis MemPlanTransforms)
if(TARGET memplan_runtime)
  list(APPEND MEMPLAN_EXPORTED memplan_runtime)
endif()
install(TARGETS ${MEMPLAN_EXPORTED} EXPORT MemPlanTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib
  RUNTIME DESTINATION bin
  INCLUDES DESTINATION include)
install(TARGETS memplan-opt memplan-solve memplan-report-diff
  RUNTIME DESTINATION bin)
install(TARGETS MemPlanPlugin LIBRARY DESTINATION lib)
# Installed, the tools and the plugin find memplan's libraries beside them and
# libMLIR/libLLVM where LLVM lives (AddLLVM gives only $ORIGIN/../lib).
set(MEMPLAN_INSTALL_RPATH "\$ORIGIN/../lib" "${LLVM_LIBRARY_DIR}")
foreach(_t memplan-opt memplan-solve memplan-report-diff MemPlanPlugin
    ${MEMPLAN_EXPORTED})
  get_target_property(_type ${_t} TYPE)
  if(NOT _type STREQUAL "STATIC_LIBRARY")
    set_target_properties(${_t} PROPERTIES INSTALL_RPATH "${MEMPLAN_INSTALL_RPATH}")
  endif()
endforeach()
# No empty directories: the build tree's include/memplan also holds
# CMakeFiles/ and folders with nothing to install. Only the public API:
# PhaseTimer.h is the passes' own (private headers live under lib/).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memplan DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "CMakeFiles" EXCLUDE
  PATTERN "PhaseTimer.h" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/memplan DESTINATION include
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h" PATTERN "CMakeFiles" EXCLUDE)
install(EXPORT MemPlanTargets NAMESPACE MemPlan::
  DESTINATION lib/cmake/MemPlan)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/MemPlanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MemPlanConfig.cmake
  INSTALL_DESTINATION lib/cmake/MemPlan)
# find_package(MemPlan 0.1) accepts any 0.x at or above 0.1 (0.x releases
# may change the API, so a major version must match).
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/MemPlanConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/MemPlanConfig.cmake
  ${PROJECT_BINARY_DIR}/MemPlanConfigVersion.cmake
  DESTINATION lib/cmake/MemPlan)
