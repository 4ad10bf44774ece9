/*===- FakeCuda.c - A fake libcuda.so.1 for the runtime tests -----*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Built only in the build tree, never installed. It implements the driver    *|
|* entry points lib/Runtime uses, with host memory as device memory, so the   *|
|* loader, the lookups and the error paths run in CI without a GPU.           *|
|*                                                                            *|
|* Like the real driver it exports the versioned symbols (cuMemAlloc_v2, ...) *|
|* and cuGetProcAddress_v2, which refuses a request for an older ABI than the *|
|* one implemented (so a loader passing the wrong version fails loudly).      *|
|* Module images must be ELF64 (cubins); a kernel is found when its name is   *|
|* a NUL-delimited string of the image (as in a cubin's strtab).              *|
|* Launching `fake_axpy(float a, float *x, float *y, int n)` computes         *|
|* y[i] = a * x[i] + y[i] for every thread i below n; other kernels do        *|
|* nothing.                                                                   *|
|*                                                                            *|
|* As with the real driver, the current context is per thread (a new thread   *|
|* has none), and a kernel's fault is asynchronous: cuLaunchKernel succeeds   *|
|* and the next synchronising call (cuCtxSynchronize, cuStreamSynchronize,    *|
|* cuMemcpy*) returns CUDA_ERROR_LAUNCH_FAILED. (The real driver then keeps   *|
|* the error for every later call of the context; the fake reports it once.)  *|
|*                                                                            *|
|* Environment, read at each call:                                            *|
|*   MMPTX_FAKE_CUDA_FAIL=cuInit=34,cuModuleLoadData=200  make calls fail     *|
|*   MMPTX_FAKE_CUDA_DEVICES=N     device count (default 1; 0: cuInit says    *|
|*                                 CUDA_ERROR_NO_DEVICE)                      *|
|*   MMPTX_FAKE_CUDA_HIDE=cuLaunchKernel,...  cuGetProcAddress_v2 does not    *|
|*                                 know these (the loader must use dlsym)     *|
|* Built with FAKE_CUDA_LEGACY: no cuGetProcAddress* and no cuLaunchKernel,   *|
|* a driver the loader must resolve by dlsym and then reject.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NOT_INITIALIZED = 3,
  STUB_LIBRARY = 34,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_IMAGE = 200,
  INVALID_CONTEXT = 201,
  INVALID_HANDLE = 400,
  NOT_FOUND = 500,
  LAUNCH_FAILED = 719,
  NOT_SUPPORTED = 801
};

struct Code {
  int Value;
  const char *Name;
  const char *Text;
};
static const struct Code Codes[] = {
    {SUCCESS, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
};

static int Initialized;
static __thread void *CurrentCtx; /* per thread, as the driver's */
static CUresult PendingError;     /* a launched kernel's fault, not yet seen */
static int PrimaryRefs;
static long LiveObjects; /* modules, allocations, streams */

/* Whether $Var's comma-separated list holds Name (followed by '=' or the
   end of the item); for FAIL, *Code gets the number after '='. */
static int envListHas(const char *Var, const char *Name, int *Code) {
  const char *L = getenv(Var);
  size_t N = strlen(Name);
  while (L && *L) {
    const char *End = strchr(L, ',');
    size_t Len = End ? (size_t)(End - L) : strlen(L);
    if (Len >= N && strncmp(L, Name, N) == 0 && (Len == N || L[N] == '=')) {
      if (Code)
        *Code = Len > N ? atoi(L + N + 1) : 1;
      return 1;
    }
    L = End ? End + 1 : NULL;
  }
  return 0;
}

/* The injected failure of Call, or SUCCESS. */
static CUresult injected(const char *Call) {
  int Code = SUCCESS;
  return envListHas("MMPTX_FAKE_CUDA_FAIL", Call, &Code) ? Code : SUCCESS;
}

#define ENTER(Call)                                                            \
  do {                                                                         \
    CUresult R_ = injected(Call);                                              \
    if (R_ != SUCCESS)                                                         \
      return R_;                                                               \
    if (!Initialized)                                                          \
      return NOT_INITIALIZED;                                                  \
  } while (0)

static int numDevices(void) {
  const char *E = getenv("MMPTX_FAKE_CUDA_DEVICES");
  return E ? atoi(E) : 1;
}

