//===- PtxEmitter.cpp - Shared PTX text writing of expression stubs -------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Expr/PtxEmitter.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::expr;

char *TextBuf::growAt(char *P, size_t N) {
  Len = size_t(P - Buf.get());
  size_t NewCap = std::max<size_t>(Len + N, 2 * Cap + 256);
  std::unique_ptr<char[]> Nb(new char[NewCap]);
  if (Len)
    std::memcpy(Nb.get(), Buf.get(), Len);
  Buf = std::move(Nb);
  Cap = NewCap;
  return Buf.get() + Len;
}

TextPiece expr::makeTextPiece(StringRef S) {
  TextPiece Pc = {};
  std::memcpy(Pc.Text, S.data(), std::min<size_t>(S.size(), 16));
  Pc.Len = S.size() <= 16 ? uint8_t(S.size()) : TextPiece::LongPiece;
  return Pc;
}

PtxStackTables::PtxStackTables(const InstrSet &Info, StringRef Indent,
                               function_ref<std::string(unsigned)> RegPrefix) {
  for (uint32_t S = 0; S != Info.NumStacks; ++S) {
    // Plain string appends: Twine costs microseconds per context here.
    StringRef P = Info.LiteralPrefixes[S];
    std::string Ps = P.str();
    MovOps.push_back(P == "u8" || P == "s8" ? "cvt." + Ps + "." + Ps
                                            : "mov." + Ps);
    MovLines.push_back(Indent.str() + MovOps.back() + " ");
    MaxMovLine = std::max(MaxMovLine, MovLines.back().size());
    MovPieces.push_back(makeTextPiece(MovLines.back()));
    RegPrefixes.push_back(RegPrefix(S));
    RegPieces.push_back(makeTextPiece(RegPrefixes.back()));
    PrefixesFit &= RegPieces.back().Len != TextPiece::LongPiece;
    DeclHeads.push_back(Indent.str() + ".reg ." + Ps + " " +
                        RegPrefixes.back() + "<");
    LitKinds.push_back(expr::getLiteralKind(P));
    InlineLits.push_back(Info.InlineLiterals ? Info.InlineLiterals[S] : 1);
  }
}

std::string expr::ptxRegisterDecl(StringRef Prefix, StringRef Name) {
  return ("\t.reg ." + Prefix + " %" + Name + ";\n").str();
}

std::string expr::ptxZeroRegister(StringRef P, StringRef Name) {
  std::string Op = P == "u8" || P == "s8" ? ("cvt." + P + "." + P).str()
                                          : ("mov." + P).str();
  StringRef Zero = P == "f32"   ? "0f00000000"
                   : P == "f64" ? "0d0000000000000000"
                                : "0";
  return ("\t" + Op + " %" + Name + ", " + Zero + ";\n").str();
}
