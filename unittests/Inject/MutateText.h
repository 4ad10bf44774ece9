//===- MutateText.h - Random edits for the differential tests ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_UNITTESTS_INJECT_MUTATETEXT_H
#define MMPTX_UNITTESTS_INJECT_MUTATETEXT_H

#include "llvm/ADT/StringRef.h"

#include <random>
#include <string>

namespace mmptx {
namespace mutatetest {

/// \p S with one to three random edits drawn by \p Gen: a character of
/// \p Alphabet inserted, a character erased, or one replaced; where
/// \p LongDigits, also a run of up to 20 digits inserted (long literals).
inline std::string mutateText(std::string S, std::mt19937_64 &Gen,
                              llvm::StringRef Alphabet, bool LongDigits) {
  unsigned Edits = 1 + Gen() % 3;
  for (unsigned E = 0; E != Edits; ++E) {
    size_t At = S.empty() ? 0 : Gen() % (S.size() + 1);
    char C = Alphabet[Gen() % Alphabet.size()];
    unsigned Kind = Gen() % (LongDigits ? 4 : 3);
    if (Kind == 0)
      S.insert(S.begin() + At, C);
    else if (Kind == 1 && At < S.size())
      S.erase(At, 1);
    else if (Kind == 2 && LongDigits)
      S.insert(At, std::string(1 + Gen() % 20, "0123456789"[Gen() % 10]));
    else if (Kind != 1 && At < S.size())
      S[At] = C;
  }
  return S;
}

} // namespace mutatetest
} // namespace mmptx

#endif // MMPTX_UNITTESTS_INJECT_MUTATETEXT_H
