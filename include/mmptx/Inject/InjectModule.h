//===- InjectModule.h - Inject sites of a PTX module ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PTX Inject: find the inject sites of compiled PTX, describe their
/// variables, and render the PTX with one caller-supplied stub per inject.
///
/// Three marker formats are read (all are PTX `//` comments):
///  - mm-ptx 1.x: `// PTX_INJECT_START name`, `// _xN k regtype TYPE var`
///    (k = m, o, i), `// PTX_INJECT_END`.
///  - mmptx's own, emitted inside a normalised `{ }` inline-asm scope:
///    `// MMPTX_INJECT_BEGIN name nargs`,
///    `// MMPTX_INJECT_ARG index kind regtype TYPE var` (kind = in, out,
///    mod), `// MMPTX_INJECT_END name`; the stable register is `%_x<index>`.
///  - legacy comment form: `// PTX_INJECT_START name`,
///    `// %f1 kind type var`, `// PTX_INJECT_END`, whose sites carry compiler
///    registers and are normalised into stable `%_x<i>` registers here (at
///    render time) or by the normalize-injection-sites pass, with the one
///    scaffold of InjectFormat.h.
///
/// Sites with one name form one inject; every later site must agree with
/// the first. Creation checks every site and render every stub unless told
/// they are trusted (InjectChecks.h). An InjectModule is read-only after
/// creation, so any number of threads may render from one handle at once.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_INJECT_INJECTMODULE_H
#define MMPTX_INJECT_INJECTMODULE_H

#include "mmptx/Inject/InjectFormat.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace ptx {
class Module;
} // namespace ptx

/// The marker format a site was written in.
enum class InjectSiteFormat : uint8_t {
  /// mm-ptx 1.x markers inside the macro's normalised scope.
  MmPtx,
  /// mmptx's own markers inside a normalised scope.
  Native,
  /// Legacy comment form with compiler registers; not normalised.
  Legacy,
};

/// Receives the warnings of the inject layer (located diagnostics); the
/// library never prints.
using WarningHandler = std::function<void(const llvm::SMDiagnostic &)>;

/// Options for InjectModule::create.
struct InjectOptions {
  /// Types accepted in addition to the built-in ones; they win over a
  /// built-in type with the same token. Only read during create.
  llvm::ArrayRef<InjectType> ExtraTypes;
  /// Accept any type token in mm-ptx and native markers, trusting the
  /// marker's register type.
  bool AllowUnknownTypes = false;
  /// Text input only: skip the structural parse and the site checks (see
  /// InjectChecks.h) and only scan for markers. For PTX that this
  /// project's own tools produced or already checked.
  bool Trusted = false;
};

/// Options for InjectModule::render.
struct RenderOptions {
  /// Check every stub with checkStub() before splicing. Turn off only for
  /// stubs that are valid by construction (the Stack PTX compiler's).
  bool CheckStubs = true;
  /// Names of the stubs in errors, by inject index; a stub without one is
  /// named `<stub of inject 'NAME'>`.
  llvm::ArrayRef<std::string> StubNames;
  /// Receives warnings about the stubs; none are reported when empty.
  WarningHandler OnWarning;
};

/// Error categories. The C API maps them onto its own result codes
/// (lib/CAPI/PtxInject.cpp), which keep the reference's numbers; the Python
/// package numbers them in this order (python/mmptx/errors.py).
enum class InjectErrc : uint8_t {
  Success,
  /// Malformed inject markers.
  Formatting,
  InsufficientBuffer,
  Internal,
  InvalidInput,
  WrongNumStubs,
  OutOfBoundsIndex,
  /// Two sites of one inject disagree.
  InconsistentInjection,
  InjectNotFound,
  VariableNotFound,
  OutOfMemory,
  UnknownType,
  MissingStub,
  /// The text is not well-formed PTX (structural parse).
  InvalidPTX,
  /// A site's scaffold or compiler registers are wrong, or it is outside
  /// any function.
  InvalidSite,
  /// A stub cannot be spliced (see checkStub).
  InvalidStub,
};

/// A located inject error: a DiagnosticError (so tools print it as one, with
/// its notes) with an error category.
class InjectError : public llvm::ErrorInfo<InjectError, DiagnosticError> {
public:
  static char ID;
  InjectError(InjectErrc Code, llvm::SMDiagnostic Diag, std::string NoteText)
      : ErrorInfo(std::move(Diag), std::move(NoteText)), Code(Code) {}
  InjectErrc getCode() const { return Code; }

private:
  InjectErrc Code;
};

/// The error category of InjectErrc. An inject error without a source
/// location (render and query misuse) is an llvm::StringError with an
/// error code of this category, `make_error<StringError>(msg,
/// make_error_code(InjectErrc::X))`.
const std::error_category &getInjectErrorCategory();

inline std::error_code make_error_code(InjectErrc Code) {
  return {int(Code), getInjectErrorCategory()};
}

/// \returns \p Err with category \p Code when it is a located error
/// without one (a DiagnosticError), else \p Err unchanged.
llvm::Error withInjectCode(llvm::Error Err, InjectErrc Code);

