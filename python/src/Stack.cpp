//===- Stack.cpp - Python binding of the Stack PTX compiler ---------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Thin façades over mmptx/Stack: an instruction set (the generated default
/// tables, or tables built at run time from Python), a register list, a
/// parsed text program, and a compiler (StackPtxContext) with the CPU
/// interpreter. Word arrays are read in place from any 1-D uint64 buffer
/// (NumPy, array.array); sequences of ints are copied. mmptx/stack.py adds
/// the Python conveniences.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Expr/Vocabulary.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInfo.h"
#include "mmptx/Stack/StackInterpreter.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <mutex>
#include <optional>
#include <variant>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::stack;
using namespace mmptx::python;

namespace {

/// Codes of StackError, as mmptx.errors.StackErrorCode numbers them (the C
/// API's values).
enum StackErrc : int {
  InvalidArgument = 1,
  InvalidTables = 2,
  InvalidRegister = 3,
  InvalidRequest = 4,
  InvalidWord = 5,
  ParseError = 8,
};

[[noreturn]] void throwStack(int Code, const std::string &Msg) {
  throw Failure("StackError", Code, Msg);
}

/// An instruction set: a view of the generated default tables, or tables
/// built at run time (owned here).
class PyInstructionSet {
public:
  using StackDecl = std::tuple<std::string, std::string, bool>;
  using ArgDecl = std::tuple<std::string, uint16_t, uint16_t>;
  using InstrDecl = std::tuple<std::string, std::string, std::vector<uint16_t>,
                               std::vector<uint16_t>, uint16_t>;
  using SpecialDecl = std::tuple<std::string, std::string, uint16_t, uint16_t>;

  static PyInstructionSet *getDefault() {
    auto *S = new PyInstructionSet();
    S->Info = getDefaultStackInfo();
    return S;
  }

  PyInstructionSet(const std::vector<StackDecl> &Stacks,
                   const std::vector<ArgDecl> &Args,
                   const std::vector<InstrDecl> &Instrs,
                   const std::vector<SpecialDecl> &Specials)
      : Saver(Alloc) {
    for (const auto &[name, prefix, inl] : Stacks) {
      StackNames.push_back(save(name));
      Prefixes.push_back(save(prefix));
      InlineLits.push_back(inl ? 1 : 0);
    }
    for (const auto &[name, stack, vec] : Args) {
      ArgNames.push_back(save(name));
      ArgTypes.push_back(ArgTypeInfo{stack, vec});
    }
    for (const auto &[name, ptx, ins, outs, minSm] : Instrs) {
      if (ins.size() > 4 || outs.size() > 2)
        throwStack(InvalidTables,
                   "instruction '" + name + "': at most 4 args and 2 rets");
      PtxInstrDesc D = {};
      for (size_t I = 0; I != ins.size(); ++I)
        D.Args[I] = ins[I];
      for (size_t I = 0; I != outs.size(); ++I)
        D.Rets[I] = outs[I];
      D.NumArgs = uint16_t(ins.size());
      D.NumRets = uint16_t(outs.size());
      InstrDescs.push_back(D);
      InstrNames.push_back(save(name));
      InstrPtx.push_back(save(ptx));
      InstrMinSm.push_back(minSm);
    }
    for (const auto &[name, ptx, arg, minSm] : Specials) {
      SpecialDescs.push_back(SpecialRegDesc{arg});
      SpecialNames.push_back(save(name));
      SpecialPtx.push_back(save(ptx));
      SpecialMinSm.push_back(minSm);
    }
    Info.NumStacks = uint32_t(StackNames.size());
    Info.StackNames = StackNames.data();
    Info.LiteralPrefixes = Prefixes.data();
    Info.NumArgTypes = uint32_t(ArgTypes.size());
    Info.ArgTypes = ArgTypes.data();
    Info.ArgTypeNames = ArgNames.data();
    Info.NumInstrs = uint32_t(InstrDescs.size());
    Info.Instrs = InstrDescs.data();
    Info.InstrPtx = InstrPtx.data();
    Info.InstrNames = InstrNames.data();
    Info.NumSpecials = uint32_t(SpecialDescs.size());
    Info.Specials = SpecialDescs.data();
    Info.SpecialPtx = SpecialPtx.data();
    Info.SpecialNames = SpecialNames.data();
    Info.InlineLiterals = InlineLits.data();
    Info.InstrMinSm = InstrMinSm.data();
    Info.SpecialMinSm = SpecialMinSm.data();
    if (llvm::Error E = Info.verify())
      throwError("StackError", InvalidTables, std::move(E));
  }

