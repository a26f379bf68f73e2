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
install(TARGETS memplan-opt memplan-solve RUNTIME DESTINATION bin)
install(TARGETS MemPlanPlugin LIBRARY DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memplan DESTINATION include
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/memplan DESTINATION include
  FILES_MATCHING PATTERN "*.inc")
install(EXPORT MemPlanTargets NAMESPACE MemPlan::
  DESTINATION lib/cmake/MemPlan)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/MemPlanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MemPlanConfig.cmake
  INSTALL_DESTINATION lib/cmake/MemPlan)
install(FILES ${PROJECT_BINARY_DIR}/MemPlanConfig.cmake
  DESTINATION lib/cmake/MemPlan)
