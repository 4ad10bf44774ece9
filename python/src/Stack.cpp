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
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <mutex>

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

[[noreturn]] void throwStack(int code, const std::string &msg) {
  throw Failure("StackError", code, msg);
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
    auto *s = new PyInstructionSet();
    s->info = getDefaultStackInfo();
    return s;
  }

  PyInstructionSet(const std::vector<StackDecl> &stacks,
                   const std::vector<ArgDecl> &args,
                   const std::vector<InstrDecl> &instrs,
                   const std::vector<SpecialDecl> &specials)
      : saver(alloc) {
    for (const auto &[name, prefix, inl] : stacks) {
      stackNames.push_back(save(name));
      prefixes.push_back(save(prefix));
      inlineLits.push_back(inl ? 1 : 0);
    }
    for (const auto &[name, stack, vec] : args) {
      argNames.push_back(save(name));
      argTypes.push_back(ArgTypeInfo{stack, vec});
    }
    for (const auto &[name, ptx, ins, outs, minSm] : instrs) {
      if (ins.size() > 4 || outs.size() > 2)
        throwStack(InvalidTables,
                   "instruction '" + name + "': at most 4 args and 2 rets");
      PtxInstrDesc d = {};
      for (size_t i = 0; i != ins.size(); ++i)
        d.args[i] = ins[i];
      for (size_t i = 0; i != outs.size(); ++i)
        d.rets[i] = outs[i];
      d.numArgs = uint16_t(ins.size());
      d.numRets = uint16_t(outs.size());
      instrDescs.push_back(d);
      instrNames.push_back(save(name));
      instrPtx.push_back(save(ptx));
      instrMinSm.push_back(minSm);
    }
    for (const auto &[name, ptx, arg, minSm] : specials) {
      specialDescs.push_back(SpecialRegDesc{arg});
      specialNames.push_back(save(name));
      specialPtx.push_back(save(ptx));
      specialMinSm.push_back(minSm);
    }
    info.numStacks = uint32_t(stackNames.size());
    info.stackNames = stackNames.data();
    info.literalPrefixes = prefixes.data();
    info.numArgTypes = uint32_t(argTypes.size());
    info.argTypes = argTypes.data();
    info.argTypeNames = argNames.data();
    info.numInstrs = uint32_t(instrDescs.size());
    info.instrs = instrDescs.data();
    info.instrPtx = instrPtx.data();
    info.instrNames = instrNames.data();
    info.numSpecials = uint32_t(specialDescs.size());
    info.specials = specialDescs.data();
    info.specialPtx = specialPtx.data();
    info.specialNames = specialNames.data();
    info.inlineLiterals = inlineLits.data();
    info.instrMinSm = instrMinSm.data();
    info.specialMinSm = specialMinSm.data();
    if (llvm::Error e = info.verify())
      throwError("StackError", InvalidTables, std::move(e));
  }

  nb::list stacks() const {
    nb::list l;
    for (uint32_t i = 0; i != info.numStacks; ++i)
      l.append(
          nb::make_tuple(info.stackNames[i], info.literalPrefixes[i],
                         !info.inlineLiterals || info.inlineLiterals[i] != 0));
    return l;
  }
  nb::list argTypeList() const {
    nb::list l;
    for (uint32_t i = 0; i != info.numArgTypes; ++i)
      l.append(nb::make_tuple(info.argTypeNames[i], info.argTypes[i].stackIdx,
                              info.argTypes[i].numVecElems));
    return l;
  }
  nb::list instructions() const {
    nb::list l;
    for (uint32_t i = 0; i != info.numInstrs; ++i) {
      const PtxInstrDesc &d = info.instrs[i];
      nb::list a, r;
      for (unsigned k = 0; k != d.numArgs; ++k)
        a.append(d.args[k]);
      for (unsigned k = 0; k != d.numRets; ++k)
        r.append(d.rets[k]);
      l.append(nb::make_tuple(info.instrNames[i], info.instrPtx[i], a, r,
                              info.instrMinSm ? info.instrMinSm[i] : 0));
    }
    return l;
  }
  nb::list specialList() const {
    nb::list l;
    for (uint32_t i = 0; i != info.numSpecials; ++i)
      l.append(nb::make_tuple(info.specialNames[i], info.specialPtx[i],
                              info.specials[i].argType,
                              info.specialMinSm ? info.specialMinSm[i] : 0));
    return l;
  }

  StackInfo info = {};

