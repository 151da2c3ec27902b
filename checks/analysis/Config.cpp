//===--- Config.cpp - .rematch.yaml ---------------------------------------===//
//
// Reads `.rematch.yaml` with LLVM's YAML I/O. The YAML library reports its
// errors through a SourceMgr; we capture the first one and turn it into the
// clang-style "<path>:<line>:<column>: error: <what>" the driver prints as is.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"

using namespace llvm;

namespace clang::tidy::rematch {
namespace {

// One entry of a list key. Its own type so that a nested sequence or mapping
// is reported as "expected a string" at the entry rather than as YAML I/O's
// generic "unexpected scalar".
struct ListItem {
  std::string Value;
};

// One CheckpointFunctions entry: a name, or {Name: ..., Replays: [...]}.
struct EntryPointItem {
  std::string Name;
  std::vector<std::string> Replays;
  bool HasReplays = false;
  std::optional<unsigned> Callable;
  bool ArgumentsFresh = false;
};

// The mapping form of an EntryPointItem, read through MappingTraits.
struct EntryPointMap {
  EntryPointItem &Item;
};

} // namespace
} // namespace clang::tidy::rematch

LLVM_YAML_IS_SEQUENCE_VECTOR(clang::tidy::rematch::ListItem)
LLVM_YAML_IS_SEQUENCE_VECTOR(clang::tidy::rematch::EntryPointItem)

namespace clang::tidy::rematch {
namespace {

// A list key bound to its Config member. Users write short lists on one line
// ("LoggingFunctions: log, trace"), so a scalar is split at commas.
struct StringList {
  std::vector<std::string> &Items;
};

// The Checks key; a wrapper for the same reason as ListItem.
struct ChecksString {
  std::optional<std::string> &Value;
};

const yaml::Node *currentNode(yaml::IO &IO) {
  // Config is only ever read, so the IO is always an Input.
  assert(!IO.outputting() && "Config is never written as YAML");
  return static_cast<yaml::Input &>(IO).getCurrentNode();
}

// "Key:", "Key: ~" and "Key: null" all mean "nothing here"; the parser only
// turns the first into a NullNode.
bool isNull(const yaml::Node *N) {
  if (isa_and_nonnull<yaml::NullNode>(N))
    return true;
  const auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
  return S && yaml::isNull(S->getRawValue());
}

bool isScalar(const yaml::Node *N) {
  return isa_and_nonnull<yaml::ScalarNode, yaml::BlockScalarNode>(N) &&
         !isNull(N);
}

void appendCommaSeparated(StringRef Text, std::vector<std::string> &Out) {
  SmallVector<StringRef, 8> Parts;
  Text.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts)
    if (!Part.trim().empty())
      Out.push_back(Part.trim().str());
}

// Non-template overloads, found by argument-dependent lookup from YAML I/O's
// templates; they beat the generic trait-based yamlize overloads.
void yamlize(yaml::IO &IO, ListItem &Item, bool, yaml::EmptyContext &Ctx) {
  if (!isScalar(currentNode(IO))) {
    IO.setError("expected a string");
    return;
  }
  yaml::yamlize(IO, Item.Value, true, Ctx);
}

void yamlize(yaml::IO &IO, StringList &List, bool, yaml::EmptyContext &Ctx) {
  const yaml::Node *N = currentNode(IO);
  // An empty list, as an empty sequence would be.
  if (isNull(N))
    return;
  if (isScalar(N)) {
    std::string Text;
    yaml::yamlize(IO, Text, true, Ctx);
    appendCommaSeparated(Text, List.Items);
    return;
  }
  if (isa_and_nonnull<yaml::SequenceNode>(N)) {
    std::vector<ListItem> Items;
    yaml::yamlize(IO, Items, true, Ctx);
    for (ListItem &Item : Items)
      List.Items.push_back(std::move(Item.Value));
    return;
  }
  IO.setError("expected a string or a sequence of strings");
}

// The list of entry points: names, or mappings naming what they replay.
struct EntryPointList {
  Config &C;
};

} // namespace
} // namespace clang::tidy::rematch

