//===--- OutputHtml.cpp - a self-contained HTML report --------------------===//
//
// For a person opening a CI artifact: one file, no network (inline style and
// script, system fonts), readable without the script. Findings are grouped by
// file, then by the checkpoint call that makes the code run twice; each shows
// its code and its call chain from the checkpoint call to the effect, with
// the code of every step. The script only filters by check.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>

using namespace llvm;

namespace rematch::tool {
namespace {

constexpr StringLiteral SitePrefix = "callable is checkpointed by";

constexpr const char *Style = R"css(
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e;
  --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0; --hl: #fff8c5;
  --warn: #9a6700; --err: #cf222e; --link: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1;
  --bg: #0d1117; --panel: #151b23; --line: #3d444d; --hl: #3b2e00;
  --warn: #d29922; --err: #f85149; --link: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
a { color: var(--link); }
h1 { font-size: 1.6rem; margin: .5rem 0; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .25rem;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; font-weight: 600; margin: 1.25rem 0 .5rem; }
code, pre { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "DejaVu Sans Mono", monospace; }
h2 code, h3 code { font-size: .95em; }
.muted { color: var(--muted); }
table.counts { border-collapse: collapse; margin: .5rem 0 1rem; }
table.counts td, table.counts th { padding: .2rem .8rem; text-align: left;
  border-bottom: 1px solid var(--line); }
table.counts td.count, table.counts th.count { text-align: right; }
.buttons button { font: inherit; margin-right: .4rem; }
.failure { border-left: 4px solid var(--err); background: var(--panel);
  padding: .5rem 1rem; margin: .5rem 0; }
.site { margin-left: .25rem; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--warn);
  border-radius: 6px; background: var(--panel); padding: .6rem 1rem;
  margin: .6rem 0 1rem; }
.finding.error { border-left-color: var(--err); }
.finding .head { display: flex; flex-wrap: wrap; gap: .25rem .8rem;
  align-items: baseline; }
.check { font-weight: 600; }
.level { text-transform: uppercase; font-size: .75rem; font-weight: 700;
  color: var(--warn); }
.finding.error .level { color: var(--err); }
.message { margin: .4rem 0; font-size: 1.02rem; }
pre.code { background: var(--bg); border: 1px solid var(--line);
  border-radius: 4px; padding: .3rem 0; margin: .3rem 0; overflow-x: auto; }
pre.code span.ln { display: inline-block; min-width: 3.5em; padding: 0 .8em;
  text-align: right; color: var(--muted); user-select: none; }
pre.code .at { background: var(--hl); display: block; }
pre.code span.src { white-space: pre; }
ol.chain { margin: .4rem 0 .2rem; padding-left: 1.6rem; }
ol.chain li { margin: .5rem 0; }
.step-loc { font-size: .85rem; }
.fingerprint { font-size: .75rem; }
[hidden] { display: none !important; }
)css";

// Filters by check: #check=a,b in the address preselects checks.
constexpr const char *Script = R"js(
(function () {
  var boxes = Array.prototype.slice.call(
      document.querySelectorAll('input.check-filter'));
  function apply() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var shown = 0;
    document.querySelectorAll('article.finding').forEach(function (a) {
      var visible = on[a.getAttribute('data-check')] === true;
      a.hidden = !visible;
      if (visible) shown++;
    });
    document.querySelectorAll('section.site, section.file').forEach(
        function (s) {
      s.hidden = !s.querySelector('article.finding:not([hidden])');
    });
    document.getElementById('shown-count').textContent = String(shown);
  }
  var m = /(?:^#|&)check=([^&]*)/.exec(location.hash);
  if (m) {
    var wanted = decodeURIComponent(m[1]).split(',');
    boxes.forEach(function (b) { b.checked = wanted.indexOf(b.value) >= 0; });
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  function setAll(v) { boxes.forEach(function (b) { b.checked = v; }); apply(); }
  document.getElementById('show-all').addEventListener('click',
      function () { setAll(true); });
  document.getElementById('show-none').addEventListener('click',
      function () { setAll(false); });
  apply();
})();
)js";

