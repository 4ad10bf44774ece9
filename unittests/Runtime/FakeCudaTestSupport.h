//===- FakeCudaTestSupport.h - Helpers for tests on the fake driver -------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_RUNTIME_FAKECUDATESTSUPPORT_H
#define MMPTX_UNITTESTS_RUNTIME_FAKECUDATESTSUPPORT_H

#include "mmptx/Runtime/CudaDriver.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace mmptx {
namespace runtime {

/// Sets an environment variable for one scope (the fake reads its failure
/// injections at each call).
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name)) {
      HadOld = true;
      OldValue = Old;
    }
    ::setenv(Name, Value, 1);
  }
  ~ScopedEnv() {
    if (HadOld)
      ::setenv(Name, OldValue.c_str(), 1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  bool HadOld = false;
  std::string OldValue;
};

/// A minimal ELF64 image whose string data holds \p Names, NUL-delimited,
/// the way a cubin's string table holds its kernel names.
inline std::vector<char> makeFakeCubin(std::vector<std::string> Names) {
  std::vector<char> Image(64, 0);
  std::memcpy(Image.data(), "\177ELF", 4);
  Image[4] = 2; // ELFCLASS64
  Image[5] = 1; // little-endian
  Image.push_back('\0');
  for (const std::string &N : Names) {
    Image.insert(Image.end(), N.begin(), N.end());
    Image.push_back('\0');
  }
  // e_shoff at the end with no sections: the image's size.
  uint64_t Size = Image.size();
  std::memcpy(&Image[0x28], &Size, 8);
  return Image;
}

/// Modules, buffers, streams and primary-context references the fake still
/// holds.
inline long fakeLiveObjects() {
  void *H = ::dlopen(MMPTX_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  auto *Fn = reinterpret_cast<long (*)()>(
      H ? ::dlsym(H, "mmptxFakeCudaLiveObjects") : nullptr);
  long N = Fn ? Fn() : -1;
  if (H)
    ::dlclose(H);
  return N;
}

} // namespace runtime
} // namespace mmptx

#endif // MMPTX_UNITTESTS_RUNTIME_FAKECUDATESTSUPPORT_H
