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

char *TextBuf::growAt(char *p, size_t n) {
  len = size_t(p - buf.get());
  size_t newCap = std::max<size_t>(len + n, 2 * cap + 256);
  std::unique_ptr<char[]> nb(new char[newCap]);
  if (len)
    std::memcpy(nb.get(), buf.get(), len);
  buf = std::move(nb);
  cap = newCap;
  return buf.get() + len;
}

TextPiece expr::makeTextPiece(StringRef s) {
  TextPiece pc = {};
  std::memcpy(pc.text, s.data(), std::min<size_t>(s.size(), 16));
  pc.len = s.size() <= 16 ? uint8_t(s.size()) : TextPiece::LongPiece;
  return pc;
}

PtxStackTables::PtxStackTables(const stack::StackInfo &info, StringRef indent,
                               function_ref<std::string(unsigned)> regPrefix) {
  for (uint32_t s = 0; s != info.numStacks; ++s) {
    // Plain string appends: Twine costs microseconds per context here.
    StringRef p = info.literalPrefixes[s];
    std::string ps = p.str();
    movOps.push_back(p == "u8" || p == "s8" ? "cvt." + ps + "." + ps
                                            : "mov." + ps);
    movLines.push_back(indent.str() + movOps.back() + " ");
    maxMovLine = std::max(maxMovLine, movLines.back().size());
    movPieces.push_back(makeTextPiece(movLines.back()));
    regPrefixes.push_back(regPrefix(s));
    regPieces.push_back(makeTextPiece(regPrefixes.back()));
    prefixesFit &= regPieces.back().len != TextPiece::LongPiece;
    declHeads.push_back(indent.str() + ".reg ." + ps + " " +
                        regPrefixes.back() + "<");
    litKinds.push_back(expr::getLiteralKind(p));
    inlineLits.push_back(info.inlineLiterals ? info.inlineLiterals[s] : 1);
  }
}
