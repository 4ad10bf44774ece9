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
/// NodeT is a plain struct with fields `kind`, `stack` (uint16_t),
/// `payload`, `aux` and `numOps` (uint32_t); a node of kind InstrKind is an
/// instruction (payload: its index) whose numOps operands are
/// getOperands()[aux, aux + numOps).
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
    numNodes = numOperands = 0;
    bool wrapped = false;
    if (++gen == 0) {
      // Entries of generation 0 are empty, and gen is never 0.
      gen = 1;
      std::fill(table.begin(), table.end(), HashEntry{0, 0});
      wrapped = true;
    }
    if (table.empty())
      growTable();
    return wrapped;
  }
  /// Makes room, on an empty DAG, for \p maxNodes nodes with as many
  /// operands in all, so that the Presized adds below need no checks. A
  /// Presized add of at most 4 operands reads 4 from its \p ops.
  void reserve(size_t maxNodes) {
    if (nodes.size() < maxNodes)
      nodes.resize(maxNodes);
    // Slack for copying four operands whatever their number.
    if (operands.size() < maxNodes + 4)
      operands.resize(maxNodes + 4);
    // At most half full: probes end soon on an empty entry.
    if (table.size() < 2 * maxNodes + 2) {
      size_t cap = llvm::PowerOf2Ceil(2 * maxNodes + 2);
      table.assign(cap, HashEntry{0, 0});
      tableShift = 64 - unsigned(llvm::countTrailingZeros(cap));
    }
  }
  /// The generation of the current DAG, never 0.
  uint32_t getGeneration() const { return gen; }

  /// \returns the leaf (kind, stack, payload, aux), added unless present.
  /// Presized: reserve() made room for it.
  template <bool Presized = false>
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addLeaf(KindT kind, uint16_t stack,
                                                uint32_t payload,
                                                uint32_t aux) {
    if (!Presized)
      makeRoom(0);
    size_t mask = table.size() - 1;
    size_t i = slot(hashLeaf(kind, stack, payload, aux));
    HashEntry *tab = table.data();
    const NodeT *nd = nodes.data();
    for (;; i = (i + 1) & mask) {
      HashEntry &e = tab[i];
      if (e.gen != gen)
        break;
      const NodeT &m = nd[e.node];
      if (m.kind == kind && m.stack == stack && m.payload == payload &&
          m.aux == aux)
        return e.node;
    }
    uint32_t idx = numNodes;
    tab[i] = {gen, idx};
    pushNode(kind, stack, payload, aux, 0);
    return idx;
  }

  /// \returns instruction \p instr of operands \p ops with a value on
  /// \p stack: an equal one already present if Share, else a new node.
  /// Presized: reserve() made room for it and its operands.
  template <bool Share, bool Presized = false>
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addInstr(uint32_t instr, uint16_t stack,
                                                 const uint32_t *ops,
                                                 uint32_t numOps) {
    if (!Presized)
      makeRoom(numOps);
    uint32_t idx = numNodes;
    if (Share) {
      size_t mask = table.size() - 1;
      size_t i = slot(hashInstr(instr, ops, numOps));
      HashEntry *tab = table.data();
      const NodeT *nd = nodes.data();
      const uint32_t *opd = operands.data();
      for (;; i = (i + 1) & mask) {
        HashEntry &e = tab[i];
        if (e.gen != gen)
          break;
        const NodeT &m = nd[e.node];
        if (m.kind == InstrKind && m.payload == instr && m.numOps == numOps &&
            std::equal(ops, ops + numOps, opd + m.aux))
          return e.node;
      }
      tab[i] = {gen, idx};
    }
    uint32_t begin = numOperands;
    uint32_t *dst = operands.data() + begin;
    if (Presized && numOps <= 4)
      std::memcpy(dst, ops, 16); // one copy; the slack takes the excess
    else
      for (uint32_t k = 0; k != numOps; ++k)
        dst[k] = ops[k];
    numOperands = begin + numOps;
    pushNode(InstrKind, stack, instr, begin, numOps);
    return idx;
  }

  /// addInstr with the sharing mode chosen at run time.
  uint32_t addInstr(uint32_t instr, uint16_t stack, const uint32_t *ops,
                    uint32_t numOps, bool share) {
    return share ? addInstr<true>(instr, stack, ops, numOps)
                 : addInstr<false>(instr, stack, ops, numOps);
  }

  llvm::ArrayRef<NodeT> getNodes() const {
    return llvm::makeArrayRef(nodes.data(), numNodes);
  }
  llvm::ArrayRef<uint32_t> getOperands() const {
    return llvm::makeArrayRef(operands.data(), numOperands);
  }
  uint32_t size() const { return numNodes; }
  const NodeT &operator[](uint32_t n) const { return nodes[n]; }

  /// Dead-code elimination: sets \p mark[n] to \p live for every node the
  /// \p roots reach and to \p dead for the others (operands have lower
  /// indices than their users). \p mark has a slot per node.
  void markLive(llvm::ArrayRef<uint32_t> roots, uint32_t *mark, uint32_t dead,
                uint32_t live) const {
    uint32_t num = numNodes;
    std::fill(mark, mark + num, dead);
    for (uint32_t n : roots)
      mark[n] = live;
    for (uint32_t n = num; n-- != 0;) {
      if (mark[n] == dead || nodes[n].kind != InstrKind)
        continue;
      for (uint32_t i = 0; i != nodes[n].numOps; ++i)
        mark[operands[nodes[n].aux + i]] = live;
    }
  }