private:
  PyInstructionSet() : saver(alloc) {}
  const char *save(const std::string &s) { return saver.save(s).data(); }

  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver;
  std::vector<const char *> stackNames, prefixes, argNames, instrNames,
      instrPtx, specialNames, specialPtx;
  std::vector<ArgTypeInfo> argTypes;
  std::vector<PtxInstrDesc> instrDescs;
  std::vector<SpecialRegDesc> specialDescs;
  std::vector<uint8_t> inlineLits;
  std::vector<uint16_t> instrMinSm, specialMinSm;
};

RegKind parseKind(const std::string &k) {
  if (k == "in")
    return RegKind::In;
  if (k == "out")
    return RegKind::Out;
  if (k == "mod")
    return RegKind::Mod;
  throwStack(InvalidRegister,
             "register kind '" + k + "' is not one of in, out, mod");
}

const char *kindName(RegKind k) {
  return k == RegKind::In ? "in" : k == RegKind::Out ? "out" : "mod";
}

/// The registers a stub reads and writes: (name, stack index, kind).
class PyRegisters {
public:
  using Decl = std::tuple<std::string, uint16_t, std::string>;

  PyRegisters(const PyInstructionSet &set, const std::vector<Decl> &decls) {
    names.reserve(decls.size());
    for (const auto &[name, stack, kind] : decls) {
      if (!isRegisterName(name))
        throwStack(InvalidRegister,
                   "register name '" + name + "' is not a PTX identifier");
      if (isReservedRegisterName(name))
        throwStack(InvalidRegister,
                   "register name '" + name +
                       "' is reserved for the "
                       "compiler's temporaries (_s<stack>_<n>)");
      if (stack >= set.info.numStacks)
        throwStack(InvalidRegister, "register '" + name + "': stack " +
                                        std::to_string(stack) +
                                        " is out of range");
      names.push_back(name);
      regs.push_back(Register{llvm::StringRef(), stack, parseKind(kind)});
    }
    for (size_t i = 0; i != regs.size(); ++i) {
      regs[i].name = names[i];
      index.try_emplace(names[i], uint32_t(i));
    }
  }

  /// \p reqs (a sequence of register indices or names of these registers)
  /// as indices, without a Python-level loop.
  void resolve(nb::handle reqs, llvm::SmallVectorImpl<uint32_t> &out) const {
    PyObject *seq = PySequence_Fast(reqs.ptr(), "requests must be a sequence "
                                                "of register indices or names");
    if (!seq)
      throw nb::python_error();
    nb::object hold = nb::steal(seq);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i != n; ++i) {
      PyObject *o = items[i];
      if (PyLong_Check(o)) {
        unsigned long v = PyLong_AsUnsignedLong(o);
        if ((v == (unsigned long)-1 && PyErr_Occurred()) || v > UINT32_MAX) {
          PyErr_Clear();
          throwStack(InvalidRequest, "request " + std::to_string(i) +
                                         " is not a register index in "
                                         "[0, 2**32)");
        }
        out.push_back(uint32_t(v));
        continue;
      }
      Py_ssize_t len = 0;
      const char *name =
          PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len) : nullptr;
      if (!name) {
        PyErr_Clear();
        throw nb::type_error("requests are register indices or names");
      }
      auto it = index.find(llvm::StringRef(name, size_t(len)));
      if (it == index.end())
        throwStack(InvalidRequest,
                   "unknown register '" + std::string(name, len) + "'");
      out.push_back(it->second);
    }
  }

  nb::list list() const {
    nb::list l;
    for (const Register &r : regs)
      l.append(
          nb::make_tuple(std::string(r.name), r.stackIdx, kindName(r.kind)));
    return l;
  }

  std::vector<std::string> names;
  std::vector<Register> regs;
  llvm::StringMap<uint32_t> index;
};

/// A program parsed from the text form.
class PyProgram {
public:
  explicit PyProgram(StackProgram p) : prog(std::move(p)) {
    regs = prog.getRegisters();
  }
  nb::list registerList() const {
    nb::list l;
    for (const RegisterDecl &r : prog.registers)
      l.append(nb::make_tuple(r.name, r.stackIdx, kindName(r.kind)));
    return l;
  }
  StackProgram prog;
  std::vector<Register> regs;
};

/// The compiler: one StackPtxContext behind a mutex, so Python threads may
/// share it (a context itself is single-threaded).
class PyCompiler {
public:
  PyCompiler(const PyInstructionSet &set, StackPtxOptions opts)
      : ctx(set.info, opts) {}