  nb::list stacks() const {
    nb::list L;
    for (uint32_t I = 0; I != Info.NumStacks; ++I)
      L.append(
          nb::make_tuple(Info.StackNames[I], Info.LiteralPrefixes[I],
                         !Info.InlineLiterals || Info.InlineLiterals[I] != 0));
    return L;
  }
  nb::list argTypeList() const {
    nb::list L;
    for (uint32_t I = 0; I != Info.NumArgTypes; ++I)
      L.append(nb::make_tuple(Info.ArgTypeNames[I], Info.ArgTypes[I].StackIdx,
                              Info.ArgTypes[I].NumVecElems));
    return L;
  }
  nb::list instructions() const {
    nb::list L;
    for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
      const PtxInstrDesc &D = Info.Instrs[I];
      nb::list A, R;
      for (unsigned K = 0; K != D.NumArgs; ++K)
        A.append(D.Args[K]);
      for (unsigned K = 0; K != D.NumRets; ++K)
        R.append(D.Rets[K]);
      L.append(nb::make_tuple(Info.InstrNames[I], Info.InstrPtx[I], A, R,
                              Info.InstrMinSm ? Info.InstrMinSm[I] : 0));
    }
    return L;
  }
  nb::list specialList() const {
    nb::list L;
    for (uint32_t I = 0; I != Info.NumSpecials; ++I)
      L.append(nb::make_tuple(Info.SpecialNames[I], Info.SpecialPtx[I],
                              Info.Specials[I].TheArgType,
                              Info.SpecialMinSm ? Info.SpecialMinSm[I] : 0));
    return L;
  }

  StackInfo Info = {};

private:
  PyInstructionSet() : Saver(Alloc) {}
  const char *save(const std::string &S) { return Saver.save(S).data(); }

  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver;
  std::vector<const char *> StackNames, Prefixes, ArgNames, InstrNames,
      InstrPtx, SpecialNames, SpecialPtx;
  std::vector<ArgTypeInfo> ArgTypes;
  std::vector<PtxInstrDesc> InstrDescs;
  std::vector<SpecialRegDesc> SpecialDescs;
  std::vector<uint8_t> InlineLits;
  std::vector<uint16_t> InstrMinSm, SpecialMinSm;
};

RegKind parseKind(const std::string &K) {
  if (K == "in")
    return RegKind::In;
  if (K == "out")
    return RegKind::Out;
  if (K == "mod")
    return RegKind::Mod;
  throwStack(InvalidRegister,
             "register kind '" + K + "' is not one of in, out, mod");
}

const char *kindName(RegKind K) {
  return K == RegKind::In ? "in" : K == RegKind::Out ? "out" : "mod";
}

/// The registers a stub reads and writes: (name, stack index, kind).
class PyRegisters {
public:
  using Decl = std::tuple<std::string, uint16_t, std::string>;

