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
/// (0f40000000)`). `--probe` only checks for a usable device. Exit status:
/// 0 on success, 77 when there is no usable driver or device (the skip code
/// of test harnesses), 1 for any other error.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Runtime/KernelRun.h"
#include "mmptx/Support/ToolOutput.h"

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

static cl::OptionCategory runCategory("mmptx-run Options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<cubin, fatbin or ptx>"),
                                          cl::cat(runCategory));
static cl::opt<std::string> kernelName("kernel", cl::desc("Kernel to run"),
                                       cl::value_desc("name"),
                                       cl::cat(runCategory));
static cl::opt<std::string> gridText("grid", cl::desc("Grid size X[,Y[,Z]]"),
                                     cl::init("1"), cl::cat(runCategory));
static cl::opt<std::string> blockText("block", cl::desc("Block size X[,Y[,Z]]"),
                                      cl::init("1"), cl::cat(runCategory));
static cl::opt<unsigned> sharedBytes("shared",
                                     cl::desc("Dynamic shared memory bytes"),
                                     cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    args("arg",
         cl::desc("A kernel argument, in order: TYPE:VALUE, in:TYPE:V1,V2,..., "
                  "inout:TYPE:V1,..., out:TYPE:COUNT (TYPE f32 f64 u32 s32 "
                  "u64 s64; V*N repeats V)"),
         cl::cat(runCategory));
static cl::opt<int> deviceOrdinal("device", cl::desc("Device ordinal"),
                                  cl::init(0), cl::cat(runCategory));
static cl::opt<unsigned> repeat("repeat",
                                cl::desc("Launch N times (for --time)"),
                                cl::init(1), cl::cat(runCategory));
static cl::opt<bool> printTimes("time",
                                cl::desc("Print module load and launch times "
                                         "to stderr"),
                                cl::cat(runCategory));
static cl::opt<bool> probe("probe",
                           cl::desc("Only check for a usable device: print "
                                    "it, exit 0 (or 77 if there is none)"),
                           cl::cat(runCategory));
static cl::opt<bool> printArch("print-arch",
                               cl::desc("With --probe: print only the "
                                        "device's sm_XY"),
                               cl::cat(runCategory));

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

static bool parseDim3(StringRef Text, Dim3 &D) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.size() > 3)
    return false;
  unsigned *Out[] = {&D.X, &D.Y, &D.Z};
  for (size_t I = 0; I != Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, *Out[I]) || *Out[I] == 0)
      return false;
  return true;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "run a kernel of a cubin on the GPU\n");

  Expected<CudaDriver &> Driver = CudaDriver::get();
  if (!Driver)
    return report(Driver.takeError());
  auto Ctx = Context::create(*Driver, deviceOrdinal);
  if (!Ctx)
    return report(Ctx.takeError());
  const DeviceInfo &Info = (*Ctx)->getDeviceInfo();
  if (probe) {
    // Usable means more than a context: memory can be allocated too (an
    // exclusive-process device held by another process fails here).
    Expected<DeviceBuffer> Probe = (*Ctx)->allocate(256);
    if (!Probe)
      return report(Probe.takeError());
    return printOutput([&](raw_ostream &OS) {
      if (printArch)
        OS << Info.getArch() << "\n";
      else
        OS << "device " << Info.Ordinal << ": " << Info.Name << " ("
           << Info.getArch() << ", " << Info.MultiProcessors << " SMs, "
           << (Info.TotalMemory >> 20) << " MiB), driver "
           << Driver->getVersion() << "\n";
    });
  }

  if (inputFilename.empty() || kernelName.empty()) {
    WithColor::error(errs(), "mmptx-run")
        << "expected an input file and --kernel=NAME (or --probe)\n";
    return 1;
  }
  LaunchConfig Config;
  if (!parseDim3(gridText, Config.Grid) ||
      !parseDim3(blockText, Config.Block)) {
    WithColor::error(errs(), "mmptx-run")
        << "bad --grid/--block: expected X[,Y[,Z]] with positive numbers\n";
    return 1;
  }
  Config.SharedBytes = sharedBytes;
  std::vector<KernelArg> Args;
  for (const std::string &Text : args) {
    Expected<KernelArg> A = parseKernelArg(Text);
    if (!A)
      return report(A.takeError());
    Args.push_back(std::move(*A));
  }
  // The driver reads PTX images up to a NUL: keep one after the bytes.
  auto Buf = MemoryBuffer::getFile(inputFilename, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/true);
  if (!Buf) {
    WithColor::error(errs(), "mmptx-run")
        << "cannot read '" << inputFilename << "': " << Buf.getError().message()
        << "\n";
    return 1;
  }
  StringRef Bytes = (*Buf)->getBuffer();
  KernelRunTimes Times;
  if (Error E = runKernel(**Ctx, makeArrayRef(Bytes.data(), Bytes.size() + 1),
                          kernelName, Config, Args, repeat, &Times))
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
  if (printTimes)
    errs() << format("module load: %.3f ms\nlaunch: %.3f ms\n",
                     Times.ModuleLoad * 1e3, Times.Launch * 1e3);
  return Status;
}