/// Consumes \p Err; \returns its category (Internal for foreign errors) and
/// stores its text in \p Message when that is not null.
InjectErrc takeInjectError(llvm::Error Err, std::string *Message = nullptr);

/// A variable of an inject, as the stub sees it.
struct InjectVariable {
  llvm::StringRef Name; ///< `v_x`, `x[ 0 ]`: verbatim
  InjectArgKind Kind;
  llvm::StringRef RegType;        ///< `f32` (no dot)
  llvm::StringRef TypeToken;      ///< `F32`
  llvm::StringRef MovSuffix;      ///< `f32`: suffix of the scaffold's `mov`
  llvm::StringRef StableRegister; ///< `_x0`: write `%_x0` in stubs
};

/// All sites with one name.
struct Inject {
  llvm::StringRef Name;
  uint32_t Index;
  uint32_t NumSites;
  uint32_t FirstVariable;
  uint32_t NumVariables;
  /// Byte offset of the first site's START marker in the input.
  uint32_t FirstSiteOffset;
};

/// One START…END block.
struct InjectSite {
  uint32_t TheInject;
  /// Offset of the marker keyword (`PTX_INJECT_START`, ...) in the input.
  uint32_t MarkerOffset;
  /// The bytes of the input that the stub replaces: the marker block, from
  /// its `//` (one tab before it included) to the end of its END line
  /// (newline excluded).
  uint32_t RemoveBegin;
  uint32_t RemoveEnd;
  /// Offset in getTemplate() where the stub (of a legacy site: the stub in
  /// its normalisation scaffold) goes.
  uint32_t Slot;
  /// Newlines in the removed bytes.
  uint32_t MarkerLines;
  InjectSiteFormat Format;
  /// Legacy sites: index of the first compiler register in
  /// getSiteRegisters().
  uint32_t FirstRegister;
};

/// The inject sites of one PTX text, ready to render.
class InjectModule {
public:
  /// Parses \p Ptx: the structural parse, the sites and their checks (see
  /// InjectChecks.h), or with \p Options.Trusted only the fast marker
  /// scanner. Errors are located in a buffer named \p BufferName. The
  /// handle keeps what render needs (getTemplate() and the site and variable
  /// records), not \p Ptx.
  static llvm::Expected<std::unique_ptr<InjectModule>>
  create(llvm::StringRef Ptx, llvm::StringRef BufferName = "<ptx>",
         const InjectOptions &Options = {});

  /// Finds the sites of a parsed module through its marker comments and
  /// checks them (unless \p Options.Trusted): a site outside any function,
  /// a wrong scaffold or a wrong legacy register is an error. Errors are
  /// located in \p M's SourceMgr. \p M must have no pending
  /// edits (the PassManager re-parses after each pass that made some).
  static llvm::Expected<std::unique_ptr<InjectModule>>
  create(const ptx::Module &M, const InjectOptions &Options = {});

  ~InjectModule();
  InjectModule(const InjectModule &) = delete;
  InjectModule &operator=(const InjectModule &) = delete;

  /// The input without the sites' marker blocks: render writes the text
  /// between consecutive InjectSite::slot offsets, with the stubs between.
  llvm::StringRef getTemplate() const {
    return llvm::StringRef(TemplateText.get(), TemplateSize);
  }

  size_t getNumInjects() const { return InjectList.size(); }
  llvm::ArrayRef<Inject> injects() const { return InjectList; }
  /// \returns inject \p Index; asserts it is in range.
  const Inject &getInject(size_t Index) const { return InjectList[Index]; }
  /// \returns the inject named \p Name, or nullptr.
  const Inject *lookupInject(llvm::StringRef Name) const;

  llvm::ArrayRef<InjectVariable> getVariables(const Inject &Inj) const {
    return llvm::makeArrayRef(Variables).slice(Inj.FirstVariable,
                                               Inj.NumVariables);
  }
  /// \returns the variable of \p Inj named \p Name, or nullptr.
  const InjectVariable *lookupVariable(const Inject &Inj,
                                       llvm::StringRef Name) const;

  /// Every site, in file order.
  llvm::ArrayRef<InjectSite> sites() const {
    return llvm::makeArrayRef(SiteList.Items, SiteList.Count);
  }
  /// The compiler registers of legacy site \p Site, in argument order.
  llvm::ArrayRef<llvm::StringRef>
  getSiteRegisters(const InjectSite &Site) const;
  /// Where the registers of getSiteRegisters(\p Site) are in the input.
  llvm::ArrayRef<uint32_t> getSiteRegisterOffsets(const InjectSite &Site) const;

  /// Checks every stub of \p StubsByInject (one per inject) with
  /// checkStub(), naming them as \p Opts says.
  llvm::Error checkStubs(llvm::ArrayRef<llvm::StringRef> StubsByInject,
                         const RenderOptions &Opts = {}) const;

  /// \returns the exact size of render(\p StubsByInject) (no terminator).
  llvm::Expected<size_t>
  renderedSize(llvm::ArrayRef<llvm::StringRef> StubsByInject) const;