  PyRegisters(const PyInstructionSet &Set, const std::vector<Decl> &Decls) {
    Names.reserve(Decls.size());
    for (const auto &[name, stack, kind] : Decls) {
      if (!isRegisterName(name))
        throwStack(InvalidRegister,
                   "register name '" + name + "' is not a PTX identifier");
      if (isReservedRegisterName(name))
        throwStack(InvalidRegister,
                   "register name '" + name +
                       "' is reserved for the "
                       "compiler's temporaries (_s<stack>_<n>)");
      if (stack >= Set.Info.NumStacks)
        throwStack(InvalidRegister, "register '" + name + "': stack " +
                                        std::to_string(stack) +
                                        " is out of range");
      Names.push_back(name);
      Regs.push_back(Register{llvm::StringRef(), stack, parseKind(kind)});
    }
    for (size_t I = 0; I != Regs.size(); ++I) {
      Regs[I].Name = Names[I];
      Index.try_emplace(Names[I], uint32_t(I));
    }
  }

  /// \p Reqs (a sequence of register indices or names of these registers)
  /// as indices, without a Python-level loop.
  void resolve(nb::handle Reqs, llvm::SmallVectorImpl<uint32_t> &Out) const {
    PyObject *Seq = PySequence_Fast(Reqs.ptr(), "requests must be a sequence "
                                                "of register indices or names");
    if (!Seq)
      throw nb::python_error();
    nb::object Hold = nb::steal(Seq);
    // A list or a tuple now; the item calls are the stable ABI's.
    Py_ssize_t N = PySequence_Size(Seq);
    for (Py_ssize_t I = 0; I != N; ++I) {
      nb::object Item = nb::steal(PySequence_GetItem(Seq, I));
      if (!Item.is_valid())
        throw nb::python_error();
      PyObject *O = Item.ptr();
      if (PyLong_Check(O)) {
        unsigned long V = PyLong_AsUnsignedLong(O);
        if ((V == (unsigned long)-1 && PyErr_Occurred()) || V > UINT32_MAX) {
          PyErr_Clear();
          throwStack(InvalidRequest, "request " + std::to_string(I) +
                                         " is not a register index in "
                                         "[0, 2**32)");
        }
        Out.push_back(uint32_t(V));
        continue;
      }
      Py_ssize_t Len = 0;
      const char *Name =
          PyUnicode_Check(O) ? PyUnicode_AsUTF8AndSize(O, &Len) : nullptr;
      if (!Name) {
        PyErr_Clear();
        throw nb::type_error("requests are register indices or names");
      }
      auto It = Index.find(llvm::StringRef(Name, size_t(Len)));
      if (It == Index.end())
        throwStack(InvalidRequest,
                   "unknown register '" + std::string(Name, Len) + "'");
      Out.push_back(It->second);
    }
    // The C API's verdicts: an index past the registers, or an in register
    // (which the stub may not write), is no request.
    for (size_t I = 0; I != Out.size(); ++I) {
      if (Out[I] >= Regs.size())
        throwStack(InvalidRequest, "request " + std::to_string(I) +
                                       " names register " +
                                       std::to_string(Out[I]) + " of " +
                                       std::to_string(Regs.size()));
      if (Regs[Out[I]].Kind == RegKind::In)
        throwStack(InvalidRequest,
                   "request " + std::to_string(I) + " names '" +
                       std::string(Regs[Out[I]].Name) +
                       "', an in register, which the stub may not write");
    }
  }

  nb::list list() const {
    nb::list L;
    for (const Register &R : Regs)
      L.append(
          nb::make_tuple(std::string(R.Name), R.StackIdx, kindName(R.Kind)));
    return L;
  }

  std::vector<std::string> Names;
  std::vector<Register> Regs;
  llvm::StringMap<uint32_t> Index;
};

/// A program parsed from the text form.
class PyProgram {
public:
  explicit PyProgram(StackProgram P) : Prog(std::move(P)) {
    Regs = Prog.getRegisters();
  }
  nb::list registerList() const {
    nb::list L;
    for (const RegisterDecl &R : Prog.Registers)
      L.append(nb::make_tuple(R.Name, R.StackIdx, kindName(R.Kind)));
    return L;
  }
  StackProgram Prog;
  std::vector<Register> Regs;
};

