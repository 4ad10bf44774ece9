#===- FindMMPTXCuda.cmake - Optional CUDA toolkit pieces -------*- cmake -*-===//
#
# Everything CUDA is optional: the library, the tools and the test suite build
# and pass without it; lit marks the tests that need a piece UNSUPPORTED.
# Sets MMPTX_NVCC, MMPTX_PTXAS, MMPTX_HAVE_NVRTC, MMPTX_HAVE_NVJITLINK,
# MMPTX_HAVE_CUDA_H (the driver API header, used only to check lib/Runtime's
# declarations; the driver itself is opened at run time),
# MMPTX_CUDA_STUB_LIBCUDA (the toolkit's stub driver, for tests) and the imported
# targets CUDA::nvrtc / CUDA::nvJitLink when found.
#===----------------------------------------------------------------------===//
find_package(CUDAToolkit QUIET)
set(MMPTX_HAVE_NVRTC OFF)
set(MMPTX_HAVE_NVJITLINK OFF)
set(MMPTX_NVCC "")
set(MMPTX_PTXAS "")
set(MMPTX_HAVE_CUDA_H OFF)
set(MMPTX_CUDA_STUB_LIBCUDA "")
if(CUDAToolkit_FOUND)
  find_program(MMPTX_NVCC_PROG nvcc HINTS ${CUDAToolkit_BIN_DIR})
  find_program(MMPTX_PTXAS_PROG ptxas HINTS ${CUDAToolkit_BIN_DIR})
  if(MMPTX_NVCC_PROG)
    set(MMPTX_NVCC ${MMPTX_NVCC_PROG})
  endif()
  if(MMPTX_PTXAS_PROG)
    set(MMPTX_PTXAS ${MMPTX_PTXAS_PROG})
  endif()
  foreach(dir ${CUDAToolkit_INCLUDE_DIRS})
    if(EXISTS ${dir}/cuda.h)
      set(MMPTX_HAVE_CUDA_H ON)
    endif()
  endforeach()
  # The toolkit's stub driver (every call answers CUDA_ERROR_STUB_LIBRARY):
  # the runtime tests check that it is told apart from a real driver.
  if(EXISTS ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
    set(MMPTX_CUDA_STUB_LIBCUDA ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
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
                 "nvrtc=${MMPTX_HAVE_NVRTC} nvJitLink=${MMPTX_HAVE_NVJITLINK} "
                 "cuda.h=${MMPTX_HAVE_CUDA_H}")
else()
  message(STATUS "CUDA toolkit not found: CUDA tests will be UNSUPPORTED")
endif()
