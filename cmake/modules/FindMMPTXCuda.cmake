#===- FindMMPTXCuda.cmake - Optional CUDA toolkit pieces -------*- cmake -*-===//
#
# Everything CUDA is optional: the library, the tools and the test suite build
# and pass without it; lit marks the tests that need a piece UNSUPPORTED.
# Sets MMPTX_NVCC, MMPTX_PTXAS, MMPTX_HAVE_NVRTC, MMPTX_HAVE_NVJITLINK and the
# imported targets CUDA::nvrtc / CUDA::nvJitLink when found, and
# MMPTX_CUTLASS_INCLUDE (the CuTe/CUTLASS headers) or "".
#===----------------------------------------------------------------------===//
find_package(CUDAToolkit QUIET)
set(MMPTX_HAVE_NVRTC OFF)
set(MMPTX_HAVE_NVJITLINK OFF)
set(MMPTX_NVCC "")
set(MMPTX_PTXAS "")
if(CUDAToolkit_FOUND)
  find_program(MMPTX_NVCC_PROG nvcc HINTS ${CUDAToolkit_BIN_DIR})
  find_program(MMPTX_PTXAS_PROG ptxas HINTS ${CUDAToolkit_BIN_DIR})
  if(MMPTX_NVCC_PROG)
    set(MMPTX_NVCC ${MMPTX_NVCC_PROG})
  endif()
  if(MMPTX_PTXAS_PROG)
    set(MMPTX_PTXAS ${MMPTX_PTXAS_PROG})
  endif()
  if(TARGET CUDA::nvrtc)
    set(MMPTX_HAVE_NVRTC ON)
  endif()
  if(NOT TARGET CUDA::nvJitLink)   # CMake < 3.26 has no such target
    find_library(MMPTX_NVJITLINK_LIB nvJitLink HINTS ${CUDAToolkit_LIBRARY_DIR})
    if(MMPTX_NVJITLINK_LIB)
      add_library(CUDA::nvJitLink SHARED IMPORTED)
      set_target_properties(CUDA::nvJitLink PROPERTIES
        IMPORTED_LOCATION ${MMPTX_NVJITLINK_LIB}
        INTERFACE_INCLUDE_DIRECTORIES "${CUDAToolkit_INCLUDE_DIRS}")
    endif()
  endif()
  if(TARGET CUDA::nvJitLink)
    set(MMPTX_HAVE_NVJITLINK ON)
  endif()
  message(STATUS "CUDA ${CUDAToolkit_VERSION}: nvcc=${MMPTX_NVCC} ptxas=${MMPTX_PTXAS} "
                 "nvrtc=${MMPTX_HAVE_NVRTC} nvJitLink=${MMPTX_HAVE_NVJITLINK}")
else()
  message(STATUS "CUDA toolkit not found: CUDA tests will be UNSUPPORTED")
endif()

# The CuTe/CUTLASS headers: -DMMPTX_CUTLASS_INCLUDE_DIR=<dir holding
# cute/tensor.hpp>, or else those of the nvidia-cutlass pip package
# (utils/setup.sh installs it; utils/find-cutlass.sh finds it).
set(MMPTX_CUTLASS_INCLUDE_DIR "" CACHE PATH
    "CUTLASS include directory (the one holding cute/tensor.hpp)")
set(MMPTX_CUTLASS_INCLUDE "${MMPTX_CUTLASS_INCLUDE_DIR}")
if(NOT MMPTX_CUTLASS_INCLUDE)
  execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/utils/find-cutlass.sh
    OUTPUT_VARIABLE root OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
    RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND root)
    set(MMPTX_CUTLASS_INCLUDE "${root}/include")
  endif()
endif()
if(MMPTX_CUTLASS_INCLUDE AND NOT EXISTS "${MMPTX_CUTLASS_INCLUDE}/cute/tensor.hpp")
  message(WARNING "MMPTX_CUTLASS_INCLUDE_DIR has no cute/tensor.hpp: ${MMPTX_CUTLASS_INCLUDE}")
  set(MMPTX_CUTLASS_INCLUDE "")
endif()
if(MMPTX_CUTLASS_INCLUDE)
  message(STATUS "CUTLASS headers: ${MMPTX_CUTLASS_INCLUDE}")
else()
  message(STATUS "CUTLASS headers not found: CuTe tests will be UNSUPPORTED")
endif()
