//===- PackedModule.cpp - Many stubs in one module ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

/// Letters, digits and '_', not starting with a digit (a subset of PTX's
/// identifiers that is also safe in labels built from it).
static bool isSimpleIdentifier(StringRef S) {
  return !S.empty() && !isDigit(S[0]) &&
         all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

namespace {
/// Where the stubs land in the module being written, for a StubLineMap.
struct LineTracker {
  raw_string_ostream &OS;
  StubLineMap *Map;
  ArrayRef<std::string> Names;
  size_t Counted = 0;
  unsigned Line = 1;

  /// Records that program \p Program (site \p Site of kernel \p Kernel),
  /// \p Stub, is written next.
  void addStub(StringRef Stub, size_t Program, unsigned Kernel, size_t Site,
               StringRef Prefix) {
    if (!Map)
      return;
    StringRef Out = OS.str();
    Line += StringRef(Out).drop_front(Counted).count('\n');
    Counted = Out.size();
    StubLineRange R;
    R.FirstLine = Line;
    R.NumLines = Stub.count('\n') + !Stub.endswith("\n");
    R.Site = ("program " + Twine(Program) + " (" + Prefix + "_" +
              Twine(Kernel) + ", site " + Twine(Site) + ")")
                 .str();
    R.Stub = Program < Names.size() ? Names[Program]
                                    : ("stub " + Twine(Program)).str();
    Map->push_back(std::move(R));
  }
};
} // namespace

static void emitKernel(raw_string_ostream &OS, ArrayRef<StringRef> Stubs,
                       unsigned Kernel, unsigned FirstProgram,
                       const PackedModuleSpec &Spec, LineTracker &Lines) {
  StringRef P = Spec.KernelPrefix;
  OS << ".visible .entry " << P << '_' << Kernel << "(\n"
     << "\t.param .u64 " << P << "_in,\n"
     << "\t.param .u64 " << P << "_out,\n"
     << "\t.param .u32 " << P << "_n\n)\n{\n"
     << "\t.reg .pred %pk;\n\t.reg .b32 %rk<6>;\n\t.reg .b64 %rdk<8>;\n"
     << "\t.reg .f32 %x<" << Spec.NumInputs
     << ">;\n\t.reg .f32 %y;\n"
     // e = ctaid.y * ntid.x + tid.x; return if e >= n.
     << "\tld.param.u64 %rdk0, [" << P << "_in];\n"
     << "\tld.param.u64 %rdk1, [" << P << "_out];\n"
     << "\tld.param.u32 %rk0, [" << P << "_n];\n"
     << "\tcvta.to.global.u64 %rdk0, %rdk0;\n"
     << "\tcvta.to.global.u64 %rdk1, %rdk1;\n"
     << "\tmov.u32 %rk1, %ctaid.y;\n\tmov.u32 %rk2, %ntid.x;\n"
     << "\tmov.u32 %rk3, %tid.x;\n\tmad.lo.u32 %rk1, %rk1, %rk2, %rk3;\n"
     << "\tsetp.ge.u32 %pk, %rk1, %rk0;\n\t@%pk bra $" << P
     << "_exit;\n"
     // Inputs: x_j = in[j*n + e].
     << "\tmul.wide.u32 %rdk2, %rk1, 4;\n\tadd.u64 %rdk2, %rdk0, %rdk2;\n"
     << "\tmul.wide.u32 %rdk3, %rk0, 4;\n";
  for (unsigned J = 0; J < Spec.NumInputs; ++J) {
    if (J)
      OS << "\tadd.u64 %rdk2, %rdk2, %rdk3;\n";
    OS << "\tld.global.f32 %x" << J << ", [%rdk2];\n";
  }
  // Site = ctaid.x; out index = (first + site) * n + e.
  OS << "\tmov.u32 %rk4, %ctaid.x;\n"
     << "\tadd.u32 %rk5, %rk4, " << FirstProgram << ";\n"
     << "\tmad.lo.u32 %rk5, %rk5, %rk0, %rk1;\n"
     << "\tmul.wide.u32 %rdk4, %rk5, 4;\n\tadd.u64 %rdk4, %rdk1, %rdk4;\n"
     << "\tsetp.ge.u32 %pk, %rk4, " << Stubs.size() << ";\n"
     << "\t@%pk bra $" << P << "_exit;\n";
  OS << "$" << P << "_sites: .branchtargets ";
  for (size_t S = 0; S < Stubs.size(); ++S)
    OS << (S ? ", " : "") << '$' << P << "_s" << S;
  OS << ";\n\tbrx.idx %rk4, $" << P << "_sites;\n";
  for (size_t S = 0; S < Stubs.size(); ++S) {
    OS << '$' << P << "_s" << S << ":\n";
    Lines.addStub(Stubs[S], FirstProgram + S, Kernel, S, P);
    OS << Stubs[S] << (Stubs[S].endswith("\n") ? "" : "\n") << "\tbra.uni $"
       << P << "_store;\n";
  }
  OS << '$' << P << "_store:\n\tst.global.f32 [%rdk4], %y;\n"
     << '$' << P << "_exit:\n\tret;\n}\n\n";
}

Expected<std::string>
mmptx::buildPackedModule(ArrayRef<StringRef> Stubs,
                         const PackedModuleSpec &Spec, StubLineMap *Map,
                         ArrayRef<std::string> StubNames) {
  if (Spec.SitesPerKernel == 0)
    return makeError("packed module: sites per kernel must be at least 1");
  if (Spec.NumInputs == 0)
    return makeError("packed module: at least one input is needed");
  // Each input is a load in every kernel: a mistyped count must not build
  // gigabytes of PTX.
  if (Spec.NumInputs > MaxPackedInputs)
    return makeError("packed module: " + Twine(Spec.NumInputs) +
                     " inputs, but at most " + Twine(MaxPackedInputs));
  if (!isSimpleIdentifier(Spec.KernelPrefix))
    return makeError("packed module: '" + Spec.KernelPrefix +
                     "' is not a PTX identifier");
  StringRef Sm = Spec.Arch;
  if (!Sm.consume_front("sm_") || Sm.empty() || !isDigit(Sm[0]))
    return makeError("packed module: unknown architecture '" + Spec.Arch + "'");
  std::string Out;
  raw_string_ostream OS(Out);
  LineTracker Lines{OS, Map, StubNames};
  if (Map)
    Map->clear();
  // PTX ISA 8.0 is accepted by CUDA 12.0 and newer.
  OS << "//\n// Packed injects: " << Stubs.size() << " programs\n//\n\n"
     << ".version 8.0\n.target " << Spec.Arch << "\n.address_size 64\n\n";
  for (size_t First = 0, K = 0; First < Stubs.size();
       First += Spec.SitesPerKernel, ++K)
    emitKernel(OS,
               Stubs.slice(First, std::min<size_t>(Spec.SitesPerKernel,
                                                   Stubs.size() - First)),
               unsigned(K), unsigned(First), Spec, Lines);
  return OS.str();
}