/* The entry of Codes for R, or NULL. */
static const struct Code *findCode(CUresult R) {
  size_t I;
  for (I = 0; I != sizeof(Codes) / sizeof(Codes[0]); ++I)
    if (Codes[I].Value == R)
      return &Codes[I];
  return NULL;
}

EXPORT CUresult cuGetErrorName(CUresult R, const char **Out) {
  const struct Code *C = findCode(R);
  *Out = C ? C->Name : NULL;
  return C ? SUCCESS : INVALID_VALUE;
}

EXPORT CUresult cuGetErrorString(CUresult R, const char **Out) {
  const struct Code *C = findCode(R);
  *Out = C ? C->Text : NULL;
  return C ? SUCCESS : INVALID_VALUE;
}

EXPORT CUresult cuInit(unsigned Flags) {
  CUresult R = injected("cuInit");
  if (R != SUCCESS)
    return R;
  if (Flags != 0)
    return INVALID_VALUE;
  if (numDevices() <= 0)
    return NO_DEVICE;
  Initialized = 1;
  return SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *V) {
  CUresult R = injected("cuDriverGetVersion");
  if (R != SUCCESS)
    return R;
  *V = 13000;
  return SUCCESS;
}

/* The driver's private interface tables. Other CUDA libraries loaded in the
 * same process (NVRTC opens "libcuda.so.1", which is this library once it is
 * loaded, and asks for cuGetExportTable) must be told there are none rather
 * than find the symbol missing. */
EXPORT CUresult cuGetExportTable(const void **Table, const void *Id) {
  (void)Id;
  if (Table)
    *Table = NULL;
  return NOT_SUPPORTED;
}

EXPORT CUresult cuDeviceGetCount(int *N) {
  ENTER("cuDeviceGetCount");
  *N = numDevices();
  return SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *D, int Ordinal) {
  ENTER("cuDeviceGet");
  if (Ordinal < 0 || Ordinal >= numDevices())
    return INVALID_DEVICE;
  *D = Ordinal;
  return SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *Name, int Len, CUdevice D) {
  ENTER("cuDeviceGetName");
  if (D < 0 || D >= numDevices())
    return INVALID_DEVICE;
  strncpy(Name, "mmptx fake device", (size_t)Len);
  return SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *V, int Attr, CUdevice D) {
  ENTER("cuDeviceGetAttribute");
  if (D < 0 || D >= numDevices())
    return INVALID_DEVICE;
  switch (Attr) {
  case 16: /* multiprocessors */
    *V = 4;
    return SUCCESS;
  case 75: /* compute capability */
    *V = 8;
    return SUCCESS;
  case 76:
    *V = 0;
    return SUCCESS;
  default:
    return INVALID_VALUE;
  }
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice D) {
  ENTER("cuDeviceTotalMem");
  if (D < 0 || D >= numDevices())
    return INVALID_DEVICE;
  *Bytes = (size_t)1 << 30;
  return SUCCESS;
}

/* One primary context for every device: enough for the tests. */
static char PrimaryCtx;

