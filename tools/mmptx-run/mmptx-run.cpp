//===- mmptx-run.cpp - Load a cubin and run one kernel --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs a kernel of a cubin through the CUDA driver, loaded at run time
/// (`$MMPTX_LIBCUDA` or libcuda.so.1):
///
///   mmptx-run k.cubin --kernel=saxpy --grid=4 --block=256 --arg=f32:2
///       --arg=in:f32:1,2,3 --arg=inout:f32:0*3 --arg=s32:3
///
/// prints every inout/out buffer, one element a line (`arg2[0] = 2
/// (0f40000000)`). `--probe` only checks for a usable device. The command
/// line, and the --arg list against the parameters the image declares
/// (mmptx/Backend/KernelParams.h), are checked before the driver is
/// loaded. Exit status: 0 on success, 77 when there is no usable driver or
/// device (the skip code of test harnesses), 1 for any other error.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/KernelParams.h"
#include "mmptx/Runtime/KernelRun.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/ToolVersion.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

static cl::OptionCategory RunCategory("mmptx-run Options");

static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<cubin, fatbin or ptx>"),
                                          cl::cat(RunCategory));
static cl::opt<std::string> KernelName("kernel", cl::desc("Kernel to run"),
                                       cl::value_desc("name"),
                                       cl::cat(RunCategory));
static cl::opt<std::string> GridText("grid", cl::desc("Grid size X[,Y[,Z]]"),
                                     cl::init("1"), cl::cat(RunCategory));
static cl::opt<std::string> BlockText("block", cl::desc("Block size X[,Y[,Z]]"),
                                      cl::init("1"), cl::cat(RunCategory));
static cl::opt<unsigned> SharedBytes("shared",
                                     cl::desc("Dynamic shared memory bytes"),
                                     cl::init(0), cl::cat(RunCategory));
static cl::list<std::string> ArgTexts(
    "arg",
    cl::desc("A kernel argument, in order: TYPE:VALUE, in:TYPE:V1,V2,..., "
             "inout:TYPE:V1,..., out:TYPE:COUNT (TYPE f32 f64 u32 s32 "
             "u64 s64; V*N repeats V; 0f3FC00000 gives the bits). "
             "Checked against the kernel's parameters where the image "
             "declares them (a cubin, PTX)"),
    cl::cat(RunCategory));
static cl::opt<int> DeviceOrdinal("device", cl::desc("Device ordinal"),
                                  cl::init(0), cl::cat(RunCategory));
static cl::opt<unsigned> Repeat("repeat",
                                cl::desc("Launch N times (for --time)"),
                                cl::init(1), cl::cat(RunCategory));
static cl::opt<bool> PrintTimes("time",
                                cl::desc("Print module load and launch times "
                                         "to stderr"),
                                cl::cat(RunCategory));
static cl::opt<bool> ProbeOnly("probe",
                               cl::desc("Only check for a usable device: print "
                                        "it, exit 0 (or 77 if there is none)"),
                               cl::cat(RunCategory));
static cl::opt<bool> PrintArch("print-arch",
                               cl::desc("With --probe: print only the "
                                        "device's sm_XY"),
                               cl::cat(RunCategory));

static constexpr int SkipExitCode = 77;

/// Reports \p E; \returns the exit status it calls for.
static int report(Error E) {
  Optional<CudaErrorKind> Kind = getCudaErrorKind(E);
  bool Unavailable = Kind && *Kind != CudaErrorKind::Call;
  WithColor::error(errs(), "mmptx-run")
      << (Unavailable ? "no usable GPU: " : "") << toString(std::move(E))
      << "\n";
  return Unavailable ? SkipExitCode : 1;
}

/// Prints to stdout through ToolOutput: a write error (a closed stdout) is
/// one line and exit status 1.
static int printOutput(function_ref<void(raw_ostream &)> Print) {
  if (Error E = writeToolOutput("-", [&](raw_ostream &OS) {
        Print(OS);
        return Error::success();
      }))
    return report(std::move(E));
  return 0;
}

static int usageError(const Twine &Msg) {
  WithColor::error(errs(), "mmptx-run") << Msg << "\n";
  return 1;
}

/// Parses `X[,Y[,Z]]` of option \p Name into \p D, or reports why not.
static bool parseDim3(StringRef Name, StringRef Text, Dim3 &D) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  bool Ok = Parts.size() <= 3;
  unsigned *Out[] = {&D.X, &D.Y, &D.Z};
  for (size_t I = 0; Ok && I != Parts.size(); ++I)
    Ok = !Parts[I].trim().getAsInteger(10, *Out[I]) && *Out[I] != 0;
  if (!Ok)
    usageError("bad --" + Name + "='" + Text +
               "': expected X[,Y[,Z]], each from 1 to 4294967295");
  return Ok;
}

