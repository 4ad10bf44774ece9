//===- InjectPrinter.cpp - List the injects of a module -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `mmptx-opt --list-injects` output: an aligned table for people and a
/// JSON object (`--format=json`) for programs. Both list injects in index
/// order and variables in argument order, so the output is deterministic.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectModule.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

/// \returns, per inject, the 1-based line of each of its sites' marker.
static std::vector<std::vector<uint32_t>> getSiteLines(const InjectModule &M) {
  std::vector<std::vector<uint32_t>> Lines(M.getNumInjects());
  // The template lacks the marker blocks: add back their newlines.
  StringRef Text = M.getTemplate();
  uint32_t Line = 1, Counted = 0;
  for (const InjectSite &Site : M.sites()) { // in file order
    Line += Text.slice(Counted, Site.Slot).count('\n');
    Counted = Site.Slot;
    Lines[Site.TheInject].push_back(Line);
    Line += Site.MarkerLines;
  }
  return Lines;
}

/// JSON strings must be UTF-8; a name from a binary file need not be.
static std::string jsonText(StringRef S) {
  return json::isUTF8(S) ? S.str() : json::fixUTF8(S);
}

static void printJSON(const InjectModule &M, raw_ostream &Os) {
  std::vector<std::vector<uint32_t>> SiteLines = getSiteLines(M);
  json::OStream J(Os, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("num_injects", int64_t(M.getNumInjects()));
    J.attributeArray("injects", [&] {
      for (const Inject &Inj : M.injects()) {
        J.object([&] {
          J.attribute("index", int64_t(Inj.Index));
          J.attribute("name", jsonText(Inj.Name));
          J.attribute("sites", int64_t(Inj.NumSites));
          J.attributeArray("site_lines", [&] {
            for (uint32_t Line : SiteLines[Inj.Index])
              J.value(int64_t(Line));
          });
          J.attributeArray("variables", [&] {
            ArrayRef<InjectVariable> Vars = M.getVariables(Inj);
            for (size_t I = 0; I != Vars.size(); ++I) {
              const InjectVariable &V = Vars[I];
              J.object([&] {
                J.attribute("index", int64_t(I));
                J.attribute("name", jsonText(V.Name));
                J.attribute("kind", getInjectArgKindName(V.Kind));
                J.attribute("type", jsonText(V.TypeToken));
                J.attribute("reg_type", jsonText(V.RegType));
                J.attribute("register", jsonText(V.StableRegister));
              });
            }
          });
        });
      }
    });
  });
  Os << '\n';
}

void mmptx::printInjects(const InjectModule &M, raw_ostream &Os, bool Json) {
  if (Json)
    return printJSON(M, Os);
  Os << M.getNumInjects() << (M.getNumInjects() == 1 ? " inject" : " injects")
     << ", " << M.sites().size() << (M.sites().size() == 1 ? " site" : " sites")
     << '\n';
  for (const Inject &Inj : M.injects()) {
    ArrayRef<InjectVariable> Vars = M.getVariables(Inj);
    Os << "inject " << Inj.Index << " '" << Inj.Name << "': " << Inj.NumSites
       << (Inj.NumSites == 1 ? " site, " : " sites, ") << Vars.size()
       << (Vars.size() == 1 ? " variable\n" : " variables\n");
    if (Vars.empty())
      continue;
    size_t NameWidth = 4, TypeWidth = 4;
    for (const InjectVariable &V : Vars) {
      NameWidth = std::max(NameWidth, V.Name.size());
      TypeWidth = std::max(TypeWidth, V.TypeToken.size());
    }
    Os << formatv("  {0,-3} {1} {2,-4} {3} {4,-8} {5}\n", "#",
                  left_justify("name", NameWidth), "kind",
                  left_justify("type", TypeWidth), "reg-type", "register");
    for (size_t I = 0; I != Vars.size(); ++I) {
      const InjectVariable &V = Vars[I];
      Os << "  " << left_justify(std::to_string(I), 3) << ' '
         << left_justify(V.Name, NameWidth) << ' '
         << left_justify(getInjectArgKindName(V.Kind), 4) << ' '
         << left_justify(V.TypeToken, TypeWidth) << ' '
         << left_justify("." + V.RegType.str(), 8) << " %" << V.StableRegister
         << '\n';
    }
  }
}