  nb::str compile(nb::handle words, const PyRegisters &regs,
                  nb::handle requestSeq, nb::handle routines,
                  const PyRegisters *zero) {
    Words w(words);
    Routines r(routines);
    llvm::SmallVector<uint32_t, 8> requests;
    regs.resolve(requestSeq, requests);
    Program p{w.ref, r.refs};
    std::lock_guard<std::mutex> lock(mu);
    return toStr(ctx.compile(p, regs.regs, requests,
                             zero ? llvm::ArrayRef<Register>(zero->regs)
                                  : llvm::ArrayRef<Register>()));
  }

  nb::str compileProgram(const PyProgram &prog) {
    std::lock_guard<std::mutex> lock(mu);
    return toStr(
        ctx.compile(prog.prog.getProgram(), prog.regs, prog.prog.requests));
  }

  /// Compiles \p programs (a list of word arrays) or, when \p offsets is
  /// given, the slices words[offsets[i]:offsets[i+1]] of one array, all with
  /// the same registers and requests. Runs without the GIL.
  nb::list compileBatch(nb::handle programs, nb::handle offsets,
                        const PyRegisters &regs,
                        const std::vector<uint32_t> &requests) {
    Batch b(programs, offsets);
    // Kept per thread between batches: a fresh multi-megabyte buffer each
    // time costs more in page faults than the strings made from it.
    static thread_local std::string text;
    std::vector<size_t> ends;
    text.clear();
    runBatch(b, regs, requests, &text, ends);
    auto trim = llvm::make_scope_exit([] {
      if (text.capacity() > (size_t(64) << 20))
        std::string().swap(text);
    });
    nb::list out = nb::steal<nb::list>(PyList_New(Py_ssize_t(ends.size())));
    size_t begin = 0;
    for (size_t i = 0; i != ends.size(); ++i) {
      PyObject *s = PyUnicode_FromStringAndSize(text.data() + begin,
                                                Py_ssize_t(ends[i] - begin));
      if (!s)
        throw nb::python_error();
      PyList_SET_ITEM(out.ptr(), Py_ssize_t(i), s);
      begin = ends[i];
    }
    return out;
  }

  /// Compiles like compileBatch but keeps no text: \returns the total stub
  /// size. The C++ cost of a batch, for overhead measurements.
  size_t measureBatch(nb::handle programs, nb::handle offsets,
                      const PyRegisters &regs,
                      const std::vector<uint32_t> &requests) {
    Batch b(programs, offsets);
    std::vector<size_t> sizes;
    runBatch(b, regs, requests, nullptr, sizes);
    size_t total = 0;
    for (size_t n : sizes)
      total += n;
    return total;
  }

  std::vector<uint64_t> interpret(nb::handle words, const PyRegisters &regs,
                                  const std::vector<uint32_t> &requests,
                                  const std::vector<uint64_t> &inputs,
                                  nb::handle routines,
                                  const SpecialValues::List &specials) {
    Words w(words);
    Routines r(routines);
    SpecialValues sv(specials);
    std::lock_guard<std::mutex> lock(mu);
    return check(interpretStackPtx(
        ctx, Program{w.ref, r.refs}, regs.regs, requests, inputs,
        [&](uint32_t s, unsigned e) { return sv.get(s, e); }));
  }

  using InputRows =
      nb::ndarray<const uint64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
  using OutputRows = nb::ndarray<nb::numpy, uint64_t, nb::ndim<2>>;

  /// Interprets the program once per row of \p inputs (rows x registers,
  /// bit patterns); \returns rows x requests.
  OutputRows interpretRows(nb::handle words, const PyRegisters &regs,
                           const std::vector<uint32_t> &requests,
                           InputRows inputs, nb::handle routines,
                           const SpecialValues::List &specials) {
    Words w(words);
    Routines r(routines);
    SpecialValues sv(specials);
    auto special = [&](uint32_t s, unsigned e) { return sv.get(s, e); };
    size_t rows = inputs.shape(0), cols = inputs.shape(1);
    auto *out = new uint64_t[rows * requests.size()];
    nb::capsule owner(out, [](void *p) noexcept { delete[](uint64_t *) p; });
    std::string error;
    {
      nb::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu);
      Program p{w.ref, r.refs};
      for (size_t i = 0; i != rows; ++i) {
        llvm::Expected<std::vector<uint64_t>> v = interpretStackPtx(
            ctx, p, regs.regs, requests,
            llvm::ArrayRef<uint64_t>(inputs.data() + i * cols, cols), special);
        if (!v) {
          error = llvm::toString(v.takeError());
          break;
        }
        std::copy(v->begin(), v->end(), out + i * requests.size());
      }
    }
    if (!error.empty())
      throwStack(InvalidWord, error);
    return OutputRows(out, {rows, requests.size()}, owner);
  }

  nb::dict stats() {
    std::lock_guard<std::mutex> lock(mu);
    const StackPtxStats &s = ctx.getStats();
    nb::dict d;
    d["executed_words"] = s.executedWords;
    d["num_nodes"] = s.numNodes;
    d["emitted_instrs"] = s.emittedInstrs;
    d["ignored_words"] = s.ignoredWords;
    d["no_op_words"] = s.noOpWords;
    d["dropped_pushes"] = s.droppedPushes;
    d["refused_calls"] = s.refusedCalls;
    d["unsatisfied_requests"] = s.unsatisfiedRequests;
    d["zeroed_requests"] = s.zeroedRequests;
    d["hit_execution_limit"] = s.hitExecutionLimit;
    d["hit_node_limit"] = s.hitNodeLimit;
    return d;
  }

  StackPtxContext ctx;
  std::mutex mu;