  /// Renders with stub \p StubsByInject[i] at every site of inject i into
  /// \p Out (replaced). Needs exactly one stub per inject; each is checked
  /// first unless \p Opts says otherwise.
  llvm::Error render(llvm::ArrayRef<llvm::StringRef> StubsByInject,
                     std::string &Out, const RenderOptions &Opts = {}) const;

  /// Renders into the caller's \p Buf of \p BufSize bytes; no terminator is
  /// written. \returns the number of bytes written.
  llvm::Expected<size_t> render(llvm::ArrayRef<llvm::StringRef> StubsByInject,
                                char *Buf, size_t BufSize,
                                const RenderOptions &Opts = {}) const;

  /// Renders with stubs given by inject name; every inject needs one and
  /// every name must be an inject.
  llvm::Error render(const llvm::StringMap<llvm::StringRef> &StubsByName,
                     std::string &Out, const RenderOptions &Opts = {}) const;

  /// \returns the stubs of \p StubsByName ordered by inject index.
  llvm::Expected<std::vector<llvm::StringRef>>
  orderStubs(const llvm::StringMap<llvm::StringRef> &StubsByName) const;

  /// \returns the bytes this handle owns: its template, records and names
  /// (heap blocks at their requested sizes).
  size_t getMemoryUsage() const;

private:
  InjectModule();
  friend class InjectSiteScanner;

  llvm::Error checkStubCount(llvm::ArrayRef<llvm::StringRef> Stubs) const;
  /// checkStubs() and renderedSize() once the count is known to be right.
  llvm::Error checkStubTexts(llvm::ArrayRef<llvm::StringRef> Stubs,
                             const RenderOptions &Opts) const;
  size_t sizeWith(llvm::ArrayRef<llvm::StringRef> Stubs) const;
  /// renderedSize(\p Stubs), after checkStubs() where \p Opts asks: the
  /// count checked once.
  llvm::Expected<size_t>
  checkedRenderedSize(llvm::ArrayRef<llvm::StringRef> Stubs,
                      const RenderOptions &Opts) const;
  /// The slice of \p All (siteRegisters or its offsets) of legacy \p Site.
  template <typename T>
  llvm::ArrayRef<T> registersOf(const InjectSite &Site,
                                const std::vector<T> &All) const;
  template <typename Sink>
  void fill(llvm::ArrayRef<llvm::StringRef> Stubs, Sink Append) const;

  /// The input with every site's marker block cut out.
  std::unique_ptr<char[]> TemplateText;
  size_t TemplateSize = 0;
  /// Normalisation scaffolds of the legacy sites, in site order: per site a
  /// prefix (to the stub) and a suffix, their ends in scaffoldEnds.
  std::string Scaffold;
  std::vector<uint32_t> ScaffoldEnds;
  std::vector<Inject> InjectList;
  std::vector<InjectVariable> Variables;
  /// The sites in one malloc'ed block, grown and trimmed by realloc: a
  /// trim shrinks it in place, where a vector copies into a fresh block.
  struct SiteStorage {
    InjectSite *Items = nullptr;
    size_t Count = 0;
    size_t Capacity = 0;
    SiteStorage() = default;
    SiteStorage(const SiteStorage &) = delete;
    SiteStorage &operator=(const SiteStorage &) = delete;
    ~SiteStorage();
    void reserve(size_t N);
    void pushBack(const InjectSite &Site);
    void trim();
    InjectSite &back() { return Items[Count - 1]; }
    const InjectSite *begin() const { return Items; }
    const InjectSite *end() const { return Items + Count; }
  };
  SiteStorage SiteList;
  std::vector<llvm::StringRef> SiteRegisters;
  /// Where each of siteRegisters was in the input.
  std::vector<uint32_t> SiteRegisterOffsets;
  llvm::StringMap<uint32_t> NameToInject;
  /// Variable names and types, inject names are nameToInject's keys.
  std::unique_ptr<char[]> Strings;
  size_t StringsSize = 0;
};

/// Appends to \p Out the normalised form of a legacy site of \p Inj whose
/// variables \p Vars live in compiler registers \p Regs: `{`, a `.reg` per
/// stable register, a `mov` in per in/mod variable, the mmptx markers (with
/// \p WithMarkers), a newline, a `mov` out per mod/out variable, `}`; with a
/// tab first when \p LeadingTab. The one writer of the site format, used by
/// render and the normalize pass. \returns the offset in \p Out where the
/// stub goes (after the markers, before the newline).
size_t writeNormalizedSite(std::string &Out, const Inject &Inj,
                           llvm::ArrayRef<InjectVariable> Vars,
                           llvm::ArrayRef<llvm::StringRef> Regs,
                           bool LeadingTab, bool WithMarkers);

/// Prints a table of the injects of \p M (name, sites, and per variable its
/// kind, type token, PTX register type and stable register) to \p Os; as
/// one JSON object when \p Json is set.
void printInjects(const InjectModule &M, llvm::raw_ostream &Os, bool Json);

} // namespace mmptx

namespace std {
template <> struct is_error_code_enum<mmptx::InjectErrc> : std::true_type {};
} // namespace std

#endif // MMPTX_INJECT_INJECTMODULE_H