namespace llvm::yaml {
template <> struct MappingTraits<clang::tidy::rematch::EntryPointMap> {
  static void mapping(IO &IO, clang::tidy::rematch::EntryPointMap &M);
};
} // namespace llvm::yaml

namespace clang::tidy::rematch {
namespace {

void yamlize(yaml::IO &IO, EntryPointItem &Item, bool,
             yaml::EmptyContext &Ctx) {
  const yaml::Node *N = currentNode(IO);
  if (isScalar(N)) {
    yaml::yamlize(IO, Item.Name, true, Ctx);
    return;
  }
  if (isa_and_nonnull<yaml::MappingNode>(N)) {
    EntryPointMap M{Item};
    yaml::yamlize(IO, M, true, Ctx);
    return;
  }
  IO.setError("expected a name or {Name: ..., Replays: [...], Callable: N, "
              "ArgumentsFresh: true}");
}

void yamlize(yaml::IO &IO, EntryPointList &List, bool,
             yaml::EmptyContext &Ctx) {
  const yaml::Node *N = currentNode(IO);
  std::vector<EntryPointItem> Items;
  if (isNull(N))
    return;
  if (isScalar(N)) {
    std::string Text;
    yaml::yamlize(IO, Text, true, Ctx);
    if (Error E = addCheckpointFunctions(Text, List.C))
      IO.setError(toString(std::move(E)));
    return;
  }
  if (!isa_and_nonnull<yaml::SequenceNode>(N)) {
    IO.setError("expected a string or a sequence of entry points");
    return;
  }
  yaml::yamlize(IO, Items, true, Ctx);
  for (EntryPointItem &Item : Items)
    addEntryPoint(List.C, Item.Name,
                  Item.HasReplays ? std::optional(Item.Replays) : std::nullopt,
                  Item.Callable, Item.ArgumentsFresh);
}

// The names of the rematch checks, from the one list.
const std::vector<StringRef> &knownChecks() {
  static const std::vector<StringRef> Names = {
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description) Name,
#include "Checks.def"
  };
  return Names;
}

} // namespace

std::string unknownCheckProblem(StringRef Globs) {
  SmallVector<StringRef, 8> Items;
  Globs.split(Items, ',', -1, false);
  for (StringRef Item : Items) {
    Item = Item.trim();
    Item.consume_front("-");
    Item = Item.trim();
    if (!Item.empty() && !Item.contains('*') &&
        !llvm::is_contained(knownChecks(), Item))
      return ("unknown check '" + Item + "'").str();
  }
  return {};
}

std::string checkGlobsProblem(StringRef Globs) {
  if (std::string Unknown = unknownCheckProblem(Globs); !Unknown.empty())
    return Unknown;
  GlobList List(Globs);
  for (StringRef Known : knownChecks())
    if (List.contains(Known))
      return {};
  return ("'" + Globs + "' enables no check").str();
}

namespace {

void yamlize(yaml::IO &IO, ChecksString &Checks, bool,
             yaml::EmptyContext &Ctx) {
  // Left unset: the checks chosen elsewhere stay in force.
  if (isNull(currentNode(IO)))
    return;
  if (!isScalar(currentNode(IO))) {
    IO.setError("expected a string");
    return;
  }
  std::string Text;
  yaml::yamlize(IO, Text, true, Ctx);
  // A block scalar ("Checks: |") ends in a newline that is no part of a glob.
  Checks.Value = StringRef(Text).trim().str();
  if (std::string Problem = checkGlobsProblem(*Checks.Value); !Problem.empty())
    IO.setError(Problem);
}

void mapList(yaml::IO &IO, const char *Key, std::vector<std::string> &Items) {
  StringList List{Items};
  IO.mapOptional(Key, List);
}

// The first error the YAML library reports; later ones are consequences.
struct FirstDiagnostic {
  bool Seen = false;
  int Line = 0;
  int Column = 0;
  std::string Message;

  static void handle(const SMDiagnostic &Diag, void *Context) {
    auto *Self = static_cast<FirstDiagnostic *>(Context);
    if (Self->Seen || Diag.getKind() != SourceMgr::DK_Error)
      return;
    Self->Seen = true;
    Self->Line = Diag.getLineNo();
    Self->Column = Diag.getColumnNo() + 1; // SMDiagnostic's is 0-based
    Self->Message = Diag.getMessage().str();
  }
};

} // namespace
} // namespace clang::tidy::rematch

