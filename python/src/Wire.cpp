//===- Wire.cpp - Python binding of the wire format -----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mmptx/Serialize's messages as plain Python values: a job as a dict,
/// programs as a list of (id, [program tuples]), results as a list of
/// dicts. mmptx/wire.py builds pickling on these; a malformed message
/// raises mmptx.WireError with the byte offset.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Serialize/ReferenceWire.h"
#include "mmptx/Serialize/Wire.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::wire;
using namespace mmptx::python;

namespace {

enum WireErrc : int { InvalidArgument = 1, Malformed = 2 };

[[noreturn]] void throwWire(int Code, const std::string &Msg) {
  throw Failure("WireError", Code, Msg);
}

template <typename T> T get(const nb::dict &D, const char *Key, T Default) {
  if (!D.contains(Key))
    return Default;
  return nb::cast<T>(D[Key]);
}

stack::RegKind parseKind(const std::string &K) {
  if (K == "in")
    return stack::RegKind::In;
  if (K == "out")
    return stack::RegKind::Out;
  if (K == "mod")
    return stack::RegKind::Mod;
  throwWire(InvalidArgument,
            "register kind '" + K + "' is not one of in, out, mod");
}

const char *kindName(stack::RegKind K) {
  return K == stack::RegKind::In    ? "in"
         : K == stack::RegKind::Out ? "out"
                                    : "mod";
}

using StackT = std::tuple<std::string, std::string, bool>;
using ArgT = std::tuple<std::string, uint16_t, uint16_t>;
using InstrT = std::tuple<std::string, std::string, std::vector<uint16_t>,
                          std::vector<uint16_t>, uint16_t>;
using SpecialT = std::tuple<std::string, std::string, uint16_t, uint16_t>;
using SetT = std::tuple<std::vector<StackT>, std::vector<ArgT>,
                        std::vector<InstrT>, std::vector<SpecialT>>;

InstructionSet setFromPy(const SetT &T) {
  InstructionSet S;
  for (const auto &[Name, Prefix, Inl] : std::get<0>(T))
    S.Stacks.push_back({Name, Prefix, Inl});
  for (const auto &[Name, Stack, Vec] : std::get<1>(T))
    S.ArgTypes.push_back({Name, Stack, Vec});
  for (const auto &[Name, Ptx, Args, Rets, MinSm] : std::get<2>(T))
    S.Instrs.push_back({Name, Ptx, Args, Rets, MinSm});
  for (const auto &[Name, Ptx, Arg, MinSm] : std::get<3>(T))
    S.Specials.push_back({Name, Ptx, Arg, MinSm});
  return S;
}

nb::tuple setToPy(const InstructionSet &S) {
  nb::list Stacks, Args, Instrs, Specials;
  for (const StackDecl &D : S.Stacks)
    Stacks.append(nb::make_tuple(D.Name, D.LiteralPrefix, D.InlineLiterals));
  for (const ArgTypeDecl &D : S.ArgTypes)
    Args.append(nb::make_tuple(D.Name, D.StackIdx, D.NumVecElems));
  for (const InstrDecl &D : S.Instrs)
    Instrs.append(nb::make_tuple(D.Name, D.Ptx, D.Args, D.Rets, D.MinSm));
  for (const SpecialDecl &D : S.Specials)
    Specials.append(nb::make_tuple(D.Name, D.Ptx, D.ArgType, D.MinSm));
  return nb::make_tuple(Stacks, Args, Instrs, Specials);
}

nb::bytes toBytes(const std::string &S) {
  return nb::bytes(S.data(), S.size());
}

llvm::StringRef view(const nb::bytes &B) {
  return llvm::StringRef(B.c_str(), B.size());
}

/// A text of any bytes as a str: invalid UTF-8 bytes become lone surrogates
/// (Python's `surrogateescape`), so every value round-trips.
nb::str textToPy(const std::string &S) {
  PyObject *O =
      PyUnicode_DecodeUTF8(S.data(), Py_ssize_t(S.size()), "surrogateescape");
  if (!O)
    throw nb::python_error();
  return nb::steal<nb::str>(O);
}

/// The bytes of a str (lone surrogates back to the bytes they stand for) or
/// of a bytes object.
std::string textFromPy(nb::handle H, const std::string &What) {
  if (nb::isinstance<nb::bytes>(H))
    return std::string(view(nb::borrow<nb::bytes>(H)));
  if (!nb::isinstance<nb::str>(H))
    throwWire(InvalidArgument, What + " must be str or bytes");
  PyObject *B = PyUnicode_AsEncodedString(H.ptr(), "utf-8", "surrogateescape");
  if (!B)
    throw nb::python_error();
  nb::bytes Bytes = nb::steal<nb::bytes>(B);
  return std::string(view(Bytes));
}

nb::bytes dumpsJob(const nb::dict &D) {
  Job J;
  int Kind = get<int>(D, "source_kind", 0);
  if (Kind < 0 || Kind > 2)
    throwWire(InvalidArgument, "source_kind must be 0, 1 or 2");
  J.Kind = SourceKind(Kind);
  J.SourceName = get<std::string>(D, "source_name", "");
  J.Source = get<std::string>(D, "source", "");
  J.Inject.Trusted = get<bool>(D, "trusted", false);
  J.Inject.AllowUnknownTypes = get<bool>(D, "allow_unknown_types", false);
  for (const auto &[Tok, Reg, Mov] :
       get<std::vector<std::tuple<std::string, std::string, std::string>>>(
           D, "extra_types", {}))
    J.Inject.ExtraTypes.push_back({Tok, Reg, Mov});
  if (D.contains("instruction_set") && !D["instruction_set"].is_none()) {
    J.DefaultInstructionSet = false;
    J.Set = setFromPy(nb::cast<SetT>(D["instruction_set"]));
  }
  if (D.contains("stack_options")) {
    nb::dict O = nb::cast<nb::dict>(D["stack_options"]);
    stack::StackPtxOptions &S = J.StackOptions;
    S.Strict = get<bool>(O, "strict", S.Strict);
    S.ZeroUnsatisfied = get<bool>(O, "zero_unsatisfied", S.ZeroUnsatisfied);
    S.StackSize = get<uint32_t>(O, "stack_size", S.StackSize);
    S.MaxNodes = get<uint32_t>(O, "max_nodes", S.MaxNodes);
    S.MaxFrameDepth = get<uint32_t>(O, "max_frame_depth", S.MaxFrameDepth);
    S.StoreSize = get<uint32_t>(O, "store_size", S.StoreSize);
    S.ExecutionLimit = get<uint64_t>(O, "execution_limit", S.ExecutionLimit);
    S.TargetSm = get<uint32_t>(O, "target_sm", S.TargetSm);
  }
  for (const auto &[Name, Stack, Kind] :
       get<std::vector<std::tuple<std::string, uint16_t, std::string>>>(
           D, "registers", {}))
    J.Registers.push_back({Name, Stack, parseKind(Kind)});
  J.Requests =
      get<std::vector<std::vector<uint32_t>>>(D, "requests", J.Requests);
  J.Target = get<std::string>(D, "target", "");
  J.Backend = get<std::string>(D, "backend", "");
  J.BackendOptions =
      get<std::vector<std::string>>(D, "backend_options", J.BackendOptions);
  if (D.contains("metadata") && !D["metadata"].is_none()) {
    nb::dict M = nb::cast<nb::dict>(D["metadata"]);
    for (auto [K, V] : M) {
      if (!nb::isinstance<nb::str>(K))
        throwWire(InvalidArgument, "a metadata key must be a str");
      std::string Key = nb::cast<std::string>(K);
      J.Metadata.push_back({Key, textFromPy(V, "metadata '" + Key + "'")});
    }
  }
  return toBytes(serialize(J));
}

nb::dict jobToPy(const Job &J) {
  nb::dict D;
  D["source_kind"] = int(J.Kind);
  D["source_name"] = J.SourceName;
  D["source"] = J.Source;
  D["trusted"] = J.Inject.Trusted;
  D["allow_unknown_types"] = J.Inject.AllowUnknownTypes;
  nb::list Types;
  for (const InjectTypeDecl &T : J.Inject.ExtraTypes)
    Types.append(nb::make_tuple(T.Token, T.RegType, T.MovSuffix));
  D["extra_types"] = Types;
  D["instruction_set"] =
      J.DefaultInstructionSet ? nb::none() : nb::object(setToPy(J.Set));
  nb::dict O;
  const stack::StackPtxOptions &S = J.StackOptions;
  O["strict"] = S.Strict;
  O["zero_unsatisfied"] = S.ZeroUnsatisfied;
  O["stack_size"] = S.StackSize;
  O["max_nodes"] = S.MaxNodes;
  O["max_frame_depth"] = S.MaxFrameDepth;
  O["store_size"] = S.StoreSize;
  O["execution_limit"] = S.ExecutionLimit;
  O["target_sm"] = S.TargetSm;
  D["stack_options"] = O;
  nb::list Regs;
  for (const RegisterDecl &R : J.Registers)
    Regs.append(nb::make_tuple(R.Name, R.StackIdx, kindName(R.Kind)));
  D["registers"] = Regs;
  D["requests"] = J.Requests;
  D["target"] = J.Target;
  D["backend"] = J.Backend;
  D["backend_options"] = J.BackendOptions;
  nb::dict Meta;
  for (const MetadataEntry &E : J.Metadata)
    Meta[textToPy(E.Key)] = textToPy(E.Value);
  D["metadata"] = Meta;
  return D;
}

nb::dict loadsJob(const nb::bytes &B) {
  llvm::Expected<Job> J = deserializeJob(view(B));
  if (!J)
    throwError("WireError", Malformed, J.takeError());
  return jobToPy(*J);
}

using ProgT = std::tuple<int, uint32_t, std::vector<uint64_t>,
                         std::vector<std::vector<uint64_t>>, std::string>;
using VariantT = std::tuple<uint64_t, std::vector<ProgT>>;

nb::bytes dumpsPrograms(const std::vector<VariantT> &Vs) {
  ProgramBatch B;
  for (const auto &[Id, Progs] : Vs) {
    Variant V;
    V.Id = Id;
    for (const auto &[Kind, Inject, Words, Routines, Text] : Progs) {
      if (Kind < 1 || Kind > 4)
        throwWire(InvalidArgument,
                  "program kind " + std::to_string(Kind) +
                      " is not 1 (stack), 2 (ast), 3 (stub) or 4 (ptx)");
      V.Programs.push_back({ProgramKind(Kind), Inject, Words, Routines, Text});
    }
    B.Variants.push_back(std::move(V));
  }
  return toBytes(serialize(B));
}

std::vector<VariantT> loadsPrograms(const nb::bytes &Bytes) {
  llvm::Expected<ProgramBatch> B = deserializePrograms(view(Bytes));
  if (!B)
    throwError("WireError", Malformed, B.takeError());
  std::vector<VariantT> Out;
  for (const Variant &V : B->Variants) {
    std::vector<ProgT> Ps;
    for (const WireProgram &P : V.Programs)
      Ps.emplace_back(int(P.Kind), P.Inject, P.Words, P.Routines, P.Text);
    Out.emplace_back(V.Id, std::move(Ps));
  }
  return Out;
}

nb::bytes dumpsResults(const nb::list &Rs) {
  ResultBatch B;
  for (nb::handle H : Rs) {
    nb::dict D = nb::cast<nb::dict>(H);
    Result R;
    R.Id = get<uint64_t>(D, "id", 0);
    R.Name = get<std::string>(D, "name", "");
    R.Ok = get<bool>(D, "ok", false);
    if (D.contains("cubin") && !D["cubin"].is_none())
      R.Cubin = std::string(view(nb::cast<nb::bytes>(D["cubin"])));
    R.Stubs = get<std::vector<std::string>>(D, "stubs", {});
    for (const auto &[Msg, File, Line, Col] : get<std::vector<
             std::tuple<std::string, std::string, uint32_t, uint32_t>>>(
             D, "errors", {}))
      R.Errors.push_back({Msg, File, Line, Col});
    R.Backend = get<std::string>(D, "backend", "");
    R.BackendVersion = get<std::string>(D, "backend_version", "");
    R.Log = get<std::string>(D, "log", "");
    R.Origin = get<std::string>(D, "origin", "");
    R.Seconds = get<double>(D, "seconds", 0.0);
    B.Results.push_back(std::move(R));
  }
  return toBytes(serialize(B));
}

nb::list loadsResults(const nb::bytes &Bytes) {
  llvm::Expected<ResultBatch> B = deserializeResults(view(Bytes));
  if (!B)
    throwError("WireError", Malformed, B.takeError());
  nb::list Out;
  for (const Result &R : B->Results) {
    nb::dict D;
    D["id"] = R.Id;
    D["name"] = R.Name;
    D["ok"] = R.Ok;
    D["cubin"] = toBytes(R.Cubin);
    D["stubs"] = R.Stubs;
    nb::list Errors;
    for (const WireDiagnostic &E : R.Errors)
      Errors.append(nb::make_tuple(E.Message, E.File, E.Line, E.Column));
    D["errors"] = Errors;
    D["backend"] = R.Backend;
    D["backend_version"] = R.BackendVersion;
    D["log"] = R.Log;
    D["origin"] = R.Origin;
    D["seconds"] = R.Seconds;
    Out.append(D);
  }
  return Out;
}

/// A reference buffer (its layout named as mmptx-wire --layout names it) as
/// an mmptx job message and a programs message.
nb::tuple fromReference(const nb::bytes &Bytes, const std::string &Layout) {
  ref::Layout L;
  ref::Component C = ref::Component::Ptx;
  if (!ref::parseLayout(Layout, L, C))
    throwWire(InvalidArgument, "unknown layout '" + Layout + "'");
  llvm::Expected<ref::Buffer> B = ref::readBuffer(view(Bytes), L, C);
  if (!B)
    throwError("WireError", Malformed, B.takeError());
  llvm::Expected<Job> J = ref::toJob(*B);
  if (!J)
    throwError("WireError", Malformed, J.takeError());
  return nb::make_tuple(toBytes(serialize(*J)),
                        toBytes(serialize(ref::toPrograms(*B))));
}

} // namespace

void mmptx::python::bindWire(nb::module_ &M) {
  M.def("dumps_job", &dumpsJob, nb::arg("job"));
  M.def("loads_job", &loadsJob, nb::arg("data"));
  M.def("dumps_programs", &dumpsPrograms, nb::arg("variants"));
  M.def("loads_programs", &loadsPrograms, nb::arg("data"));
  M.def("dumps_results", &dumpsResults, nb::arg("results"));
  M.def("loads_results", &loadsResults, nb::arg("data"));
  M.def("from_reference", &fromReference, nb::arg("data"), nb::arg("layout"));
  M.def("message_kind", [](const nb::bytes &B) -> std::string {
    llvm::Expected<MessageInfo> I = checkMessage(view(B));
    if (!I)
      throwError("WireError", Malformed, I.takeError());
    return getMessageKindName(I->Kind).str();
  });
}
