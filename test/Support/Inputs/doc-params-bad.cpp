// Input of doc-params.test: utils/check-doc-params.py reports each line a
// CHECK line names, and no other.
#include <vector>

// CHECK: doc-params-bad.cpp:[[@LINE+1]]: \p Nme names no parameter of
/// Adds \p Nme to \p Other.
int add(int Name, int Other);

// CHECK: doc-params-bad.cpp:[[@LINE+1]]: \p Count: the declaration below has
/// Holds \p Count values.
struct Holder {
  int TheCount = 0; // a member: not checked
};

// CHECK: doc-params-bad.cpp:[[@LINE+2]]: 'TheA': LLVM names a local or
/// \p TheA and \p T (a template parameter) are named.
template <typename T> T twice(T TheA) { return TheA + TheA; }

/// \p Words, \p Fn and \p Default (after a `>>`) are parameters.
int count(std::vector<std::vector<int>> Words, int (*Fn)(int),
          std::vector<std::vector<int>> Default = {});

/// A macro's \p X.
#define SQUARE(X) ((X) * (X))

// CHECK: doc-params-bad.cpp:[[@LINE+1]]: \p Size names no parameter of
/* A C comment that uses \p Words and \p N (the declaration's) and
 * \p Size (not). */
int use(const int *Words, int N) {
  int Sum = 0;
  // CHECK: doc-params-bad.cpp:[[@LINE+1]]: 'TheI': LLVM names a local or
  for (int TheI = 0; TheI != N; ++TheI)
    Sum += Words[TheI];
  // CHECK: doc-params-bad.cpp:[[@LINE+1]]: 'TheStop': LLVM names a local or
  const int *Start = Words, *TheStop = Words + N;
  Holder H;
  int TheModule = Sum;    // LLVM's idiom for the one X of a scope
  H.TheCount = TheModule; // uses, not declarations
  return int(TheStop - Start) + H.TheCount;
}

// CHECK: check-doc-params: 6 findings in 1 sources