std::string escape(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string locationText(const Location &Loc) {
  std::string S = Loc.File;
  if (Loc.Line != 0) {
    S += ":" + std::to_string(Loc.Line);
    if (Loc.Column != 0)
      S += ":" + std::to_string(Loc.Column);
  }
  return S;
}

bool isSiteNote(const Note &N) {
  return StringRef(N.Message).starts_with(SitePrefix);
}

// The note naming the checkpoint call; the checks emit it last.
const Note *siteOf(const Finding &F) {
  for (auto It = F.Notes.rbegin(); It != F.Notes.rend(); ++It)
    if (isSiteNote(*It))
      return &*It;
  return nullptr;
}

class HtmlWriter {
public:
  HtmlWriter(raw_ostream &OS, const Results &R,
             const std::vector<RuleInfo> &Rules, const SourceReader &Read)
      : OS(OS), R(R), Read(Read) {
    for (const RuleInfo &Rule : Rules)
      HelpUris[Rule.Id] = Rule.HelpUri;
  }

  void write() {
    std::vector<std::string> Fingerprints = fingerprints(R.Findings);
    OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n<meta name=\"viewport\" "
          "content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"rematch " REMATCH_VERSION
          "\">\n<title>rematch report</title>\n<style>"
       << Style << "</style>\n</head>\n<body>\n";
    writeHeader();
    writeFailures();
    OS << "<main>\n";
    writeFindings(Fingerprints);
    OS << "</main>\n<script>" << Script << "</script>\n</body>\n</html>\n";
  }

private:
  void writeHeader() {
    std::map<std::string, unsigned> Counts;
    std::vector<std::string> Files;
    for (const Finding &F : R.Findings) {
      ++Counts[F.Check];
      if (Files.empty() || Files.back() != F.Loc.File)
        Files.push_back(F.Loc.File);
    }
    size_t Failed = 0;
    for (const FileStatus &File : R.Files)
      Failed += File.Status == FileStatus::State::Failed;
    size_t N = R.Findings.size();
    OS << "<header>\n<h1>rematch report</h1>\n<p class=\"summary\">" << N
       << (N == 1 ? " finding" : " findings") << " in " << Files.size()
       << (Files.size() == 1 ? " file" : " files") << "; " << R.Files.size()
       << (R.Files.size() == 1 ? " input file" : " input files");
    if (Failed)
      OS << ", " << Failed << " not analysed";
    OS << ".</p>\n";
    if (Counts.empty()) {
      OS << "<p id=\"no-findings\">No findings.</p>\n<p hidden>Showing <span "
            "id=\"shown-count\">0</span></p><p hidden><button "
            "id=\"show-all\"></button><button "
            "id=\"show-none\"></button></p>\n</header>\n";
      return;
    }
    OS << "<table class=\"counts\" id=\"counts\">\n<thead><tr><th>show</th>"
          "<th>check</th><th class=\"count\">findings</th></tr></thead>\n"
          "<tbody>\n";
    for (const auto &[Check, Count] : Counts) {
      std::string Id = "filter-" + escape(Check);
      OS << "<tr data-check=\"" << escape(Check) << "\"><td><input "
         << "type=\"checkbox\" class=\"check-filter\" id=\"" << Id
         << "\" value=\"" << escape(Check)
         << "\" checked></td><td><label for=\"" << Id << "\">";
      auto It = HelpUris.find(Check);
      if (It != HelpUris.end() && !It->second.empty())
        OS << "<a href=\"" << escape(It->second) << "\">" << escape(Check)
           << "</a>";
      else
        OS << escape(Check);
      OS << "</label></td><td class=\"count\">" << Count << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n<p class=\"buttons\"><button type=\"button\" "
          "id=\"show-all\">all checks</button><button type=\"button\" "
          "id=\"show-none\">no checks</button> Showing <span "
          "id=\"shown-count\">"
       << N << "</span> of " << N << " findings.</p>\n</header>\n";
  }

  void writeFailures() {
    bool Any = false;
    for (const FileStatus &File : R.Files) {
      if (File.Status != FileStatus::State::Failed)
        continue;
      if (!Any)
        OS << "<section id=\"failures\">\n<h2>Files not analysed</h2>\n";
      Any = true;
      OS << "<div class=\"failure\"><p><code>" << escape(File.File)
         << "</code>: file could not be analysed</p>";
      if (!File.Errors.empty()) {
        OS << "<pre>";
        for (const std::string &E : File.Errors)
          OS << escape(E) << "\n";
        OS << "</pre>";
      }
      OS << "</div>\n";
    }
    if (Any)
      OS << "</section>\n";
  }

  // Findings are sorted by file; within a file, sites in order of first
  // appearance, findings in report order.
  void writeFindings(const std::vector<std::string> &Fingerprints) {
    size_t I = 0;
    while (I < R.Findings.size()) {
      const std::string &File = R.Findings[I].Loc.File;
      size_t End = I;
      while (End < R.Findings.size() && R.Findings[End].Loc.File == File)
        ++End;
      std::vector<std::string> SiteOrder;
      std::map<std::string, std::vector<size_t>> BySite;
      std::map<std::string, const Note *> SiteNote;
      for (size_t J = I; J < End; ++J) {
        const Note *Site = siteOf(R.Findings[J]);
        std::string Key = Site ? locationText(Site->Loc) : "";
        auto [It, New] = BySite.try_emplace(Key);
        if (New) {
          SiteOrder.push_back(Key);
          SiteNote[Key] = Site;
        }
        It->second.push_back(J);
      }
      OS << "<section class=\"file\" data-file=\"" << escape(File)
         << "\">\n<h2><code>" << escape(File) << "</code> <span "
         << "class=\"muted\">" << (End - I)
         << (End - I == 1 ? " finding" : " findings") << "</span></h2>\n";
      for (const std::string &Key : SiteOrder) {
        writeSite(SiteNote[Key], BySite[Key], Fingerprints);
      }
      OS << "</section>\n";
      I = End;
    }
  }

  void writeSite(const Note *Site, const std::vector<size_t> &Members,
                 const std::vector<std::string> &Fingerprints) {
    OS << "<section class=\"site\">\n<h3>";
    if (Site)
      OS << "Checkpointed at <code>" << escape(locationText(Site->Loc))
         << "</code>";
    else
      OS << "No checkpoint call named";
    OS << " <span class=\"muted\">" << Members.size()
       << (Members.size() == 1 ? " finding" : " findings") << "</span></h3>\n";
    if (Site)
      writeCode(Site->Loc, 0, "");
    for (size_t J : Members)
      writeFinding(J, Fingerprints[J]);
    OS << "</section>\n";
  }

  void writeFinding(size_t Index, const std::string &Fingerprint) {
    const Finding &F = R.Findings[Index];
    bool Error = F.Level == "error";
    OS << "<article class=\"finding" << (Error ? " error" : "")
       << "\" id=\"finding-" << Index + 1 << "\" data-check=\""
       << escape(F.Check) << "\">\n<div class=\"head\"><span "
       << "class=\"level\">" << (Error ? "error" : "warning")
       << "</span><span class=\"check\">" << escape(F.Check)
       << "</span><code class=\"loc\">" << escape(locationText(F.Loc))
       << "</code></div>\n<p class=\"message\">" << escape(F.Message)
       << "</p>\n";
    writeCode(F.Loc, 2, F.SourceLine);
    // The chain as it runs: the checkpoint call, the checkpointed code's
    // call (the finding), then each call down to the effect.
    const Note *Site = siteOf(F);
    std::vector<std::pair<const Location *, const std::string *>> Steps;
    if (Site)
      Steps.push_back({&Site->Loc, &Site->Message});
    Steps.push_back({&F.Loc, &F.Message});
    for (const Note &N : F.Notes)
      if (&N != Site)
        Steps.push_back({&N.Loc, &N.Message});
    if (Steps.size() > 1) {
      OS << "<details class=\"chain\" open><summary>call chain, "
         << Steps.size() << " steps</summary>\n<ol class=\"chain\">\n";
      for (const auto &[Loc, Message] : Steps) {
        OS << "<li class=\"step\"><div class=\"step-loc\"><code>"
           << escape(locationText(*Loc))
           << "</code></div><div class=\"step-message\">" << escape(*Message)
           << "</div>";
        writeCode(*Loc, 0, Loc == &F.Loc ? F.SourceLine : "");
        OS << "</li>\n";
      }
      OS << "</ol>\n</details>\n";
    }
    OS << "<p class=\"fingerprint muted\">fingerprint <code>"
       << escape(Fingerprint) << "</code></p>\n</article>\n";
  }

  // Lines Loc.Line - Context .. Loc.Line + Context, the finding's marked.
  // Without the file, the known source line alone, or nothing.
  void writeCode(const Location &Loc, unsigned Context, StringRef Known) {
    if (Loc.Line == 0)
      return;
    const std::vector<std::string> *Lines = linesOf(Loc.File);
    unsigned First = Loc.Line > Context ? Loc.Line - Context : 1;
    unsigned Last = Loc.Line + Context;
    if (!Lines || Loc.Line > Lines->size()) {
      if (Known.empty())
        return;
      First = Last = Loc.Line;
    } else if (Last > Lines->size()) {
      Last = Lines->size();
    }
    OS << "<pre class=\"code\">";
    for (unsigned L = First; L <= Last; ++L) {
      StringRef Text =
          Lines && L <= Lines->size() ? StringRef((*Lines)[L - 1]) : Known;
      OS << "<span class=\"" << (L == Loc.Line ? "at" : "line")
         << "\"><span class=\"ln\">" << L << "</span><span class=\"src\">"
         << escape(Text) << "</span></span>";
      if (L != Loc.Line)
        OS << "\n";
    }
    OS << "</pre>\n";
  }

  const std::vector<std::string> *linesOf(const std::string &File) {
    auto [It, New] = Sources.try_emplace(File);
    if (New) {
      std::optional<std::string> Text = Read ? Read(File) : std::nullopt;
      if (Text) {
        SmallVector<StringRef, 0> Split;
        StringRef(*Text).split(Split, '\n');
        std::vector<std::string> Lines;
        for (StringRef L : Split)
          Lines.push_back(L.rtrim('\r').str());
        It->second = std::move(Lines);
      }
    }
    return It->second ? &*It->second : nullptr;
  }

  raw_ostream &OS;
  const Results &R;
  const SourceReader &Read;
  std::map<std::string, std::string> HelpUris;
  std::map<std::string, std::optional<std::vector<std::string>>> Sources;
};

} // namespace

std::optional<std::string> readSourceFile(StringRef File) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(
      File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

void writeHtml(raw_ostream &OS, const Results &R,
               const std::vector<RuleInfo> &Rules, const SourceReader &Read) {
  HtmlWriter(OS, R, Rules, Read).write();
}

} // namespace rematch::tool