namespace llvm::yaml {
template <> struct MappingTraits<clang::tidy::rematch::Config> {
  static void mapping(IO &IO, clang::tidy::rematch::Config &C) {
    using clang::tidy::rematch::mapList;
    clang::tidy::rematch::EntryPointList EntryPoints{C};
    IO.mapOptional("CheckpointFunctions", EntryPoints);
    mapList(IO, "Models", C.Models);
    mapList(IO, "LoggingFunctions", C.LoggingFunctions);
    mapList(IO, "RngFunctions", C.RngFunctions);
    mapList(IO, "ClockFunctions", C.ClockFunctions);
    mapList(IO, "IoFunctions", C.IoFunctions);
    mapList(IO, "ContainerTypes", C.ContainerTypes);
    mapList(IO, "AllowedGlobals", C.AllowedGlobals);
    clang::tidy::rematch::ChecksString Checks{C.Checks};
    IO.mapOptional("Checks", Checks);
  }
};
} // namespace llvm::yaml

namespace llvm::yaml {
void MappingTraits<clang::tidy::rematch::EntryPointMap>::mapping(
    IO &IO, clang::tidy::rematch::EntryPointMap &M) {
  IO.mapRequired("Name", M.Item.Name);
  clang::tidy::rematch::StringList Replays{M.Item.Replays};
  M.Item.HasReplays = true;
  IO.mapOptional("Replays", Replays);
  IO.mapOptional("Callable", M.Item.Callable);
  IO.mapOptional("ArgumentsFresh", M.Item.ArgumentsFresh);
}
} // namespace llvm::yaml

namespace clang::tidy::rematch {

Error addCheckpointFunctions(StringRef Option, Config &C) {
  // Split at commas outside brackets: `a[x;y],b`.
  SmallVector<StringRef, 8> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Option.size(); ++I) {
    char Ch = Option[I];
    if (Ch == '[')
      ++Depth;
    else if (Ch == ']')
      --Depth;
    else if (Ch == ',' && Depth == 0) {
      Parts.push_back(Option.slice(Start, I));
      Start = I + 1;
    }
  }
  Parts.push_back(Option.drop_front(std::min(Start, Option.size())));
  for (StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    // `name+fresh`: the callable's arguments are fresh on every run.
    bool Fresh = Part.consume_back("+fresh");
    Part = Part.trim();
    StringRef Name = Part;
    std::optional<std::vector<std::string>> Replays;
    if (size_t Open = Part.find('['); Open != StringRef::npos) {
      if (!Part.ends_with("]") || Part.count('[') != 1 ||
          Part.count(']') != 1)
        return createStringError(
            std::errc::invalid_argument,
            "malformed entry point '%s': expected name[source;source]",
            Part.str().c_str());
      Name = Part.take_front(Open).trim();
      Replays.emplace();
      SmallVector<StringRef, 4> Sources;
      Part.slice(Open + 1, Part.size() - 1).split(Sources, ';', -1, false);
      for (StringRef S : Sources)
        if (!S.trim().empty())
          Replays->push_back(S.trim().str());
    }
    // An empty name is skipped.
    addEntryPoint(C, Name, std::move(Replays), std::nullopt, Fresh);
  }
  return Error::success();
}

std::string trimmedName(StringRef Name) {
  Name = Name.trim();
  Name.consume_front("::");
  return Name.str();
}

void addEntryPoint(Config &C, StringRef Written,
                   std::optional<std::vector<std::string>> Replays,
                   std::optional<unsigned> Callable, bool ArgumentsFresh) {
  std::string Name = trimmedName(Written);
  if (Name.empty())
    return;
  if (ArgumentsFresh)
    C.CheckpointFreshArguments.insert(Name);
  if (!llvm::is_contained(C.CheckpointFunctions, Name))
    C.CheckpointFunctions.push_back(Name);
  if (Replays)
    C.CheckpointReplays[Name] = std::move(*Replays);
  if (Callable)
    C.CheckpointCallable[Name] = *Callable;
}