private:
  struct HashEntry {
    uint32_t gen;
    uint32_t node;
  };
  /// Appends a node field by field: a node assembled on the stack and
  /// copied whole stalls on store forwarding.
  void pushNode(KindT kind, uint16_t stack, uint32_t payload, uint32_t aux,
                uint32_t numOps) {
    NodeT &n = nodes[numNodes++];
    n.kind = kind;
    n.stack = stack;
    n.payload = payload;
    n.aux = aux;
    n.numOps = numOps;
  }
  /// Room for one more node of \p numOps operands, and the table at most
  /// half full after it.
  void makeRoom(uint32_t numOps) {
    if (LLVM_UNLIKELY(numNodes == nodes.size()))
      nodes.resize(std::max<size_t>(2 * nodes.size(), 64));
    if (LLVM_UNLIKELY(operands.size() - numOperands < numOps))
      operands.resize(std::max<size_t>(2 * operands.size(), 64) + numOps);
    if (LLVM_UNLIKELY(size_t(numNodes) * 2 >= table.size()))
      growTable();
  }
  /// Hashes are multiplied by a Fibonacci constant and indexed by their top
  /// bits (slot()), which mixes every input bit into the index.
  static uint64_t hashInstr(uint32_t instr, const uint32_t *ops,
                            uint32_t numOps) {
    // The first and last operands only (no loop): a collision costs a
    // compare, and slot()'s multiply does the mixing.
    uint64_t h = uint64_t(instr) << 32 | numOps;
    if (numOps)
      h ^= uint64_t(ops[0]) << 8 ^ uint64_t(ops[numOps - 1]) << 40;
    return h;
  }
  static uint64_t hashLeaf(KindT kind, uint16_t stack, uint32_t payload,
                           uint32_t aux) {
    uint64_t h = (uint64_t(kind) << 48 | uint64_t(stack) << 32 | payload) ^
                 (uint64_t(aux) << 17);
    return h * 0xff51afd7ed558ccdull ^ (h >> 33);
  }
  uint64_t hashOf(const NodeT &n) const {
    if (n.kind == InstrKind)
      return hashInstr(n.payload, operands.data() + n.aux, n.numOps);
    return hashLeaf(n.kind, n.stack, n.payload, n.aux);
  }
  size_t slot(uint64_t h) const {
    return size_t((h * 0x9E3779B97F4A7C15ull) >> tableShift);
  }
  void growTable() {
    size_t cap = std::max<size_t>(table.size() * 2, 256);
    table.assign(cap, HashEntry{0, 0});
    tableShift = 64 - unsigned(llvm::countTrailingZeros(cap));
    size_t mask = cap - 1;
    for (uint32_t n = 0, e = numNodes; n != e; ++n) {
      size_t i = slot(hashOf(nodes[n]));
      while (table[i].gen == gen)
        i = (i + 1) & mask;
      table[i] = {gen, n};
    }
  }

  std::vector<NodeT> nodes;
  std::vector<uint32_t> operands;
  std::vector<HashEntry> table;
  /// The DAG is nodes[0, numNodes) and operands[0, numOperands); the
  /// vectors are storage, sized ahead.
  uint32_t numNodes = 0, numOperands = 0;
  uint32_t gen = 0;
  unsigned tableShift = 64;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_EXPRDAG_H