EXPORT CUresult cuDevicePrimaryCtxRetain(void **Ctx, CUdevice D) {
  ENTER("cuDevicePrimaryCtxRetain");
  if (D < 0 || D >= numDevices())
    return INVALID_DEVICE;
  ++PrimaryRefs;
  *Ctx = &PrimaryCtx;
  return SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice D) {
  ENTER("cuDevicePrimaryCtxRelease");
  if (D < 0 || D >= numDevices() || PrimaryRefs == 0)
    return INVALID_DEVICE;
  if (--PrimaryRefs == 0)
    CurrentCtx = NULL;
  return SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(void **Ctx) {
  ENTER("cuCtxGetCurrent");
  if (!Ctx)
    return INVALID_VALUE;
  *Ctx = PrimaryRefs ? CurrentCtx : NULL;
  return SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(void *Ctx) {
  ENTER("cuCtxSetCurrent");
  if (Ctx && (Ctx != &PrimaryCtx || PrimaryRefs == 0))
    return INVALID_CONTEXT;
  CurrentCtx = Ctx;
  return SUCCESS;
}

#define ENTER_CTX(Call)                                                        \
  do {                                                                         \
    ENTER(Call);                                                               \
    if (!CurrentCtx || !PrimaryRefs)                                           \
      return INVALID_CONTEXT;                                                  \
  } while (0)

/* A synchronising call returns the fault of a kernel launched before it. */
#define TAKE_PENDING()                                                         \
  do {                                                                         \
    CUresult P_ = PendingError;                                                \
    PendingError = SUCCESS;                                                    \
    if (P_ != SUCCESS)                                                         \
      return P_;                                                               \
  } while (0)

EXPORT CUresult cuCtxSynchronize(void) {
  ENTER_CTX("cuCtxSynchronize");
  TAKE_PENDING();
  return SUCCESS;
}

struct FakeModule {
  char *Image;
  size_t Size;
};
struct FakeFunction {
  struct FakeModule *Module;
  char Name[64];
};

static uint64_t read64(const unsigned char *P) {
  uint64_t V;
  memcpy(&V, P, 8);
  return V;
}
static unsigned read16(const unsigned char *P) { return P[0] | P[1] << 8; }

/* The largest image the fake loads. */
static const uint64_t MaxImage = 64u << 20;

/* The size of an ELF64 image: the end of its furthest header table or
   section, as the driver finds it. */
static size_t elfSize(const unsigned char *E) {
  uint64_t ShOff = read64(E + 0x28), PhOff = read64(E + 0x20);
  unsigned ShEnt = read16(E + 0x3A), ShNum = read16(E + 0x3C);
  unsigned PhEnt = read16(E + 0x36), PhNum = read16(E + 0x38);
  uint64_t Size = 64, I;
  if (ShOff + (uint64_t)ShEnt * ShNum > Size)
    Size = ShOff + (uint64_t)ShEnt * ShNum;
  if (PhOff + (uint64_t)PhEnt * PhNum > Size)
    Size = PhOff + (uint64_t)PhEnt * PhNum;
  if (ShOff > MaxImage || PhOff > MaxImage)
    return (size_t)-1;
  for (I = 0; ShEnt >= 64 && I != ShNum; ++I) {
    const unsigned char *S = E + ShOff + I * ShEnt;
    uint32_t Type;
    memcpy(&Type, S + 4, 4);
    if (Type != 8 /* SHT_NOBITS */ &&
        read64(S + 0x18) + read64(S + 0x20) > Size)
      Size = read64(S + 0x18) + read64(S + 0x20);
  }
  return (size_t)Size;
}

EXPORT CUresult cuModuleLoadData(struct FakeModule **M, const void *Image) {
  const unsigned char *E = (const unsigned char *)Image;
  struct FakeModule *F;
  ENTER_CTX("cuModuleLoadData");
  if (!M || !Image)
    return INVALID_VALUE;
  /* An ELF64 little-endian image (a cubin); a real driver also takes
     fatbins and PTX. */
  if (memcmp(E, "\177ELF", 4) != 0 || E[4] != 2 || E[5] != 1)
    return INVALID_IMAGE;
  /* The driver is given no size: tables and sections far away are not
     read (a cubin is never that large); the caller checks the rest. */
  if (read64(E + 0x28) > MaxImage || read64(E + 0x20) > MaxImage ||
      elfSize(E) > MaxImage)
    return INVALID_IMAGE;
  F = (struct FakeModule *)calloc(1, sizeof(*F));
  F->Size = elfSize(E);
  F->Image = (char *)malloc(F->Size);
  memcpy(F->Image, E, F->Size);
  *M = F;
  ++LiveObjects;
  return SUCCESS;
}

EXPORT CUresult cuModuleUnload(struct FakeModule *M) {
  ENTER_CTX("cuModuleUnload");
  if (!M)
    return INVALID_HANDLE;
  free(M->Image);
  free(M);
  --LiveObjects;
  return SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(struct FakeFunction **Fn,
                                    struct FakeModule *M, const char *Name) {
  size_t N, I;
  ENTER_CTX("cuModuleGetFunction");
  if (!M)
    return INVALID_HANDLE;
  N = strlen(Name);
  if (N == 0 || N >= sizeof((*Fn)->Name))
    return NOT_FOUND;
  for (I = 1; I + N + 1 <= M->Size; ++I) {
    if (M->Image[I - 1] == '\0' && memcmp(M->Image + I, Name, N) == 0 &&
        M->Image[I + N] == '\0') {
      /* Functions live as long as their module; the fake keeps one per
         lookup, freed at exit. */
      static struct FakeFunction Pool[64];
      static int Used;
      struct FakeFunction *F = &Pool[Used++ % 64];
      F->Module = M;
      strcpy(F->Name, Name);
      *Fn = F;
      return SUCCESS;
    }
  }
  return NOT_FOUND;
}

struct Allocation {
  char *Ptr;
  size_t Size;
  struct Allocation *Next;
};
static struct Allocation *Allocations;

/* The allocation holding [P, P + N), or NULL. */
static struct Allocation *findAllocation(CUdeviceptr P, size_t N) {
  struct Allocation *A;
  for (A = Allocations; A; A = A->Next)
    if ((uintptr_t)P >= (uintptr_t)A->Ptr &&
        (uintptr_t)P + N <= (uintptr_t)A->Ptr + A->Size)
      return A;
  return NULL;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *P, size_t Bytes) {
  struct Allocation *A;
  ENTER_CTX("cuMemAlloc");
  if (Bytes == 0)
    return INVALID_VALUE;
  A = (struct Allocation *)malloc(sizeof(*A));
  A->Ptr = (char *)calloc(1, Bytes);
  if (!A->Ptr) {
    free(A);
    return OUT_OF_MEMORY;
  }
  A->Size = Bytes;
  A->Next = Allocations;
  Allocations = A;
  *P = (CUdeviceptr)(uintptr_t)A->Ptr;
  ++LiveObjects;
  return SUCCESS;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr P) {
  struct Allocation **L;
  ENTER_CTX("cuMemFree");
  for (L = &Allocations; *L; L = &(*L)->Next)
    if ((uintptr_t)(*L)->Ptr == (uintptr_t)P) {
      struct Allocation *A = *L;
      *L = A->Next;
      free(A->Ptr);
      free(A);
      --LiveObjects;
      return SUCCESS;
    }
  return INVALID_VALUE;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr Dst, const void *Src, size_t N) {
  ENTER_CTX("cuMemcpyHtoD");
  TAKE_PENDING();
  if (!findAllocation(Dst, N))
    return INVALID_VALUE;
  memcpy((void *)(uintptr_t)Dst, Src, N);
  return SUCCESS;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *Dst, CUdeviceptr Src, size_t N) {
  ENTER_CTX("cuMemcpyDtoH");
  TAKE_PENDING();
  if (!findAllocation(Src, N))
    return INVALID_VALUE;
  memcpy(Dst, (const void *)(uintptr_t)Src, N);
  return SUCCESS;
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr Dst, unsigned char V, size_t N) {
  ENTER_CTX("cuMemsetD8");
  if (!findAllocation(Dst, N))
    return INVALID_VALUE;
  memset((void *)(uintptr_t)Dst, V, N);
  return SUCCESS;
}

static char StreamObject;

EXPORT CUresult cuStreamCreate(void **S, unsigned Flags) {
  ENTER_CTX("cuStreamCreate");
  *S = &StreamObject;
  ++LiveObjects;
  return SUCCESS;
}

EXPORT CUresult cuStreamDestroy_v2(void *S) {
  ENTER_CTX("cuStreamDestroy");
  if (S != &StreamObject)
    return INVALID_HANDLE;
  --LiveObjects;
  return SUCCESS;
}

EXPORT CUresult cuStreamSynchronize(void *S) {
  ENTER_CTX("cuStreamSynchronize");
  TAKE_PENDING();
  return SUCCESS;
}

#ifndef FAKE_CUDA_LEGACY
EXPORT CUresult cuLaunchKernel(struct FakeFunction *F, unsigned GX, unsigned GY,
                               unsigned GZ, unsigned BX, unsigned BY,
                               unsigned BZ, unsigned Shared, void *Stream,
                               void **Params, void **Extra) {
  unsigned long long Threads;
  ENTER_CTX("cuLaunchKernel");
  if (!F)
    return INVALID_HANDLE;
  if (!GX || !GY || !GZ || !BX || !BY || !BZ ||
      (unsigned long long)BX * BY * BZ > 1024 || Shared > 48 * 1024)
    return INVALID_VALUE;
  if (Stream && Stream != &StreamObject)
    return INVALID_HANDLE;
  Threads = (unsigned long long)GX * GY * GZ * BX * BY * BZ;
  if (strcmp(F->Name, "fake_axpy") == 0) {
    float A;
    CUdeviceptr X, Y;
    int N, I;
    if (!Params)
      return INVALID_VALUE;
    memcpy(&A, Params[0], 4);
    memcpy(&X, Params[1], 8);
    memcpy(&Y, Params[2], 8);
    memcpy(&N, Params[3], 4);
    if (N > 0 && (unsigned long long)N > Threads)
      N = (int)Threads;
    if (N > 0 && (!findAllocation(X, (size_t)N * 4) ||
                  !findAllocation(Y, (size_t)N * 4))) {
      PendingError = LAUNCH_FAILED; /* the device faults, later */
      return SUCCESS;
    }
    for (I = 0; I < N; ++I)
      ((float *)(uintptr_t)Y)[I] += A * ((float *)(uintptr_t)X)[I];
  }
  return SUCCESS;
}
#endif

/* For the tests: modules, allocations and streams not yet released, plus
   retained primary contexts. */
EXPORT long mmptxFakeCudaLiveObjects(void) { return LiveObjects + PrimaryRefs; }

#ifndef FAKE_CUDA_LEGACY
struct Entry {
  const char *Name;
  int Version; /* the oldest CUDA version whose ABI this function has */
  void *Fn;
};

#define ENTRY(Name, Version, Fn)                                               \
  { Name, Version, (void *)&Fn }
static const struct Entry Entries[] = {
    ENTRY("cuGetErrorName", 6000, cuGetErrorName),
    ENTRY("cuGetErrorString", 6000, cuGetErrorString),
    ENTRY("cuInit", 2000, cuInit),
    ENTRY("cuDriverGetVersion", 2020, cuDriverGetVersion),
    ENTRY("cuDeviceGetCount", 2000, cuDeviceGetCount),
    ENTRY("cuDeviceGet", 2000, cuDeviceGet),
    ENTRY("cuDeviceGetName", 2000, cuDeviceGetName),
    ENTRY("cuDeviceGetAttribute", 2000, cuDeviceGetAttribute),
    ENTRY("cuDeviceTotalMem", 3020, cuDeviceTotalMem_v2),
    ENTRY("cuDevicePrimaryCtxRetain", 7000, cuDevicePrimaryCtxRetain),
    ENTRY("cuDevicePrimaryCtxRelease", 11000, cuDevicePrimaryCtxRelease_v2),
    ENTRY("cuCtxGetCurrent", 4000, cuCtxGetCurrent),
    ENTRY("cuCtxSetCurrent", 4000, cuCtxSetCurrent),
    ENTRY("cuCtxSynchronize", 2000, cuCtxSynchronize),
    ENTRY("cuModuleLoadData", 2000, cuModuleLoadData),
    ENTRY("cuModuleUnload", 2000, cuModuleUnload),
    ENTRY("cuModuleGetFunction", 2000, cuModuleGetFunction),
    ENTRY("cuMemAlloc", 3020, cuMemAlloc_v2),
    ENTRY("cuMemFree", 3020, cuMemFree_v2),
    ENTRY("cuMemcpyHtoD", 3020, cuMemcpyHtoD_v2),
    ENTRY("cuMemcpyDtoH", 3020, cuMemcpyDtoH_v2),
    ENTRY("cuMemsetD8", 3020, cuMemsetD8_v2),
    ENTRY("cuStreamCreate", 2000, cuStreamCreate),
    ENTRY("cuStreamDestroy", 4000, cuStreamDestroy_v2),
    ENTRY("cuStreamSynchronize", 2000, cuStreamSynchronize),
    ENTRY("cuLaunchKernel", 4000, cuLaunchKernel),
};

EXPORT CUresult cuGetProcAddress_v2(const char *Symbol, void **Fn, int Version,
                                    unsigned long long Flags, int *Status) {
  size_t I;
  CUresult R = injected("cuGetProcAddress");
  if (R != SUCCESS)
    return R;
  *Fn = NULL;
  if (Status)
    *Status = 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
  if (Flags > 2)
    return INVALID_VALUE;
  if (envListHas("MMPTX_FAKE_CUDA_HIDE", Symbol, NULL))
    return NOT_FOUND;
  for (I = 0; I != sizeof(Entries) / sizeof(Entries[0]); ++I) {
    if (strcmp(Entries[I].Name, Symbol) != 0)
      continue;
    if (Version < Entries[I].Version) {
      if (Status)
        *Status = 2; /* CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT */
      return NOT_FOUND;
    }
    *Fn = Entries[I].Fn;
    if (Status)
      *Status = 0;
    return SUCCESS;
  }
  return NOT_FOUND;
}
#endif