/// The compiler: one StackPtxContext behind a mutex, so Python threads may
/// share it (a context itself is single-threaded).
class PyCompiler {
public:
  PyCompiler(const PyInstructionSet &Set, StackPtxOptions Opts)
      : Ctx(Set.Info, Opts) {}

  nb::str compile(nb::handle WordSeq, const PyRegisters &Regs,
                  nb::handle RequestSeq, nb::handle RoutineSeq,
                  const PyRegisters *Zero) {
    Words W(WordSeq);
    Routines R(RoutineSeq);
    llvm::SmallVector<uint32_t, 8> Requests;
    Regs.resolve(RequestSeq, Requests);
    Program P{W.Ref, R.Refs};
    std::lock_guard<std::mutex> Lock(Mu);
    return toStr(Ctx.compile(P, Regs.Regs, Requests,
                             Zero ? llvm::ArrayRef<Register>(Zero->Regs)
                                  : llvm::ArrayRef<Register>()));
  }

  nb::str compileProgram(const PyProgram &Prog) {
    std::lock_guard<std::mutex> Lock(Mu);
    return toStr(
        Ctx.compile(Prog.Prog.getProgram(), Prog.Regs, Prog.Prog.Requests));
  }

  /// Compiles \p Programs (a list of word arrays) or, when \p Offsets is
  /// given, the slices words[offsets[i]:offsets[i+1]] of one array, all with
  /// the same registers and requests. Runs without the GIL.
  nb::list compileBatch(nb::handle Programs, nb::handle Offsets,
                        const PyRegisters &Regs,
                        const std::vector<uint32_t> &Requests) {
    Batch B(Programs, Offsets);
    // Kept per thread between batches: a fresh multi-megabyte buffer each
    // time costs more in page faults than the strings made from it.
    static thread_local std::string Text;
    std::vector<size_t> Ends;
    Text.clear();
    runBatch(B, Regs, Requests, &Text, Ends);
    auto Trim = llvm::make_scope_exit([] {
      if (Text.capacity() > (size_t(64) << 20))
        std::string().swap(Text);
    });
    nb::list Out = nb::steal<nb::list>(PyList_New(Py_ssize_t(Ends.size())));
    size_t Begin = 0;
    for (size_t I = 0; I != Ends.size(); ++I) {
      PyObject *S = PyUnicode_FromStringAndSize(Text.data() + Begin,
                                                Py_ssize_t(Ends[I] - Begin));
      if (!S)
        throw nb::python_error();
      PyList_SetItem(Out.ptr(), Py_ssize_t(I), S); // steals S
      Begin = Ends[I];
    }
    return Out;
  }

  /// Compiles like compileBatch but keeps no text: \returns the total stub
  /// size. The C++ cost of a batch, for overhead measurements.
  size_t measureBatch(nb::handle Programs, nb::handle Offsets,
                      const PyRegisters &Regs,
                      const std::vector<uint32_t> &Requests) {
    Batch B(Programs, Offsets);
    std::vector<size_t> Sizes;
    runBatch(B, Regs, Requests, nullptr, Sizes);
    size_t Total = 0;
    for (size_t N : Sizes)
      Total += N;
    return Total;
  }

  std::vector<uint64_t> interpret(nb::handle WordSeq, const PyRegisters &Regs,
                                  const std::vector<uint32_t> &Requests,
                                  const std::vector<uint64_t> &Inputs,
                                  nb::handle RoutineSeq,
                                  const SpecialValues::List &Specials) {
    Words W(WordSeq);
    Routines R(RoutineSeq);
    SpecialValues Sv(Specials);
    std::lock_guard<std::mutex> Lock(Mu);
    return check(interpretStackPtx(
        Ctx, Program{W.Ref, R.Refs}, Regs.Regs, Requests, Inputs,
        [&](uint32_t S, unsigned E) { return Sv.get(S, E); }));
  }