private:
  /// The programs of a batch, borrowed or copied like Words.
  struct Batch {
    std::vector<Words> owned;
    std::vector<llvm::ArrayRef<uint64_t>> progs;

    Batch(nb::handle programs, nb::handle offsets) {
      if (offsets.is_none()) {
        owned.reserve(nb::len(programs));
        for (nb::handle h : nb::iter(programs))
          owned.emplace_back(h);
        for (const Words &w : owned)
          progs.push_back(w.ref);
        return;
      }
      owned.emplace_back(programs);
      llvm::ArrayRef<uint64_t> all = owned.back().ref;
      std::vector<uint64_t> offs;
      if (!nb::try_cast(offsets, offs))
        throw nb::type_error("offsets must be a sequence of ints");
      for (size_t i = 0; i + 1 < offs.size(); ++i) {
        if (offs[i] > offs[i + 1] || offs[i + 1] > all.size())
          throwStack(InvalidArgument, "offsets must be non-decreasing and "
                                      "at most len(words)");
        progs.push_back(all.slice(offs[i], offs[i + 1] - offs[i]));
      }
    }
  };

  /// Compiles every program of \p b without the GIL, appending the stubs
  /// to \p text (when not null) and their ends (else their sizes) to
  /// \p ends.
  void runBatch(const Batch &b, const PyRegisters &regs,
                const std::vector<uint32_t> &requests, std::string *text,
                std::vector<size_t> &ends) {
    ends.reserve(b.progs.size());
    std::string error;
    {
      nb::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu);
      for (size_t i = 0; i != b.progs.size(); ++i) {
        llvm::Expected<llvm::StringRef> s =
            ctx.compile(Program{b.progs[i], {}}, regs.regs, requests);
        if (!s) {
          error = "program " + std::to_string(i) + ": " +
                  llvm::toString(s.takeError());
          break;
        }
        if (text) {
          text->append(s->data(), s->size());
          ends.push_back(text->size());
        } else {
          ends.push_back(s->size());
        }
      }
    }
    if (!error.empty())
      throwStack(InvalidWord, error);
  }

  static nb::str toStr(llvm::Expected<llvm::StringRef> s) {
    if (!s)
      throwError("StackError", InvalidWord, s.takeError());
    return nb::str(s->data(), s->size());
  }
  template <typename T> static T check(llvm::Expected<T> v) {
    if (!v)
      throwError("StackError", InvalidWord, v.takeError());
    return std::move(*v);
  }
};

PyProgram *parse(const PyInstructionSet &set, const std::string &text,
                 const std::string &name) {
  llvm::Expected<StackProgram> p = parseStackProgram(text, set.info, name);
  if (!p)
    throwError("StackError", ParseError, p.takeError());
  return new PyProgram(std::move(*p));
}

} // namespace

