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
static std::vector<std::vector<uint32_t>> getSiteLines(const InjectModule &m) {
  std::vector<std::vector<uint32_t>> lines(m.getNumInjects());
  // The template lacks the marker blocks: add back their newlines.
  StringRef text = m.getTemplate();
  uint32_t line = 1, counted = 0;
  for (const InjectSite &site : m.sites()) { // in file order
    line += text.slice(counted, site.slot).count('\n');
    counted = site.slot;
    lines[site.inject].push_back(line);
    line += site.markerLines;
  }
  return lines;
}

/// JSON strings must be UTF-8; a name from a binary file need not be.
static std::string jsonText(StringRef s) {
  return json::isUTF8(s) ? s.str() : json::fixUTF8(s);
}

static void printJSON(const InjectModule &m, raw_ostream &os) {
  std::vector<std::vector<uint32_t>> siteLines = getSiteLines(m);
  json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attribute("num_injects", int64_t(m.getNumInjects()));
    j.attributeArray("injects", [&] {
      for (const Inject &inj : m.injects()) {
        j.object([&] {
          j.attribute("index", int64_t(inj.index));
          j.attribute("name", jsonText(inj.name));
          j.attribute("sites", int64_t(inj.numSites));
          j.attributeArray("site_lines", [&] {
            for (uint32_t line : siteLines[inj.index])
              j.value(int64_t(line));
          });
          j.attributeArray("variables", [&] {
            ArrayRef<InjectVariable> vars = m.getVariables(inj);
            for (size_t i = 0; i != vars.size(); ++i) {
              const InjectVariable &v = vars[i];
              j.object([&] {
                j.attribute("index", int64_t(i));
                j.attribute("name", jsonText(v.name));
                j.attribute("kind", getInjectArgKindName(v.kind));
                j.attribute("type", jsonText(v.typeToken));
                j.attribute("reg_type", jsonText(v.regType));
                j.attribute("register", jsonText(v.stableRegister));
              });
            }
          });
        });
      }
    });
  });
  os << '\n';
}

void mmptx::printInjects(const InjectModule &m, raw_ostream &os, bool json) {
  if (json)
    return printJSON(m, os);
  os << m.getNumInjects() << (m.getNumInjects() == 1 ? " inject" : " injects")
     << ", " << m.sites().size() << (m.sites().size() == 1 ? " site" : " sites")
     << '\n';
  for (const Inject &inj : m.injects()) {
    ArrayRef<InjectVariable> vars = m.getVariables(inj);
    os << "inject " << inj.index << " '" << inj.name << "': " << inj.numSites
       << (inj.numSites == 1 ? " site, " : " sites, ") << vars.size()
       << (vars.size() == 1 ? " variable\n" : " variables\n");
    if (vars.empty())
      continue;
    size_t nameWidth = 4, typeWidth = 4;
    for (const InjectVariable &v : vars) {
      nameWidth = std::max(nameWidth, v.name.size());
      typeWidth = std::max(typeWidth, v.typeToken.size());
    }
    os << formatv("  {0,-3} {1} {2,-4} {3} {4,-8} {5}\n", "#",
                  left_justify("name", nameWidth), "kind",
                  left_justify("type", typeWidth), "reg-type", "register");
    for (size_t i = 0; i != vars.size(); ++i) {
      const InjectVariable &v = vars[i];
      os << "  " << left_justify(std::to_string(i), 3) << ' '
         << left_justify(v.name, nameWidth) << ' '
         << left_justify(getInjectArgKindName(v.kind), 4) << ' '
         << left_justify(v.typeToken, typeWidth) << ' '
         << left_justify("." + v.regType.str(), 8) << " %" << v.stableRegister
         << '\n';
    }
  }
}