  using InputRows =
      nb::ndarray<const uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
  using OutputRows = nb::ndarray<nb::numpy, uint64_t, nb::ndim<2>>;

  /// Interprets the program once per row of \p Inputs (rows x registers,
  /// bit patterns); \returns rows x requests.
  OutputRows interpretRows(nb::handle WordSeq, const PyRegisters &Regs,
                           const std::vector<uint32_t> &Requests,
                           InputRows Inputs, nb::handle RoutineSeq,
                           const SpecialValues::List &Specials) {
    Words W(WordSeq);
    Routines R(RoutineSeq);
    SpecialValues Sv(Specials);
    auto Special = [&](uint32_t S, unsigned E) { return Sv.get(S, E); };
    size_t Rows = Inputs.shape(0), Cols = Inputs.shape(1);
    auto *Out = new uint64_t[Rows * Requests.size()];
    nb::capsule Owner(Out, [](void *P) noexcept { delete[](uint64_t *) P; });
    std::string ErrorText;
    {
      nb::gil_scoped_release Release;
      std::lock_guard<std::mutex> Lock(Mu);
      Program P{W.Ref, R.Refs};
      for (size_t I = 0; I != Rows; ++I) {
        llvm::Expected<std::vector<uint64_t>> V = interpretStackPtx(
            Ctx, P, Regs.Regs, Requests,
            llvm::ArrayRef<uint64_t>(Inputs.data() + I * Cols, Cols), Special);
        if (!V) {
          ErrorText = llvm::toString(V.takeError());
          break;
        }
        std::copy(V->begin(), V->end(), Out + I * Requests.size());
      }
    }
    if (!ErrorText.empty())
      throwStack(InvalidWord, ErrorText);
    return OutputRows(Out, {Rows, Requests.size()}, Owner);
  }

  nb::dict stats() {
    std::lock_guard<std::mutex> Lock(Mu);
    const StackPtxStats &S = Ctx.getStats();
    nb::dict D;
    D["executed_words"] = S.ExecutedWords;
    D["num_nodes"] = S.NumNodes;
    D["emitted_instrs"] = S.EmittedInstrs;
    D["ignored_words"] = S.IgnoredWords;
    D["no_op_words"] = S.NoOpWords;
    D["dropped_pushes"] = S.DroppedPushes;
    D["refused_calls"] = S.RefusedCalls;
    D["unsatisfied_requests"] = S.UnsatisfiedRequests;
    D["zeroed_requests"] = S.ZeroedRequests;
    D["hit_execution_limit"] = S.HitExecutionLimit;
    D["hit_node_limit"] = S.HitNodeLimit;
    return D;
  }

  StackPtxContext Ctx;
  std::mutex Mu;

private:
  /// The programs of a batch, borrowed or copied like Words.
  struct Batch {
    std::vector<Words> Owned;
    std::vector<llvm::ArrayRef<uint64_t>> Progs;

    Batch(nb::handle Programs, nb::handle Offsets) {
      if (Offsets.is_none()) {
        Owned.reserve(nb::len(Programs));
        for (nb::handle H : nb::iter(Programs))
          Owned.emplace_back(H);
        for (const Words &W : Owned)
          Progs.push_back(W.Ref);
        return;
      }
      Owned.emplace_back(Programs);
      llvm::ArrayRef<uint64_t> All = Owned.back().Ref;
      std::vector<uint64_t> Offs;
      if (!nb::try_cast(Offsets, Offs))
        throw nb::type_error("offsets must be a sequence of ints");
      for (size_t I = 0; I + 1 < Offs.size(); ++I) {
        if (Offs[I] > Offs[I + 1] || Offs[I + 1] > All.size())
          throwStack(InvalidArgument, "offsets must be non-decreasing and "
                                      "at most len(words)");
        Progs.push_back(All.slice(Offs[I], Offs[I + 1] - Offs[I]));
      }
    }
  };