void mmptx::python::bindStack(nb::module_ &m) {
  nb::class_<PyInstructionSet>(m, "InstructionSet")
      .def(nb::init<const std::vector<PyInstructionSet::StackDecl> &,
                    const std::vector<PyInstructionSet::ArgDecl> &,
                    const std::vector<PyInstructionSet::InstrDecl> &,
                    const std::vector<PyInstructionSet::SpecialDecl> &>(),
           nb::arg("stacks"), nb::arg("arg_types"), nb::arg("instructions"),
           nb::arg("specials"))
      .def_static("default", &PyInstructionSet::getDefault)
      .def_prop_ro("stacks", &PyInstructionSet::stacks)
      .def_prop_ro("arg_types", &PyInstructionSet::argTypeList)
      .def_prop_ro("instructions", &PyInstructionSet::instructions)
      .def_prop_ro("specials", &PyInstructionSet::specialList)
      .def("find_stack",
           [](const PyInstructionSet &s, const std::string &n) {
             return s.info.findStack(n);
           })
      .def("find_instruction",
           [](const PyInstructionSet &s, const std::string &n) {
             return s.info.findInstr(n);
           })
      .def("find_special", [](const PyInstructionSet &s, const std::string &n) {
        return s.info.findSpecial(n);
      });

  nb::class_<PyRegisters>(m, "Registers")
      .def(nb::init<const PyInstructionSet &,
                    const std::vector<PyRegisters::Decl> &>(),
           nb::arg("instruction_set"), nb::arg("registers"))
      .def("to_list", &PyRegisters::list)
      .def("__len__", [](const PyRegisters &r) { return r.regs.size(); });

  nb::class_<PyProgram>(m, "Program")
      .def_prop_ro("main", [](const PyProgram &p) { return p.prog.main; })
      .def_prop_ro("routines",
                   [](const PyProgram &p) { return p.prog.routines; })
      .def_prop_ro("routine_names",
                   [](const PyProgram &p) { return p.prog.routineNames; })
      .def_prop_ro("requests",
                   [](const PyProgram &p) { return p.prog.requests; })
      .def_prop_ro("registers", &PyProgram::registerList)
      .def("format", [](const PyProgram &p, const PyInstructionSet &set) {
        std::string s;
        llvm::raw_string_ostream os(s);
        printStackProgram(os, p.prog, set.info);
        return os.str();
      });

  m.def("parse", &parse, nb::arg("instruction_set"), nb::arg("text"),
        nb::arg("name") = "<stack>", nb::keep_alive<0, 1>());

  nb::class_<PyCompiler>(m, "Compiler")
      .def(
          "__init__",
          [](PyCompiler *self, const PyInstructionSet &set, uint32_t targetSm,
             bool strict, bool zeroUnsatisfied, uint32_t stackSize,
             uint32_t maxNodes, uint32_t maxFrameDepth, uint32_t storeSize,
             uint64_t executionLimit) {
            StackPtxOptions o;
            o.targetSm = targetSm;
            o.strict = strict;
            o.zeroUnsatisfied = zeroUnsatisfied;
            o.stackSize = stackSize;
            o.maxNodes = maxNodes;
            o.maxFrameDepth = maxFrameDepth;
            o.storeSize = storeSize;
            o.executionLimit = executionLimit;
            if (!stackSize || !maxNodes || !storeSize)
              throwStack(InvalidArgument, "stack_size, max_nodes and "
                                          "store_size must be positive");
            new (self) PyCompiler(set, o);
          },
          nb::arg("instruction_set"), nb::arg("target_sm") = 0,
          nb::arg("strict") = false, nb::arg("zero_unsatisfied") = true,
          nb::arg("stack_size") = 128, nb::arg("max_nodes") = 1u << 16,
          nb::arg("max_frame_depth") = 8, nb::arg("store_size") = 32,
          nb::arg("execution_limit") = uint64_t(1) << 20,
          nb::keep_alive<1, 2>())
      .def("compile", &PyCompiler::compile, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"),
           nb::arg("routines") = nb::none(),
           nb::arg("zero_registers").none() = nb::none())
      .def("compile_program", &PyCompiler::compileProgram, nb::arg("program"))
      .def("compile_batch", &PyCompiler::compileBatch, nb::arg("programs"),
           nb::arg("offsets").none(), nb::arg("registers"), nb::arg("requests"))
      .def("measure_batch", &PyCompiler::measureBatch, nb::arg("programs"),
           nb::arg("offsets").none(), nb::arg("registers"), nb::arg("requests"))
      .def("interpret", &PyCompiler::interpret, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"), nb::arg("inputs"),
           nb::arg("routines") = nb::none(),
           nb::arg("specials") = SpecialValues::List())
      .def("interpret_rows", &PyCompiler::interpretRows, nb::arg("words"),
           nb::arg("registers"), nb::arg("requests"), nb::arg("inputs"),
           nb::arg("routines") = nb::none(),
           nb::arg("specials") = SpecialValues::List())
      .def_prop_ro("stats", &PyCompiler::stats)
      .def_prop_ro("target_sm",
                   [](const PyCompiler &c) { return c.ctx.getTargetSm(); });
}
