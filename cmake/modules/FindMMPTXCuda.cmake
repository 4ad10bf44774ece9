#===- FindMMPTXCuda.cmake - Optional CUDA toolkit pieces -------*- cmake -*-===//
#
# Everything CUDA is optional: the library, the tools and the test suite build
# and pass without it; lit marks the tests that need a piece UNSUPPORTED.
# Sets MMPTX_NVCC, MMPTX_PTXAS, MMPTX_HAVE_NVRTC, MMPTX_HAVE_NVJITLINK,
# MMPTX_HAVE_CUDA_H (the driver API header, used only to check lib/Runtime's
# declarations; the driver itself is opened at run time),
# MMPTX_CUDA_STUB_LIBCUDA (the toolkit's stub driver, for tests),
# MMPTX_HAVE_NVRTC_H / MMPTX_HAVE_NVJITLINK_H (their headers, used only to
# check the declarations mmptx fetches), and MMPTX_CUTLASS_INCLUDE (the
# CuTe/CUTLASS headers) or "". NVRTC and nvJitLink are never linked: mmptx
# opens them at run time (mmptx/Support/SharedLibrary.h); MMPTX_HAVE_NVRTC
# and MMPTX_HAVE_NVJITLINK say the toolkit has them, for the tests.
#===----------------------------------------------------------------------===//
find_package(CUDAToolkit QUIET)
set(MMPTX_HAVE_NVRTC OFF)
set(MMPTX_HAVE_NVJITLINK OFF)
set(MMPTX_NVCC "")
set(MMPTX_PTXAS "")
set(MMPTX_HAVE_CUDA_H OFF)
set(MMPTX_HAVE_NVRTC_H OFF)
set(MMPTX_HAVE_NVJITLINK_H OFF)
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
    if(EXISTS ${dir}/nvrtc.h)
      set(MMPTX_HAVE_NVRTC_H ON)
    endif()
    if(EXISTS ${dir}/nvJitLink.h)
      set(MMPTX_HAVE_NVJITLINK_H ON)
    endif()
  endforeach()
  # The toolkit's stub driver (every call answers CUDA_ERROR_STUB_LIBRARY):
  # the runtime tests check that it is told apart from a real driver.
  if(EXISTS ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
    set(MMPTX_CUDA_STUB_LIBCUDA ${CUDAToolkit_LIBRARY_DIR}/stubs/libcuda.so)
  endif()
  # Whether the toolkit has the libraries (the tests that need them run);
  # nothing links them.
  find_library(MMPTX_NVRTC_LIB nvrtc HINTS ${CUDAToolkit_LIBRARY_DIR})
  find_library(MMPTX_NVJITLINK_LIB nvJitLink HINTS ${CUDAToolkit_LIBRARY_DIR})
  if(MMPTX_NVRTC_LIB)
    set(MMPTX_HAVE_NVRTC ON)
  endif()
  if(MMPTX_NVJITLINK_LIB)
    set(MMPTX_HAVE_NVJITLINK ON)
  endif()
  message(STATUS "CUDA ${CUDAToolkit_VERSION}: nvcc=${MMPTX_NVCC} ptxas=${MMPTX_PTXAS} "
                 "nvrtc=${MMPTX_HAVE_NVRTC} nvJitLink=${MMPTX_HAVE_NVJITLINK} "
                 "cuda.h=${MMPTX_HAVE_CUDA_H}")
else()
  message(STATUS "CUDA toolkit not found: CUDA tests will be UNSUPPORTED")
endif()

# cuobjdump (with the nvdisasm it runs) for the tests that compare SASS: the
# toolkit here ships neither; utils/setup.sh installs NVIDIA's
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels into
# build/deps/cuobjdump. Sets MMPTX_CUOBJDUMP or "".
set(MMPTX_CUOBJDUMP "")
set(_mmptx_cuobjdump_dirs ${CUDAToolkit_BIN_DIR})
foreach(root ${CMAKE_BINARY_DIR}/deps/cuobjdump
             ${CMAKE_SOURCE_DIR}/build/deps/cuobjdump)
  file(GLOB _mmptx_dirs ${root}/nvidia/cu*/bin)
  list(APPEND _mmptx_cuobjdump_dirs ${_mmptx_dirs})
endforeach()
foreach(dir ${_mmptx_cuobjdump_dirs})
  if(NOT MMPTX_CUOBJDUMP AND EXISTS ${dir}/cuobjdump AND
     EXISTS ${dir}/nvdisasm)
    set(MMPTX_CUOBJDUMP ${dir}/cuobjdump)
  endif()
endforeach()
if(MMPTX_CUOBJDUMP)
  message(STATUS "cuobjdump: ${MMPTX_CUOBJDUMP}")
else()
  message(STATUS "cuobjdump/nvdisasm not found: SASS comparisons will be UNSUPPORTED")
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

#===- nvPTXCompiler (static library from the nvidia-nvptxcompiler wheel) --===//
# utils/setup.sh installs the wheel into build/deps/nvptxcompiler with
# `pip install --target` (other build trees of the checkout find it there
# too); a wheel installed into Python's site-packages, or
# any directory given as MMPTX_NVPTXCOMPILER_ROOT, works as well. Sets
# MMPTX_HAVE_NVPTXCOMPILER, MMPTX_NVPTXCOMPILER_VERSION (the wheel's) and the
# imported target MMPTX::nvptxcompiler_static. Link it into MMPTXBackendNvPtx
# only: it adds ~39 MB to whatever links it, and it is not redistributable.
set(MMPTX_NVPTXCOMPILER_ROOT "" CACHE PATH
    "Directory holding nvidia/cu*/lib/libnvptxcompiler_static.a")
# OFF: the nvptxcompiler backend is not built even where the library is
# found. A wheel build (MMPTX_WHEEL_BUILD) is always without it: NVIDIA's
# static library is not redistributable.
option(MMPTX_ENABLE_NVPTXCOMPILER
       "Link nvPTXCompiler's static library where it is found" ON)
set(MMPTX_HAVE_NVPTXCOMPILER OFF)
set(MMPTX_NVPTXCOMPILER_VERSION "")
set(_mmptx_nvptx_roots)
if(MMPTX_WHEEL_BUILD)
  message(STATUS "nvPTXCompiler: not searched (MMPTX_WHEEL_BUILD: a wheel "
                 "never embeds it)")
elseif(NOT MMPTX_ENABLE_NVPTXCOMPILER)
  message(STATUS "nvPTXCompiler: not searched (MMPTX_ENABLE_NVPTXCOMPILER=OFF)")
else()
  set(_mmptx_nvptx_roots ${MMPTX_NVPTXCOMPILER_ROOT}
      ${CMAKE_BINARY_DIR}/deps/nvptxcompiler
      ${CMAKE_SOURCE_DIR}/build/deps/nvptxcompiler)
  find_package(Python3 QUIET COMPONENTS Interpreter)
endif()
if(_mmptx_nvptx_roots AND Python3_Interpreter_FOUND)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
      "import site, sysconfig; p = sysconfig.get_paths(); \
print(';'.join([p['purelib'], p['platlib']] + site.getsitepackages() + \
[site.getusersitepackages()]))"
    OUTPUT_VARIABLE _mmptx_site OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  list(APPEND _mmptx_nvptx_roots ${_mmptx_site})
endif()
foreach(root ${_mmptx_nvptx_roots})
  file(GLOB _mmptx_nvptx_libs ${root}/nvidia/cu*/lib/libnvptxcompiler_static.a)
  if(_mmptx_nvptx_libs)
    list(GET _mmptx_nvptx_libs 0 _mmptx_nvptx_lib)
    get_filename_component(_mmptx_nvptx_dir ${_mmptx_nvptx_lib} DIRECTORY)
    get_filename_component(_mmptx_nvptx_dir ${_mmptx_nvptx_dir} DIRECTORY)
    file(GLOB _mmptx_nvptx_info ${root}/nvidia_nvptxcompiler*.dist-info)
    if(EXISTS ${_mmptx_nvptx_dir}/include/nvPTXCompiler.h)
      set(MMPTX_HAVE_NVPTXCOMPILER ON)
      if(_mmptx_nvptx_info)
        list(GET _mmptx_nvptx_info 0 _mmptx_nvptx_info)
        get_filename_component(_mmptx_nvptx_info ${_mmptx_nvptx_info} NAME)
        string(REGEX REPLACE
               "^nvidia_nvptxcompiler[^-]*-([0-9.]+)\\.dist-info$" "\\1"
               MMPTX_NVPTXCOMPILER_VERSION ${_mmptx_nvptx_info})
      endif()
      if(NOT TARGET MMPTX::nvptxcompiler_static)
        add_library(MMPTX::nvptxcompiler_static STATIC IMPORTED)
        set_target_properties(MMPTX::nvptxcompiler_static PROPERTIES
          IMPORTED_LOCATION ${_mmptx_nvptx_lib}
          INTERFACE_INCLUDE_DIRECTORIES ${_mmptx_nvptx_dir}/include
          INTERFACE_LINK_LIBRARIES "Threads::Threads;m;dl;rt")
      endif()
      break()
    endif()
  endif()
endforeach()
find_package(Threads REQUIRED)
message(STATUS "nvPTXCompiler: ${MMPTX_HAVE_NVPTXCOMPILER} "
               "${MMPTX_NVPTXCOMPILER_VERSION} ${_mmptx_nvptx_lib}")
