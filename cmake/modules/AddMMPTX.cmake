#===- AddMMPTX.cmake - Project verbs ---------------------------*- cmake -*-===//
#
# add_mmptx_library(name src...)   static library linking LLVMSupport
# add_mmptx_tool(name src...)      executable in bin/
# add_mmptx_example(name src...)   example program in bin/, never installed
# add_mmptx_unittest(name src...)  GoogleTest binary, run by test/Unit
# add_mmptx_test_depends(target...) something else the tests need built
#                                  (a generated header they compile against)
#
# check-mmptx depends on every tool, unit test and test dependency, so that
# it passes from a clean build directory.
#===----------------------------------------------------------------------===//

llvm_map_components_to_libnames(MMPTX_LLVM_SUPPORT_LIBS support)

# Links <name> (<scope>) to <libs> and LLVMSupport, builds <depends> before
# it, and lists it in the global property <list>.
function(mmptx_link_target name scope libs depends list)
  target_link_libraries(${name} ${scope} ${libs} ${MMPTX_LLVM_SUPPORT_LIBS})
  if(depends)
    add_dependencies(${name} ${depends})
  endif()
  set_property(GLOBAL APPEND PROPERTY ${list} ${name})
endfunction()

function(add_mmptx_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  # What users of the installed package (find_package(mmptx)) inherit.
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  target_compile_features(${name} PUBLIC cxx_std_17)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  mmptx_link_target(${name} PUBLIC "${ARG_LINK_LIBS}" "${ARG_DEPENDS}" MMPTX_LIBS)
endfunction()

function(add_mmptx_tool name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  mmptx_link_target(${name} PRIVATE "${ARG_LINK_LIBS}" "${ARG_DEPENDS}" MMPTX_TOOLS)
endfunction()

function(add_mmptx_example name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  # The test suite runs it.
  mmptx_link_target(${name} PRIVATE "${ARG_LINK_LIBS}" "" MMPTX_TEST_DEPENDS)
endfunction()

function(add_mmptx_unittest name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${MMPTX_BINARY_DIR}/unittests)
  mmptx_link_target(${name} PRIVATE "${ARG_LINK_LIBS};GTest::gtest_main" ""
                    MMPTX_UNITTESTS)
endfunction()

function(add_mmptx_test_depends)
  set_property(GLOBAL APPEND PROPERTY MMPTX_TEST_DEPENDS ${ARGN})
endfunction()

# mmptx_tablegen(<output.inc> <backend-flag> <main.td>)
# Runs mmptx-tblgen with a depfile so edits to included .td files rebuild.
function(mmptx_tablegen out flag td)
  get_filename_component(outdir ${out} DIRECTORY)
  file(MAKE_DIRECTORY ${outdir})
  add_custom_command(
    OUTPUT ${out}
    COMMAND mmptx-tblgen ${flag} -I ${MMPTX_SOURCE_DIR}/td ${td}
            -o ${out} -d ${out}.d --write-if-changed
    DEPENDS mmptx-tblgen ${td}
    DEPFILE ${out}.d
    COMMENT "Building ${out}")
endfunction()
