//===- Contraction.cpp - ptxas's mul + add contraction --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/Contraction.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;

namespace {

enum class Role : uint8_t { Other, Mul, AddSub, Neg, Move };

struct Class {
  Role R = Role::Other;
  /// The contraction class: type and `.ftz` (`ftz.f32`, `f16x2`, ...).
  StringRef Key;
};

/// The role of instruction \p Instr in a contraction.
Class classify(const InstrSet &Info, uint32_t Instr, size_t NumOps) {
  StringRef Ptx = Info.InstrPtx[Instr];
  SmallVector<StringRef, 6> Parts;
  Ptx.split(Parts, '.');
  const PtxInstrDesc &D = Info.Instrs[Instr];
  Class C;
  if (Parts[0] == "mov") {
    if (NumOps == 1 && D.NumRets == 1 &&
        Info.ArgTypes[D.Rets[0]].NumVecElems <= 1)
      C.R = Role::Move;
    return C;
  }
  StringRef Ty = Parts.back();
  if (Ty != "f32" && Ty != "f64" && Ty != "f16" && Ty != "f16x2")
    return C;
  // Only `op[.ftz].type`: a rounding modifier (or .sat, .approx) stops it.
  bool Ftz = Parts.size() == 3 && Parts[1] == "ftz";
  if (Parts.size() != 2 && !Ftz)
    return C;
  C.Key = Ftz ? Ptx.drop_front(Parts[0].size() + 1) : Ty;
  if (Parts[0] == "mul" && NumOps == 2)
    C.R = Role::Mul;
  else if ((Parts[0] == "add" || Parts[0] == "sub") && NumOps == 2)
    C.R = Role::AddSub;
  else if (Parts[0] == "neg" && NumOps == 1)
    C.R = Role::Neg;
  return C;
}

/// Instructions ptxas evaluates when their operands are literals.
bool folds(StringRef Ptx) {
  StringRef Op = Ptx.take_until([](char C) { return C == '.'; });
  bool Half = Ptx.endswith("f16") || Ptx.endswith("f16x2") ||
              Ptx.endswith("bf16") || Ptx.endswith("bf16x2");
  if (Half && Op != "mov")
    return false;
  static const char *const Folded[] = {"add", "sub", "mul", "mad", "neg", "abs",
                                       "not", "and", "or",  "xor", "shl", "shr",
                                       "min", "max", "mov", "cvt"};
  return any_of(Folded, [&](const char *F) { return Op == F; });
}

/// Instructions ptxas expands with a branch: a basic block ends there.
bool splitsBlock(StringRef Ptx) {
  SmallVector<StringRef, 6> Parts;
  Ptx.split(Parts, '.');
  StringRef Op = Parts[0], Ty = Parts.back();
  if ((Op == "div" || Op == "rem") && (Ty == "s32" || Ty == "s64"))
    return true;
  return (Op == "div" || Op == "rcp" || Op == "sqrt") &&
         is_contained(Parts, "rn") && (Ty == "f32" || Ty == "f64");
}

} // namespace

std::vector<Contraction> expr::planContractions(const InstrSet &Info,
                                                ArrayRef<ContractionNode> Nodes,
                                                ArrayRef<uint8_t> Live,
                                                ArrayRef<uint32_t> Outputs) {
  constexpr uint32_t None = ContractionNode::None;
  size_t N = Nodes.size();
  std::vector<Contraction> Plan(N);
  std::vector<Class> Cls(N);
  std::vector<uint8_t> Literal(N, 0);
  // Per node, the product it is (a mul, or a move / neg of one) and whether
  // it is negated.
  std::vector<uint32_t> Product(N, None);
  std::vector<uint8_t> Neg(N, 0);
  for (size_t I = 0; I != N; ++I) {
    const ContractionNode &Nd = Nodes[I];
    if (Nd.Instr == None) {
      Literal[I] = Nd.IsLiteral;
      continue;
    }
    Cls[I] = classify(Info, Nd.Instr, Nd.Ops.size());
    Literal[I] = !Nd.Ops.empty() && folds(Info.InstrPtx[Nd.Instr]) &&
                 all_of(Nd.Ops, [&](uint32_t O) { return Literal[O]; });
    switch (Cls[I].R) {
    case Role::Mul:
      // ptxas folds an f32/f64 product of literals: it rounds.
      if (!(Literal[I] && (Cls[I].Key.endswith("f32") || Cls[I].Key == "f64")))
        Product[I] = uint32_t(I);
      break;
    case Role::Move:
      Product[I] = Product[Nd.Ops[0]];
      Neg[I] = Neg[Nd.Ops[0]];
      break;
    case Role::Neg: {
      uint32_t P = Product[Nd.Ops[0]];
      if (P != None && Cls[P].Key == Cls[I].Key) {
        Product[I] = P;
        Neg[I] = !Neg[Nd.Ops[0]];
      }
      break;
    }
    default:
      break;
    }
  }
  // Positions of the block-ending instructions, sorted: a use is fusible
  // only in its product's block.
  std::vector<uint32_t> Splits;
  for (size_t I = 0; I != N; ++I)
    if (Live[I] && Nodes[I].Instr != None &&
        splitsBlock(Info.InstrPtx[Nodes[I].Instr]))
      Splits.push_back(Nodes[I].Position);
  llvm::sort(Splits);
  auto SameBlock = [&](uint32_t P, uint32_t U) {
    // ptxas moves a product by a literal to its users.
    if (any_of(Nodes[P].Ops, [&](uint32_t O) { return Literal[O]; }))
      return true;
    uint32_t Lo = Nodes[P].Position, Hi = Nodes[U].Position;
    if (Lo > Hi)
      std::swap(Lo, Hi);
    auto It = std::upper_bound(Splits.begin(), Splits.end(), Lo);
    return It == Splits.end() || *It >= Hi;
  };
  // A product is contracted when every use of it (or of its moves / negs)
  // is an add/sub of its class reading it once, in its block.
  std::vector<uint8_t> Kept(N, 0);
  for (uint32_t O : Outputs)
    if (O < N && Product[O] != None)
      Kept[Product[O]] = 1;
  for (size_t I = 0; I != N; ++I) {
    if (!Live[I] || Nodes[I].Instr == None)
      continue;
    ArrayRef<uint32_t> Ops = Nodes[I].Ops;
    for (size_t K = 0; K != Ops.size(); ++K) {
      uint32_t P = Product[Ops[K]];
      if (P == None || Product[I] == P) // a move / neg passing it on
        continue;
      bool Fusible = Cls[I].R == Role::AddSub && Cls[I].Key == Cls[P].Key &&
                     Product[Ops[1 - K]] != P && SameBlock(P, uint32_t(I));
      if (!Fusible)
        Kept[P] = 1;
    }
  }
  for (size_t I = 0; I != N; ++I) {
    if (!Live[I] || Cls[I].R != Role::AddSub)
      continue;
    for (uint8_t K = 0; K != 2; ++K) {
      uint32_t Op = Nodes[I].Ops[K];
      uint32_t P = Product[Op];
      if (P != None && !Kept[P] && Cls[P].Key == Cls[I].Key) {
        Plan[I] = {P, K, Neg[Op] != 0};
        break;
      }
    }
  }
  return Plan;
}