void Config::merge(const Config &Other) {
  auto Append = [](std::vector<std::string> &To,
                   const std::vector<std::string> &From) {
    // Set semantics: a name listed at two levels is still one name.
    for (const std::string &Name : From)
      if (!llvm::is_contained(To, Name))
        To.push_back(Name);
  };
  Append(CheckpointFunctions, Other.CheckpointFunctions);
  for (const auto &[Name, Replays] : Other.CheckpointReplays)
    CheckpointReplays[Name] = Replays;
  for (const auto &[Name, Arg] : Other.CheckpointCallable)
    CheckpointCallable[Name] = Arg;
  CheckpointFreshArguments.insert(Other.CheckpointFreshArguments.begin(),
                                  Other.CheckpointFreshArguments.end());
  Append(Models, Other.Models);
  Append(LoggingFunctions, Other.LoggingFunctions);
  Append(RngFunctions, Other.RngFunctions);
  Append(ClockFunctions, Other.ClockFunctions);
  Append(IoFunctions, Other.IoFunctions);
  Append(ContainerTypes, Other.ContainerTypes);
  Append(AllowedGlobals, Other.AllowedGlobals);
  if (Other.Checks)
    Checks = Other.Checks;
  // The most specific source is the one worth naming in messages.
  if (!Other.Path.empty())
    Path = Other.Path;
}

namespace {

// LLVM's YAML reader builds its node tree recursively: a hostile or broken
// file nested thousands deep would overflow the stack. A configuration is a
// flat mapping of lists, so anything nested deeper than this is refused,
// at the place where the limit is crossed.
constexpr unsigned MaxNesting = 32;

// Past these, anything that merely could be nesting or empty entries is
// refused, whatever the quotes and comments around it: no configuration
// comes near them, and they keep the reader's recursion small even where the
// scan below reads quoting differently from the YAML reader.
constexpr unsigned MaxOpenBrackets = 1000;
constexpr unsigned MaxCommaRun = 1000;

struct TooDeep {
  unsigned Line, Column;
  bool EmptyEntries; // a run of empty flow entries rather than nesting
};

// One pass over the characters: a state machine whose state is the locals
// below. It stays one function (over 80 lines) so that every transition is
// read beside the state it changes.
std::optional<TooDeep> tooDeep(StringRef Text) {
  unsigned Line = 1, Column = 1, Flow = 0;
  bool LineStart = true;
  unsigned Block = 0; // "- " / "? " markers opening this line
  unsigned Commas = 0; // consecutive flow separators: the reader recurses
                       // once per empty entry
  unsigned AnyCommas = 0, AnyOpen = 0; // the same, counted everywhere
  char Quote = 0;
  bool Comment = false;
  // Where a scalar may begin, so that a quote there opens a quoted scalar;
  // elsewhere (`a"b`, `x - "y` in a flow) it is part of a plain one.
  bool ScalarStart = true;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    const bool Space = C == ' ' || C == '\t' || C == '\r';
    if (C == ',') {
      if (++AnyCommas > MaxCommaRun)
        return TooDeep{Line, Column, true};
    } else if (!Space && C != '\n') {
      AnyCommas = 0;
    }
    if (C == '[' || C == '{') {
      if (++AnyOpen > MaxOpenBrackets)
        return TooDeep{Line, Column, false};
    }
    if (C == '\n') {
      ++Line;
      Column = 1;
      LineStart = true;
      Block = 0;
      Comment = false;
      if (!Quote)
        ScalarStart = true;
      continue; // a quoted scalar may go on over lines
    }
    ++Column;
    if (Comment)
      continue;
    if (Quote) {
      if (Quote == '"' && C == '\\' && I + 1 < Text.size() &&
          Text[I + 1] != '\n') {
        ++I; // an escaped character
        ++Column;
      } else if (C == Quote && Quote == '\'' && I + 1 < Text.size() &&
                 Text[I + 1] == '\'') {
        ++I; // '' is a quote inside a single-quoted scalar
        ++Column;
      } else if (C == Quote) {
        Quote = 0;
        ScalarStart = false;
      }
      continue;
    }
    if (C == ',' && Flow > 0) {
      if (++Commas > MaxNesting)
        return TooDeep{Line, Column - 1, true};
    } else if (!Space) {
      Commas = 0;
    }
    if ((C == '\'' || C == '"') && ScalarStart) {
      Quote = C;
    } else if (C == '#' && (LineStart || Text[I - 1] == ' ' ||
                            Text[I - 1] == '\t')) {
      Comment = true; // to the end of the line (`a#b` is no comment)
    } else if (C == '[' || C == '{') {
      if (++Flow > MaxNesting)
        return TooDeep{Line, Column - 1, false};
      ScalarStart = true;
    } else if (C == ']' || C == '}') {
      if (Flow > 0)
        --Flow;
      if (AnyOpen > 0)
        --AnyOpen;
      ScalarStart = false;
    } else if (C == ',') {
      ScalarStart = true;
    } else if (C == ':' && (I + 1 == Text.size() || Text[I + 1] == ' ' ||
                            Text[I + 1] == '\t' || Text[I + 1] == '\n')) {
      ScalarStart = true;
    } else if (LineStart && (C == '-' || C == '?') && I + 1 < Text.size() &&
               (Text[I + 1] == ' ' || Text[I + 1] == '\t')) {
      if (++Block > MaxNesting)
        return TooDeep{Line, Column - 1, false};
      ScalarStart = true;
    } else if (!Space) {
      LineStart = false;
      ScalarStart = false;
    }
    if (Column > 4096 && LineStart)
      return TooDeep{Line, Column, false}; // indentation alone that deep
  }
  return std::nullopt;
}

} // namespace