  /// Compiles every program of \p B without the GIL, appending the stubs
  /// to \p Text (when not null) and their ends (else their sizes) to
  /// \p Ends.
  void runBatch(const Batch &B, const PyRegisters &Regs,
                const std::vector<uint32_t> &Requests, std::string *Text,
                std::vector<size_t> &Ends) {
    Ends.reserve(B.Progs.size());
    std::string ErrorText;
    {
      nb::gil_scoped_release Release;
      std::lock_guard<std::mutex> Lock(Mu);
      for (size_t I = 0; I != B.Progs.size(); ++I) {
        llvm::Expected<llvm::StringRef> S =
            Ctx.compile(Program{B.Progs[I], {}}, Regs.Regs, Requests);
        if (!S) {
          ErrorText = "program " + std::to_string(I) + ": " +
                      llvm::toString(S.takeError());
          break;
        }
        if (Text) {
          Text->append(S->data(), S->size());
          Ends.push_back(Text->size());
        } else {
          Ends.push_back(S->size());
        }
      }
    }
    if (!ErrorText.empty())
      throwStack(InvalidWord, ErrorText);
  }

  static nb::str toStr(llvm::Expected<llvm::StringRef> S) {
    if (!S)
      throwError("StackError", InvalidWord, S.takeError());
    return nb::str(S->data(), S->size());
  }
  template <typename T> static T check(llvm::Expected<T> V) {
    if (!V)
      throwError("StackError", InvalidWord, V.takeError());
    return std::move(*V);
  }
};

/// mmptx.stack.Compiler's keyword options: each one's keyword, the name
/// checkStackPtxOptions gives the field in its messages, and the field.
struct StackOptionField {
  const char *Keyword;
  const char *Field;
  std::variant<bool StackPtxOptions::*, uint32_t StackPtxOptions::*,
               uint64_t StackPtxOptions::*>
      Member;
};
const StackOptionField StackOptionFields[] = {
    {"target_sm", "targetSm", &StackPtxOptions::TargetSm},
    {"strict", "strict", &StackPtxOptions::Strict},
    {"zero_unsatisfied", "zeroUnsatisfied", &StackPtxOptions::ZeroUnsatisfied},
    {"stack_size", "stackSize", &StackPtxOptions::StackSize},
    {"max_nodes", "maxNodes", &StackPtxOptions::MaxNodes},
    {"max_frame_depth", "maxFrameDepth", &StackPtxOptions::MaxFrameDepth},
    {"store_size", "storeSize", &StackPtxOptions::StoreSize},
    {"execution_limit", "executionLimit", &StackPtxOptions::ExecutionLimit}};

/// The Python name of StackPtxOptions field \p Field, for messages.
llvm::StringRef pythonOptionName(llvm::StringRef Field) {
  for (const StackOptionField &F : StackOptionFields)
    if (Field == F.Field)
      return F.Keyword;
  return Field;
}

/// \p O by the names of mmptx.stack.Compiler's keywords.
nb::dict optionsDict(const StackPtxOptions &O) {
  nb::dict D;
  for (const StackOptionField &F : StackOptionFields)
    std::visit([&](auto Member) { D[F.Keyword] = O.*Member; }, F.Member);
  return D;
}

PyProgram *parse(const PyInstructionSet &Set, const std::string &Text,
                 const std::string &Name) {
  llvm::Expected<StackProgram> P = parseStackProgram(Text, Set.Info, Name);
  if (!P)
    throwError("StackError", ParseError, P.takeError());
  return new PyProgram(std::move(*P));
}

} // namespace

