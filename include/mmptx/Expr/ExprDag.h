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
    nodes.clear();
    operands.clear();
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
  /// The generation of the current DAG, never 0.
  uint32_t getGeneration() const { return gen; }

  /// \returns the leaf (kind, stack, payload, aux), added unless present.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addLeaf(KindT kind, uint16_t stack,
                                                uint32_t payload,
                                                uint32_t aux) {
    if (nodes.size() * 2 >= table.size())
      growTable();
    size_t mask = table.size() - 1;
    size_t i = slot(hashLeaf(kind, stack, payload, aux));
    for (;; i = (i + 1) & mask) {
      HashEntry &e = table[i];
      if (e.gen != gen)
        break;
      const NodeT &m = nodes[e.node];
      if (m.kind == kind && m.stack == stack && m.payload == payload &&
          m.aux == aux)
        return e.node;
    }
    uint32_t idx = uint32_t(nodes.size());
    table[i] = {gen, idx};
    pushNode(kind, stack, payload, aux, 0);
    return idx;
  }

  /// \returns instruction \p instr of operands \p ops with a value on
  /// \p stack: an equal one already present if \p share, else a new node.
  LLVM_ATTRIBUTE_ALWAYS_INLINE uint32_t addInstr(uint32_t instr, uint16_t stack,
                                                 const uint32_t *ops,
                                                 uint32_t numOps, bool share) {
    size_t i = 0;
    if (share) {
      if (nodes.size() * 2 >= table.size())
        growTable();
      size_t mask = table.size() - 1;
      i = slot(hashInstr(instr, ops, numOps));
      for (;; i = (i + 1) & mask) {
        HashEntry &e = table[i];
        if (e.gen != gen)
          break;
        const NodeT &m = nodes[e.node];
        if (m.kind == InstrKind && m.payload == instr && m.numOps == numOps &&
            std::equal(ops, ops + numOps, operands.data() + m.aux))
          return e.node;
      }
    }
    uint32_t idx = uint32_t(nodes.size());
    if (share)
      table[i] = {gen, idx};
    uint32_t begin = uint32_t(operands.size());
    for (uint32_t k = 0; k != numOps; ++k)
      operands.push_back(ops[k]);
    pushNode(InstrKind, stack, instr, begin, numOps);
    return idx;
  }

  llvm::ArrayRef<NodeT> getNodes() const { return nodes; }
  llvm::ArrayRef<uint32_t> getOperands() const { return operands; }
  uint32_t size() const { return uint32_t(nodes.size()); }
  const NodeT &operator[](uint32_t n) const { return nodes[n]; }

  /// Dead-code elimination: sets \p mark[n] to \p live for every node the
  /// \p roots reach and to \p dead for the others (operands have lower
  /// indices than their users). \p mark has a slot per node.
  void markLive(llvm::ArrayRef<uint32_t> roots, uint32_t *mark, uint32_t dead,
                uint32_t live) const {
    uint32_t num = uint32_t(nodes.size());
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
    nodes.emplace_back();
    NodeT &n = nodes.back();
    n.kind = kind;
    n.stack = stack;
    n.payload = payload;
    n.aux = aux;
    n.numOps = numOps;
  }
  /// Hashes are multiplied by a Fibonacci constant and indexed by their top
  /// bits (slot()), which mixes every input bit into the index.
  static uint64_t hashInstr(uint32_t instr, const uint32_t *ops,
                            uint32_t numOps) {
    uint64_t h = uint64_t(instr) << 32 | 0x5bd1e995u;
    for (uint32_t i = 0; i != numOps; ++i)
      h = (h ^ ops[i]) * 0x100000001b3ull + (h >> 41);
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
    for (uint32_t n = 0, e = uint32_t(nodes.size()); n != e; ++n) {
      size_t i = slot(hashOf(nodes[n]));
      while (table[i].gen == gen)
        i = (i + 1) & mask;
      table[i] = {gen, n};
    }
  }

  std::vector<NodeT> nodes;
  std::vector<uint32_t> operands;
  std::vector<HashEntry> table;
  uint32_t gen = 0;
  unsigned tableShift = 64;
};

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_EXPRDAG_H