/// Checks \p Args against the parameters that \p Image declares for
/// \p Kernel, where it says: the driver copies as many bytes as the kernel
/// declares from each argument, so a missing or narrower one would be read
/// past its end.
static bool checkArgs(StringRef Image, StringRef Kernel,
                      ArrayRef<KernelArg> Args) {
  Optional<std::vector<unsigned>> Sizes = getKernelParamSizes(Image, Kernel);
  if (!Sizes)
    return true;
  if (Sizes->size() != Args.size()) {
    std::string List;
    raw_string_ostream OS(List);
    interleave(*Sizes, OS, ", ");
    usageError("kernel '" + Kernel + "' has " + Twine(Sizes->size()) +
               (Sizes->size() == 1 ? " parameter" : " parameters") +
               (Sizes->empty() ? "" : " (" + OS.str() + " bytes)") + ", but " +
               Twine(Args.size()) + " --arg " +
               (Args.size() == 1 ? "was" : "were") + " given");
    return false;
  }
  for (size_t I = 0, E = Args.size(); I != E; ++I) {
    unsigned Size = Args[I].isBuffer() ? 8 : getArgTypeSize(Args[I].Type);
    if (Size == (*Sizes)[I])
      continue;
    usageError("--arg=" + ArgTexts[I] + " is " +
               (Args[I].isBuffer()
                    ? "a buffer, passed as an 8-byte pointer"
                    : (Size == 8 ? "an 8-byte value"
                                 : "a " + Twine(Size) + "-byte value")) +
               ", but parameter " + Twine(I) + " of kernel '" + Kernel +
               "' is " + Twine((*Sizes)[I]) + " bytes");
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  installToolVersionPrinter();
  cl::HideUnrelatedOptions(RunCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mmptx-run: run a kernel of a cubin on the GPU, through the CUDA "
      "driver ($MMPTX_LIBCUDA or libcuda.so.1)\n\n"
      "  Prints every inout/out buffer. Exit status: 0 on success, 77 when\n"
      "  there is no usable driver or GPU, 1 for any other error.\n");

  // Every mistake in the command line is reported before the driver is
  // loaded: it is one whether or not there is a GPU (exit status 1, never
  // the skip status).
  if (PrintArch && !ProbeOnly)
    return usageError("--print-arch applies to --probe only");
  if (DeviceOrdinal < 0)
    return usageError("bad --device=" + Twine(DeviceOrdinal) +
                      ": expected a device ordinal, 0 or more");
  LaunchConfig Config;
  std::vector<KernelArg> Args;
  std::unique_ptr<MemoryBuffer> Image;
  if (ProbeOnly) {
    if (!InputFilename.empty() || !KernelName.empty() || !ArgTexts.empty())
      return usageError("--probe takes no input file, --kernel or --arg");
  } else {
    if (InputFilename.empty() || KernelName.empty())
      return usageError(
          "expected an input file and --kernel=NAME (or --probe)");
    if (!parseDim3("grid", GridText, Config.Grid) ||
        !parseDim3("block", BlockText, Config.Block))
      return 1;
    if (Repeat == 0)
      return usageError("bad --repeat=0: expected 1 or more launches");
    Config.SharedBytes = SharedBytes;
    for (const std::string &Text : ArgTexts) {
      Expected<KernelArg> A = parseKernelArg(Text);
      if (!A)
        return report(A.takeError());
      Args.push_back(std::move(*A));
    }
    // The driver reads PTX images up to a NUL: keep one after the bytes.
    auto Buf = MemoryBuffer::getFile(InputFilename, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/true);
    if (!Buf)
      return usageError("cannot read '" + InputFilename +
                        "': " + Buf.getError().message());
    Image = std::move(*Buf);
    // The driver is given no size: a cubin must hold what it says it does.
    std::string Bad = checkElfImage(Image->getBuffer());
    if (!Bad.empty())
      return usageError("'" + InputFilename + "' is not a valid cubin: " + Bad);
    if (!checkArgs(Image->getBuffer(), KernelName, Args))
      return 1;
  }

  Expected<CudaDriver &> Driver = CudaDriver::get();
  if (!Driver)
    return report(Driver.takeError());
  auto Ctx = Context::create(*Driver, DeviceOrdinal);
  if (!Ctx)
    return report(Ctx.takeError());
  const DeviceInfo &Info = (*Ctx)->getDeviceInfo();
  if (ProbeOnly) {
    // Usable means more than a context: memory can be allocated too (an
    // exclusive-process device held by another process fails here).
    Expected<DeviceBuffer> Probe = (*Ctx)->allocate(256);
    if (!Probe)
      return report(Probe.takeError());
    return printOutput([&](raw_ostream &OS) {
      if (PrintArch)
        OS << Info.getArch() << "\n";
      else
        OS << "device " << Info.Ordinal << ": " << Info.Name << " ("
           << Info.getArch() << ", " << Info.MultiProcessors << " SMs, "
           << (Info.TotalMemory >> 20) << " MiB), driver "
           << Driver->getVersion() << "\n";
    });
  }

  StringRef Bytes = Image->getBuffer();
  KernelRunTimes Times;
  if (Error E = runKernel(**Ctx, makeArrayRef(Bytes.data(), Bytes.size() + 1),
                          KernelName, Config, Args, Repeat, &Times))
    return report(std::move(E));

  int Status = printOutput([&](raw_ostream &OS) {
    for (size_t I = 0, E = Args.size(); I != E; ++I) {
      if (!Args[I].isReadBack())
        continue;
      for (size_t J = 0, N = Args[I].Values.size(); J != N; ++J) {
        OS << "arg" << I << "[" << J << "] = ";
        printArgValue(OS, Args[I].Type, Args[I].Values[J]);
        OS << "\n";
      }
    }
  });
  if (PrintTimes)
    errs() << format("module load: %.3f ms\nlaunch: %.3f ms\n",
                     Times.ModuleLoad * 1e3, Times.Launch * 1e3);
  return Status;
}