void mmptx::python::bindStack(nb::module_ &M) {
  nb::class_<PyInstructionSet>(
      M, "InstructionSet",
      "An instruction set: the generated default tables, or tables built "
      "from Python (see mmptx.stack.InstructionSet).")
      .def(nb::init<const std::vector<PyInstructionSet::StackDecl> &,
                    const std::vector<PyInstructionSet::ArgDecl> &,
                    const std::vector<PyInstructionSet::InstrDecl> &,
                    const std::vector<PyInstructionSet::SpecialDecl> &>(),
           nb::arg("stacks"), nb::arg("arg_types"), nb::arg("instructions"),
           nb::arg("specials"))
      .def_static("default", &PyInstructionSet::getDefault,
                  "The tables of td/StackInstrs.td.")
      .def_prop_ro("stacks", &PyInstructionSet::stacks,
                   "(name, literal prefix, inline literals) per stack.")
      .def_prop_ro("arg_types", &PyInstructionSet::argTypeList,
                   "(name, stack index, vector elements) per argument type.")
      .def_prop_ro("instructions", &PyInstructionSet::instructions,
                   "(name, ptx, argument types, result types, min sm) per "
                   "instruction.")
      .def_prop_ro("specials", &PyInstructionSet::specialList,
                   "(name, ptx, argument type, min sm) per special "
                   "register.")
      .def(
          "find_stack",
          [](const PyInstructionSet &S, const std::string &N) {
            return S.Info.findStack(N);
          },
          nb::arg("name"), "The index of stack `name`, or -1.")
      .def(
          "find_instruction",
          [](const PyInstructionSet &S, const std::string &N) {
            return S.Info.findInstr(N);
          },
          nb::arg("name"), "The index of instruction `name`, or -1.")
      .def(
          "find_special",
          [](const PyInstructionSet &S, const std::string &N) {
            return S.Info.findSpecial(N);
          },
          nb::arg("name"), "The index of special register `name`, or -1.")
      .def(
          "vocabulary",
          [](const PyInstructionSet &S, const std::string &N) {
            llvm::Expected<expr::Vocabulary> V = expr::parseVocabularyName(N);
            if (!V)
              throwStack(InvalidArgument, llvm::toString(V.takeError()));
            return expr::getVocabularyInstrs(S.Info, *V);
          },
          nb::arg("name"),
          "The instruction indices of vocabulary `name` (all, "
          "fast-compile).");

  nb::class_<PyRegisters>(M, "Registers",
                          "The registers a stub reads and writes.")
      .def(nb::init<const PyInstructionSet &,
                    const std::vector<PyRegisters::Decl> &>(),
           nb::arg("instruction_set"), nb::arg("registers"))
      .def("to_list", &PyRegisters::list,
           "The registers as (name, stack index, kind).")
      .def("__len__", [](const PyRegisters &R) { return R.Regs.size(); });

  nb::class_<PyProgram>(M, "Program", "A program parsed from the text form.")
      .def_prop_ro("main", [](const PyProgram &P) { return P.Prog.Main; })
      .def_prop_ro("routines",
                   [](const PyProgram &P) { return P.Prog.Routines; })
      .def_prop_ro("routine_names",
                   [](const PyProgram &P) { return P.Prog.RoutineNames; })
      .def_prop_ro("requests",
                   [](const PyProgram &P) { return P.Prog.Requests; })
      .def_prop_ro("registers", &PyProgram::registerList)
      .def(
          "format",
          [](const PyProgram &P, const PyInstructionSet &Set) {
            std::string S;
            llvm::raw_string_ostream Os(S);
            printStackProgram(Os, P.Prog, Set.Info);
            return Os.str();
          },
          "The canonical text form.");

  M.def(
      "default_options", [] { return optionsDict(StackPtxOptions()); },
      "The compiler's default options (StackPtxOptions), by keyword.");

  M.def("parse", &parse, nb::arg("instruction_set"), nb::arg("text"),
        nb::arg("name") = "<stack>", nb::keep_alive<0, 1>(),
        "Parses the text form; errors are located in `name`.");

  nb::class_<PyCompiler>(
      M, "Compiler",
      "A Stack PTX compiler (StackPtxOptions); calls are serialised.")
      .def(
          "__init__",
          [](PyCompiler *Self, const PyInstructionSet &Set,
             std::optional<uint32_t> TargetSm, std::optional<bool> Strict,
             std::optional<bool> ZeroUnsatisfied,
             std::optional<uint32_t> StackSize,
             std::optional<uint32_t> MaxNodes,
             std::optional<uint32_t> MaxFrameDepth,
             std::optional<uint32_t> StoreSize,
             std::optional<uint64_t> ExecutionLimit) {
            // None: the compiler's default (StackPtxOptions), the one
            // place defaults are written.
            StackPtxOptions O;
            O.TargetSm = TargetSm.value_or(O.TargetSm);
            O.Strict = Strict.value_or(O.Strict);
            O.ZeroUnsatisfied = ZeroUnsatisfied.value_or(O.ZeroUnsatisfied);
            O.StackSize = StackSize.value_or(O.StackSize);
            O.MaxNodes = MaxNodes.value_or(O.MaxNodes);
            O.MaxFrameDepth = MaxFrameDepth.value_or(O.MaxFrameDepth);
            O.StoreSize = StoreSize.value_or(O.StoreSize);
            O.ExecutionLimit = ExecutionLimit.value_or(O.ExecutionLimit);
            if (llvm::Error E = checkStackPtxOptions(O, pythonOptionName))
              throwError("StackError", InvalidArgument, std::move(E));
            new (Self) PyCompiler(Set, O);
          },
          nb::arg("instruction_set"), nb::arg("target_sm").none() = nb::none(),
          nb::arg("strict").none() = nb::none(),
          nb::arg("zero_unsatisfied").none() = nb::none(),
          nb::arg("stack_size").none() = nb::none(),
          nb::arg("max_nodes").none() = nb::none(),
          nb::arg("max_frame_depth").none() = nb::none(),
          nb::arg("store_size").none() = nb::none(),
          nb::arg("execution_limit").none() = nb::none(),
          nb::keep_alive<1, 2>(),
          "A compiler for `instruction_set`; an option left None takes the "
          "compiler's default (default_options()).")
      .def_prop_ro(
          "options",
          [](const PyCompiler &C) { return optionsDict(C.Ctx.getOptions()); },
          "The options in effect, by name.")
      .def("compile", &PyCompiler::compile, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"),
           nb::arg("routines") = nb::none(),
           nb::arg("zero_registers").none() = nb::none(),
           "The stub of `words` over `registers`, writing `requests`.")
      .def("compile_program", &PyCompiler::compileProgram, nb::arg("program"),
           "The stub of a parsed program (its registers and requests).")
      .def("compile_batch", &PyCompiler::compileBatch, nb::arg("programs"),
           nb::arg("offsets").none(), nb::arg("registers"), nb::arg("requests"),
           "The stubs of many programs, without the GIL.")
      .def("measure_batch", &PyCompiler::measureBatch, nb::arg("programs"),
           nb::arg("offsets").none(), nb::arg("registers"), nb::arg("requests"),
           "Compiles like compile_batch; returns the total stub size.")
      .def("interpret", &PyCompiler::interpret, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"), nb::arg("inputs"),
           nb::arg("routines") = nb::none(),
           nb::arg("specials") = SpecialValues::List(),
           "Runs the program on the CPU: one bit pattern per request.")
      .def("interpret_rows", &PyCompiler::interpretRows, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"), nb::arg("inputs"),
           nb::arg("routines") = nb::none(),
           nb::arg("specials") = SpecialValues::List(),
           "Runs the program once per row of `inputs` (rows x registers).")
      .def_prop_ro("stats", &PyCompiler::stats,
                   "What the last compile did, including limits it hit.")
      .def_prop_ro(
          "target_sm", [](const PyCompiler &C) { return C.Ctx.getTargetSm(); },
          "The sm_XX the stubs are for (0: any).");
}
