//===- PackedModule.cpp - Many stubs in one module ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PackedModule.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
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
  void addStub(StringRef Stub, uint64_t Program, unsigned Kernel, size_t Site,
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

/// The registers every packed kernel declares for itself (a stub may read
/// them, never write them).
static const char *const PackerRegisters[] = {
    "%pk",   "%rk0",  "%rk1",  "%rk2",  "%rk3",  "%rk4",  "%rk5", "%rdk0",
    "%rdk1", "%rdk2", "%rdk3", "%rdk4", "%rdk5", "%rdk6", "%rdk7"};

//===----------------------------------------------------------------------===//
// Shared slow operations
//===----------------------------------------------------------------------===//

namespace {
/// An operation that compiles to a long inline sequence at every use (IEEE
/// rounding, or an approximation's denormal handling without `.ftz`): a
/// module where several stubs use it calls one `.func` of that single
/// instruction, which computes the same bits.
struct SharedOp {
  StringRef Opcode; ///< `div.rn.f32`
  StringRef Func;   ///< the `.func`'s name after the prefix
  StringRef Type;   ///< `f32`
  unsigned NumArgs;
};
} // namespace

static const SharedOp SharedOps[] = {
    {"div.rn.f32", "div_rn_f32", "f32", 2},
    {"div.rn.ftz.f32", "div_rn_ftz_f32", "f32", 2},
    {"sqrt.rn.f32", "sqrt_rn_f32", "f32", 1},
    {"sqrt.rn.ftz.f32", "sqrt_rn_ftz_f32", "f32", 1},
    {"rcp.rn.f32", "rcp_rn_f32", "f32", 1},
    {"rcp.rn.ftz.f32", "rcp_rn_ftz_f32", "f32", 1},
    {"div.rn.f64", "div_rn_f64", "f64", 2},
    {"sqrt.rn.f64", "sqrt_rn_f64", "f64", 1},
    {"rcp.rn.f64", "rcp_rn_f64", "f64", 1},
    {"div.approx.f32", "div_approx_f32", "f32", 2},
    {"rcp.approx.f32", "rcp_approx_f32", "f32", 1},
    {"sqrt.approx.f32", "sqrt_approx_f32", "f32", 1},
    {"rsqrt.approx.f32", "rsqrt_approx_f32", "f32", 1},
    {"sin.approx.f32", "sin_approx_f32", "f32", 1},
    {"cos.approx.f32", "cos_approx_f32", "f32", 1},
    {"lg2.approx.f32", "lg2_approx_f32", "f32", 1},
    {"ex2.approx.f32", "ex2_approx_f32", "f32", 1},
};
constexpr unsigned NumSharedOps = sizeof(SharedOps) / sizeof(SharedOps[0]);

/// A register (`%f1`) or an immediate in the exact hex form of \p Type
/// (`0f3F800000`, `0d...`): what a call passes as it is. (A decimal literal
/// such as `2.5` is an f64 that only an instruction converts.)
static bool isCallOperand(StringRef S, StringRef Type) {
  if (S.consume_front("%"))
    return !S.empty() &&
           all_of(S, [](char C) { return isAlnum(C) || C == '_' || C == '$'; });
  StringRef Prefix = Type == "f64" ? "0d" : "0f";
  return S.size() == 2 + (Type == "f64" ? 16 : 8) &&
         S.take_front(2).equals_insensitive(Prefix) &&
         all_of(S.drop_front(2), isHexDigit);
}

/// If \p Line is exactly `<op> d, a[, b];` of a shared operation (no
/// guard, operands registers or immediates), \returns its index in
/// SharedOps and sets \p Operands; else -1.
static int matchSharedOp(StringRef Line, SmallVectorImpl<StringRef> &Operands) {
  Line = Line.trim();
  if (!Line.consume_back(";"))
    return -1;
  size_t Sp = Line.find_first_of(" \t");
  if (Sp == StringRef::npos)
    return -1;
  StringRef Op = Line.take_front(Sp);
  int Found = -1;
  for (unsigned I = 0; I != NumSharedOps; ++I)
    if (SharedOps[I].Opcode == Op)
      Found = int(I);
  if (Found < 0)
    return -1;
  Operands.clear();
  SmallVector<StringRef, 4> Parts;
  Line.drop_front(Sp).split(Parts, ',');
  if (Parts.size() != SharedOps[Found].NumArgs + 1)
    return -1;
  for (StringRef P : Parts) {
    P = P.trim();
    if (!isCallOperand(P, SharedOps[Found].Type))
      return -1;
    Operands.push_back(P);
  }
  return Operands[0].startswith("%") ? Found : -1;
}

/// \returns \p Stub with each shared operation of \p Route a call of its
/// `.func`.
static std::string routeSharedOps(StringRef Stub, StringRef Prefix,
                                  const bool (&Route)[NumSharedOps]) {
  std::string Out;
  Out.reserve(Stub.size() + 64);
  SmallVector<StringRef, 4> Ops;
  while (!Stub.empty()) {
    StringRef Line;
    std::tie(Line, Stub) = Stub.split('\n');
    bool Last = Stub.empty() && !Line.empty();
    int K = matchSharedOp(Line, Ops);
    if (K < 0 || !Route[K]) {
      Out += Line;
    } else {
      StringRef Indent =
          Line.take_while([](char C) { return C == ' ' || C == '\t'; });
      Out +=
          (Indent + "call (" + Ops[0] + "), " + Prefix + "_" +
           SharedOps[K].Func + ", (" + Ops[1] + (Ops.size() > 2 ? ", " : "") +
           (Ops.size() > 2 ? Ops[2] : "") + ");")
              .str();
    }
    if (!Last)
      Out += '\n';
  }
  return Out;
}

/// Adds the uses of each shared operation in \p Stub to \p Uses;
/// \returns whether there was one.
static bool countSharedOps(StringRef Stub, unsigned (&Uses)[NumSharedOps]) {
  // Cheap test first: most stubs have none.
  if (Stub.find(".rn.") == StringRef::npos &&
      Stub.find(".approx.f32") == StringRef::npos)
    return false;
  bool Any = false;
  SmallVector<StringRef, 4> Ops;
  while (!Stub.empty()) {
    StringRef Line;
    std::tie(Line, Stub) = Stub.split('\n');
    int K = matchSharedOp(Line, Ops);
    if (K >= 0) {
      ++Uses[K];
      Any = true;
    }
  }
  return Any;
}

static void emitSharedFunc(raw_ostream &OS, const SharedOp &Op,
                           StringRef Prefix) {
  OS << ".func (.reg ." << Op.Type << " d) " << Prefix << '_' << Op.Func
     << "(.reg ." << Op.Type << " a" << (Op.NumArgs > 1 ? ", .reg ." : "")
     << (Op.NumArgs > 1 ? Op.Type : "") << (Op.NumArgs > 1 ? " b" : "")
     << ")\n{\n\t" << Op.Opcode << " d, a" << (Op.NumArgs > 1 ? ", b" : "")
     << ";\n\tret;\n}\n\n";
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

static void emitKernel(raw_string_ostream &OS, ArrayRef<StringRef> Stubs,
                       unsigned Kernel, uint64_t FirstProgram,
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
  // Site = ctaid.x; out index = (first + site) * n + e, in 64 bits: programs
  // x elements may pass 2^32.
  OS << "\tmov.u32 %rk4, %ctaid.x;\n"
     << "\tadd.u32 %rk5, %rk4, " << FirstProgram << ";\n"
     << "\tmul.wide.u32 %rdk4, %rk5, %rk0;\n"
     << "\tcvt.u64.u32 %rdk5, %rk1;\n\tadd.u64 %rdk4, %rdk4, %rdk5;\n"
     << "\tshl.b64 %rdk4, %rdk4, 2;\n\tadd.u64 %rdk4, %rdk1, %rdk4;\n"
     << "\tsetp.ge.u32 %pk, %rk4, " << Stubs.size() << ";\n"
     << "\t@%pk bra $" << P << "_exit;\n";
  // Site S runs block Block[S]: the first site with the same stub when
  // deduplicating.
  std::vector<size_t> Block(Stubs.size());
  StringMap<size_t> FirstSite;
  for (size_t S = 0; S < Stubs.size(); ++S)
    Block[S] =
        Spec.Deduplicate ? FirstSite.try_emplace(Stubs[S], S).first->second : S;
  OS << "$" << P << "_sites: .branchtargets ";
  for (size_t S = 0; S < Stubs.size(); ++S)
    OS << (S ? ", " : "") << '$' << P << "_s" << Block[S];
  OS << ";\n\tbrx.idx %rk4, $" << P << "_sites;\n";
  for (size_t S = 0; S < Stubs.size(); ++S) {
    if (Block[S] != S)
      continue;
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
  // The program index is a 32-bit block index plus the kernel's first.
  if (Stubs.size() > UINT32_MAX)
    return makeError("packed module: " + Twine(Stubs.size()) +
                     " programs, but at most " + Twine(UINT32_MAX));

  // Each distinct stub is checked once, as render checks a stub: a stray
  // `}` or a write to the packer's own registers is an error located in
  // the stub, not a message from the backend about the module.
  if (Spec.CheckStubs) {
    static const std::vector<std::string> Reserved(std::begin(PackerRegisters),
                                                   std::end(PackerRegisters));
    StringMap<bool> Checked;
    for (size_t I = 0; I != Stubs.size(); ++I) {
      if (!Checked.try_emplace(Stubs[I], true).second)
        continue;
      std::string Name =
          I < StubNames.size() ? StubNames[I] : ("stub " + Twine(I)).str();
      std::string Where =
          ("packed program " + Twine(I) + " (" + Spec.KernelPrefix + "_" +
           Twine(I / Spec.SitesPerKernel) + ", site " +
           Twine(I % Spec.SitesPerKernel) + ")")
              .str();
      if (Error E =
              checkStubAt(Stubs[I], Name, Where, Reserved, "the packed module"))
        return E;
    }
  }

  // Slow operations used at several sites (in distinct blocks) go through
  // one `.func` each.
  std::vector<std::string> Routed;
  ArrayRef<StringRef> Final = Stubs;
  std::vector<StringRef> RoutedRefs;
  bool Route[NumSharedOps] = {};
  if (Spec.ShareSlowOps) {
    unsigned Uses[NumSharedOps] = {};
    StringMap<bool> Seen;
    std::vector<bool> Has(Stubs.size());
    bool Any = false;
    for (size_t I = 0; I != Stubs.size(); ++I) {
      // Every stub counts once per kernel at most where blocks are shared;
      // counting distinct texts is close enough and cheaper.
      if (Spec.Deduplicate && !Seen.try_emplace(Stubs[I], true).second)
        continue;
      Any |= countSharedOps(Stubs[I], Uses);
    }
    for (unsigned K = 0; K != NumSharedOps; ++K)
      Route[K] = Uses[K] > 1;
    if (Any && is_contained(Route, true)) {
      Routed.reserve(Stubs.size());
      unsigned Ignored[NumSharedOps];
      for (StringRef S : Stubs)
        Routed.push_back(countSharedOps(S, Ignored)
                             ? routeSharedOps(S, Spec.KernelPrefix, Route)
                             : S.str());
      RoutedRefs.assign(Routed.begin(), Routed.end());
      Final = RoutedRefs;
    }
  }

  std::string Out;
  raw_string_ostream OS(Out);
  LineTracker Lines{OS, Map, StubNames};
  if (Map)
    Map->clear();
  // PTX ISA 8.0 is accepted by CUDA 12.0 and newer.
  OS << "//\n// Packed injects: " << Stubs.size() << " programs\n//\n\n"
     << ".version 8.0\n.target " << Spec.Arch << "\n.address_size 64\n\n";
  for (unsigned K = 0; K != NumSharedOps; ++K)
    if (Route[K])
      emitSharedFunc(OS, SharedOps[K], Spec.KernelPrefix);
  for (size_t First = 0, K = 0; First < Stubs.size();
       First += Spec.SitesPerKernel, ++K)
    emitKernel(OS,
               Final.slice(First, std::min<size_t>(Spec.SitesPerKernel,
                                                   Stubs.size() - First)),
               unsigned(K), First, Spec, Lines);
  return OS.str();
}
