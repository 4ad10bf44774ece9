//===- ExprDag.h - Expression DAG with shared sub-expressions ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The node storage of an expression DAG: leaves (inputs, constants,
/// special registers) and instructions whose operands are earlier nodes,
/// with optional hash-consing, so that equal sub-expressions are one node,
/// and dead-code elimination (markLive). A front end builds it from its own
/// program form (AST PTX: tree words) and emits it with the PTX emitter
/// (mmptx/Expr/PtxEmitter.h).
///
/// NodeT is a plain struct with fields `Kind`, `Stack` (uint16_t),
/// `Payload`, `Aux` and `NumOps` (uint32_t); a node of kind InstrKind is an
/// instruction (Payload: its index) whose NumOps operands are
/// getOperands()[Aux, Aux + NumOps).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_EXPRDAG_H
#define MMPTX_EXPR_EXPRDAG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mmptx {
namespace expr {

template <typename NodeT, auto InstrKind> class ExprDag {
public:
  using KindT = decltype(InstrKind);

  /// Starts a new DAG: no nodes, and no entry of the previous one found by
  /// hash-consing. \returns true when the generation counter wrapped, which
  /// invalidates stamps a front end keeps of getGeneration().
  bool clear() {
    NumNodes = NumOperands = 0;
    bool Wrapped = false;
    if (++Gen == 0) {
      // Entries of generation 0 are empty, and gen is never 0.
      Gen = 1;
      std::fill(Table.begin(), Table.end(), HashEntry{0, 0});
      Wrapped = true;
    }
    if (Table.empty())
      growTable();
    return Wrapped;
  }
  /// Makes room, on an empty DAG, for \p MaxNodes nodes with as many
  /// operands in all, so that the Presized adds below need no checks. A
  /// Presized add of at most 4 operands reads 4 from its operand array.
  void reserve(size_t MaxNodes) {
    if (Nodes.size() < MaxNodes)
      Nodes.resize(MaxNodes);
    // Slack for copying four operands whatever their number.
    if (Operands.size() < MaxNodes + 4)
      Operands.resize(MaxNodes + 4);
    // At most half full: probes end soon on an empty entry.
    if (Table.size() < 2 * MaxNodes + 2) {
      size_t Cap = llvm::PowerOf2Ceil(2 * MaxNodes + 2);
      Table.assign(Cap, HashEntry{0, 0});
      TableShift = 64 - unsigned(llvm::countTrailingZeros(Cap));
    }
  }
  /// The generation of the current DAG, never 0.
  uint32_t getGeneration() const { return Gen; }

  /// \returns the leaf (kind, stack, payload, aux), added unless present.
  /// Presized: reserve() made room for it.
  template <bool Presized = false>
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addLeaf(KindT Kind, uint16_t Stack,
                                                uint32_t Payload,
                                                uint32_t Aux) {
    if (!Presized)
      makeRoom(0);
    size_t Mask = Table.size() - 1;
    size_t I = slot(hashLeaf(Kind, Stack, Payload, Aux));
    HashEntry *Tab = Table.data();
    const NodeT *Nd = Nodes.data();
    for (;; I = (I + 1) & Mask) {
      HashEntry &E = Tab[I];
      if (E.Gen != Gen)
        break;
      const NodeT &M = Nd[E.Node];
      if (M.Kind == Kind && M.Stack == Stack && M.Payload == Payload &&
          M.Aux == Aux)
        return E.Node;
    }
    uint32_t Idx = NumNodes;
    Tab[I] = {Gen, Idx};
    pushNode(Kind, Stack, Payload, Aux, 0);
    return Idx;
  }

  /// \returns instruction \p Instr of operands \p Ops with a value on
  /// \p Stack: an equal one already present if Share, else a new node.
  /// Presized: reserve() made room for it and its operands.
  template <bool Share, bool Presized = false>
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addInstr(uint32_t Instr, uint16_t Stack,
                                                 const uint32_t *Ops,
                                                 uint32_t NumOps) {
    if (!Presized)
      makeRoom(NumOps);
    uint32_t Idx = NumNodes;
    if (Share) {
      size_t Mask = Table.size() - 1;
      size_t I = slot(hashInstr(Instr, Ops, NumOps));
      HashEntry *Tab = Table.data();
      const NodeT *Nd = Nodes.data();
      const uint32_t *Opd = Operands.data();
      for (;; I = (I + 1) & Mask) {
        HashEntry &E = Tab[I];
        if (E.Gen != Gen)
          break;
        const NodeT &M = Nd[E.Node];
        if (M.Kind == InstrKind && M.Payload == Instr && M.NumOps == NumOps &&
            std::equal(Ops, Ops + NumOps, Opd + M.Aux))
          return E.Node;
      }
      Tab[I] = {Gen, Idx};
    }
    uint32_t Begin = NumOperands;
    uint32_t *Dst = Operands.data() + Begin;
    if (Presized && NumOps <= 4)
      std::memcpy(Dst, Ops, 16); // one copy; the slack takes the excess
    else
      for (uint32_t K = 0; K != NumOps; ++K)
        Dst[K] = Ops[K];
    NumOperands = Begin + NumOps;
    pushNode(InstrKind, Stack, Instr, Begin, NumOps);
    return Idx;
  }

  /// addInstr with the sharing mode chosen at run time.
  uint32_t addInstr(uint32_t Instr, uint16_t Stack, const uint32_t *Ops,
                    uint32_t NumOps, bool Share) {
    return Share ? addInstr<true>(Instr, Stack, Ops, NumOps)
                 : addInstr<false>(Instr, Stack, Ops, NumOps);
  }

  llvm::ArrayRef<NodeT> getNodes() const {
    return llvm::makeArrayRef(Nodes.data(), NumNodes);
  }
  llvm::ArrayRef<uint32_t> getOperands() const {
    return llvm::makeArrayRef(Operands.data(), NumOperands);
  }
  uint32_t size() const { return NumNodes; }
  const NodeT &operator[](uint32_t N) const { return Nodes[N]; }

  /// Dead-code elimination: sets \p Mark[n] to \p Live for every node the
  /// \p Roots reach and to \p Dead for the others (operands have lower
  /// indices than their users). \p Mark has a slot per node.
  void markLive(llvm::ArrayRef<uint32_t> Roots, uint32_t *Mark, uint32_t Dead,
                uint32_t Live) const {
    uint32_t Num = NumNodes;
    std::fill(Mark, Mark + Num, Dead);
    for (uint32_t N : Roots)
      Mark[N] = Live;
    for (uint32_t N = Num; N-- != 0;) {
      if (Mark[N] == Dead || Nodes[N].Kind != InstrKind)
        continue;
      for (uint32_t I = 0; I != Nodes[N].NumOps; ++I)
        Mark[Operands[Nodes[N].Aux + I]] = Live;
    }
  }

private:
  struct HashEntry {
    uint32_t Gen;
    uint32_t Node;
  };
  /// Appends a node field by field: a node assembled on the stack and
  /// copied whole stalls on store forwarding.
  void pushNode(KindT Kind, uint16_t Stack, uint32_t Payload, uint32_t Aux,
                uint32_t NumOps) {
    NodeT &N = Nodes[NumNodes++];
    N.Kind = Kind;
    N.Stack = Stack;
    N.Payload = Payload;
    N.Aux = Aux;
    N.NumOps = NumOps;
  }
  /// Room for one more node of \p NumOps operands, and the table at most
  /// half full after it.
  void makeRoom(uint32_t NumOps) {
    if (LLVM_UNLIKELY(NumNodes == Nodes.size()))
      Nodes.resize(std::max<size_t>(2 * Nodes.size(), 64));
    if (LLVM_UNLIKELY(Operands.size() - NumOperands < NumOps))
      Operands.resize(std::max<size_t>(2 * Operands.size(), 64) + NumOps);
    if (LLVM_UNLIKELY(size_t(NumNodes) * 2 >= Table.size()))
      growTable();
  }
  /// Hashes are multiplied by a Fibonacci constant and indexed by their top
  /// bits (slot()), which mixes every input bit into the index.
  static uint64_t hashInstr(uint32_t Instr, const uint32_t *Ops,
                            uint32_t NumOps) {
    // The first and last operands only (no loop): a collision costs a
    // compare, and slot()'s multiply does the mixing.
    uint64_t H = uint64_t(Instr) << 32 | NumOps;
    if (NumOps)
      H ^= uint64_t(Ops[0]) << 8 ^ uint64_t(Ops[NumOps - 1]) << 40;
    return H;
  }
  static uint64_t hashLeaf(KindT Kind, uint16_t Stack, uint32_t Payload,
                           uint32_t Aux) {
    uint64_t H = (uint64_t(Kind) << 48 | uint64_t(Stack) << 32 | Payload) ^
                 (uint64_t(Aux) << 17);
    return H * 0xff51afd7ed558ccdull ^ (H >> 33);
  }
  uint64_t hashOf(const NodeT &N) const {
    if (N.Kind == InstrKind)
      return hashInstr(N.Payload, Operands.data() + N.Aux, N.NumOps);
    return hashLeaf(N.Kind, N.Stack, N.Payload, N.Aux);
  }
  size_t slot(uint64_t H) const {
    return size_t((H * 0x9E3779B97F4A7C15ull) >> TableShift);
  }
  void growTable() {
    size_t Cap = std::max<size_t>(Table.size() * 2, 256);
    Table.assign(Cap, HashEntry{0, 0});
    TableShift = 64 - unsigned(llvm::countTrailingZeros(Cap));
    size_t Mask = Cap - 1;
    for (uint32_t N = 0, E = NumNodes; N != E; ++N) {
      size_t I = slot(hashOf(Nodes[N]));
      while (Table[I].Gen == Gen)
        I = (I + 1) & Mask;
      Table[I] = {Gen, N};
    }
  }

  std::vector<NodeT> Nodes;
  std::vector<uint32_t> Operands;
  std::vector<HashEntry> Table;
  /// The DAG is nodes[0, NumNodes) and operands[0, NumOperands); the
  /// vectors are storage, sized ahead.
  uint32_t NumNodes = 0, NumOperands = 0;
  uint32_t Gen = 0;
  unsigned TableShift = 64;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_EXPRDAG_H
