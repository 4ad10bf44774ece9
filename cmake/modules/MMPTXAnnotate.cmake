#===- MMPTXAnnotate.cmake - Keep annotated CUDA sources fresh --*- cmake -*-===//
#
# Part of the mmptx project, under the Apache License v2.0 with LLVM
# Exceptions.
#
#===----------------------------------------------------------------------===//
#
# mmptx_annotate_sources(<out-var> <source>...
#                        [OUTPUT_DIR <dir>]
#                        [TYPES <header>...])
#
# Adds, for every <source>, a custom command that runs mmptx-annotate on it
# and writes <dir>/<file name> (default <dir>:
# ${CMAKE_CURRENT_BINARY_DIR}/mmptx-annotated). The command re-runs whenever
# the source, one of the TYPES headers or mmptx-annotate itself changes, so
# the rewritten sources never go stale. <out-var> receives the rewritten
# paths in the order of the sources; use them instead of the originals:
#
#   include(MMPTXAnnotate)
#   mmptx_generate_inject_types(${CMAKE_CURRENT_BINARY_DIR}/MyTypes.h
#                               ${CMAKE_CURRENT_SOURCE_DIR}/MyTypes.td)
#   mmptx_annotate_sources(KERNELS kernel.cu other.cu
#                          TYPES ${CMAKE_CURRENT_BINARY_DIR}/MyTypes.h)
#   add_library(kernels OBJECT ${KERNELS})
#   set_target_properties(kernels PROPERTIES CUDA_PTX_COMPILATION ON)
#   # the rewritten files live elsewhere: keep `#include "local.h"` working
#   target_include_directories(kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
#
# TYPES are headers made by `mmptx-tblgen -gen-inject-device-types` from the
# user's own .td file (see mmptx_generate_inject_types below); they may be
# outputs of custom commands in the same directory.
#
# mmptx_generate_inject_types(<header> <td> [INCLUDES <dir>...])
#
# Generates <header> from <td> with mmptx-tblgen -gen-inject-device-types
# (mmptx's td/ is on the include path, so `include "InjectBase.td"` works).
#
# The tools are the in-tree targets mmptx-annotate / mmptx-tblgen when this
# file is used inside the mmptx build; otherwise MMPTX_ANNOTATE_EXECUTABLE /
# MMPTX_TBLGEN_EXECUTABLE (find_package(mmptx) sets both to the installed
# tools), or the programs found in MMPTX_TOOLS_DIR or on PATH. MMPTX_TD_DIR
# names mmptx's td/ folder (find_package(mmptx) sets it; default: the source
# tree's or the installed package's td/ next to this file).
#===----------------------------------------------------------------------===//

set(_MMPTX_ANNOTATE_MODULE_DIR ${CMAKE_CURRENT_LIST_DIR})

function(_mmptx_find_tool var target cache)
  if(TARGET ${target})
    set(${var} $<TARGET_FILE:${target}> PARENT_SCOPE)
    set(${var}_DEPENDS ${target} PARENT_SCOPE)
    return()
  endif()
  if(NOT ${cache})
    find_program(${cache} ${target} HINTS ${MMPTX_TOOLS_DIR})
  endif()
  if(NOT ${cache})
    message(FATAL_ERROR "${target} not found: set ${cache}")
  endif()
  set(${var} ${${cache}} PARENT_SCOPE)
  set(${var}_DEPENDS ${${cache}} PARENT_SCOPE)
endfunction()

function(mmptx_annotate_sources out_var)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "TYPES" ${ARGN})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/mmptx-annotated)
  endif()
  _mmptx_find_tool(tool mmptx-annotate MMPTX_ANNOTATE_EXECUTABLE)
  set(type_args)
  set(type_files)
  foreach(header ${ARG_TYPES})
    get_filename_component(header ${header} ABSOLUTE)
    list(APPEND type_args --types ${header})
    list(APPEND type_files ${header})
  endforeach()
  file(MAKE_DIRECTORY ${ARG_OUTPUT_DIR})
  set(outputs)
  foreach(src ${ARG_UNPARSED_ARGUMENTS})
    get_filename_component(src ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    set(out ${ARG_OUTPUT_DIR}/${name})
    if(out IN_LIST outputs)
      message(FATAL_ERROR "mmptx_annotate_sources: two sources named ${name}")
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${tool} ${type_args} ${src} -o ${out}
      DEPENDS ${src} ${type_files} ${tool_DEPENDS}
      COMMENT "Annotating ${name}"
      VERBATIM)
    list(APPEND outputs ${out})
  endforeach()
  set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()

function(mmptx_generate_inject_types header td)
  cmake_parse_arguments(ARG "" "" "INCLUDES" ${ARGN})
  _mmptx_find_tool(tool mmptx-tblgen MMPTX_TBLGEN_EXECUTABLE)
  if(NOT MMPTX_TD_DIR)
    # cmake/modules/ in the source tree, lib/cmake/mmptx/ when installed.
    foreach(rel ../../td ../../../share/mmptx/td)
      get_filename_component(dir ${_MMPTX_ANNOTATE_MODULE_DIR}/${rel} ABSOLUTE)
      if(NOT MMPTX_TD_DIR AND EXISTS ${dir}/InjectBase.td)
        set(MMPTX_TD_DIR ${dir})
      endif()
    endforeach()
  endif()
  get_filename_component(td ${td} ABSOLUTE)
  get_filename_component(header ${header} ABSOLUTE)
  get_filename_component(dir ${header} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  set(includes -I ${MMPTX_TD_DIR})
  foreach(inc ${ARG_INCLUDES})
    list(APPEND includes -I ${inc})
  endforeach()
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${tool} -gen-inject-device-types ${includes} ${td} -o ${header}
            -d ${header}.d
    DEPENDS ${td} ${tool_DEPENDS}
    DEPFILE ${header}.d
    COMMENT "Generating ${header}"
    VERBATIM)
endfunction()