std::string yamlNestingProblem(StringRef Text, StringRef Path,
                               StringRef What) {
  std::optional<TooDeep> Deep = tooDeep(Text);
  if (!Deep)
    return {};
  return (Path + ":" + Twine(Deep->Line) + ":" + Twine(Deep->Column) +
          ": error: " + (Deep->EmptyEntries ? "a list with" : "nested") +
          " more than " + Twine(MaxNesting) + " " +
          (Deep->EmptyEntries ? "empty entries in a row" : "levels deep") +
          "; " + What)
      .str();
}

Expected<Config> parseConfig(StringRef Text, StringRef Path) {
  if (std::string Deep = yamlNestingProblem(
          Text, Path, "a rematch configuration is a mapping of lists");
      !Deep.empty())
    return createStringError(std::errc::invalid_argument, "%s", Deep.c_str());
  Config Result;
  Result.Path = Path.str();
  FirstDiagnostic Diag;
  yaml::Input In(MemoryBufferRef(Text, Path), /*Ctxt=*/nullptr,
                 &FirstDiagnostic::handle, &Diag);
  In >> Result;
  if (!In.error()) {
    // Model paths are relative to the configuration file.
    SmallString<256> Dir(Path);
    sys::fs::make_absolute(Dir);
    sys::path::remove_filename(Dir);
    for (std::string &M : Result.Models) {
      SmallString<256> P(M);
      sys::fs::make_absolute(Dir, P);
      sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      M = std::string(P);
    }
    return Result;
  }
  if (!Diag.Seen)
    return createStringError(In.error(), "%s: error: invalid configuration",
                             Path.str().c_str());
  return createStringError(In.error(), "%s:%d:%d: error: %s",
                           Path.str().c_str(), Diag.Line, Diag.Column,
                           Diag.Message.c_str());
}

Expected<Config> loadConfigFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(
        Buffer.getError(), "%s: error: cannot read configuration file: %s",
        Path.str().c_str(), Buffer.getError().message().c_str());
  return parseConfig((*Buffer)->getBuffer(), Path);
}

std::optional<std::string> findConfigFile(StringRef SourceFile) {
  SmallString<256> Dir(SourceFile);
  if (sys::fs::make_absolute(Dir))
    return std::nullopt;
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  sys::path::remove_filename(Dir);
  for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> Candidate(D);
    sys::path::append(Candidate, ".rematch.yaml");
    sys::fs::file_status Status;
    if (!sys::fs::status(Candidate, Status) &&
        Status.type() != sys::fs::file_type::directory_file)
      return std::string(Candidate);
  }
  return std::nullopt;
}

} // namespace clang::tidy::rematch
