//===--- SampleResults.h - one Results exercising every writer feature ----===//
//
// Shared by the SARIF tests and the sample the schema test validates, so the
// file checked against the schema is the one whose fields the tests assert.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_TESTS_UNIT_SAMPLERESULTS_H
#define REMATCH_TESTS_UNIT_SAMPLERESULTS_H

#include "Finding.h"

namespace rematch::tool::test {

// Two findings (one with notes, one an error in an absolute path with a
// space), one analysed and one failed file.
inline Results sampleResults() {
  Results R;
  R.Files.push_back({"src/model.cpp", FileStatus::State::Analysed, {}});
  R.Files.push_back({"/work/my project/broken.cpp",
                     FileStatus::State::Failed,
                     {"/work/my project/broken.cpp:3:1: error: unknown type "
                      "name 'foo'"}});

  Finding Log;
  Log.Check = "rematch-logging";
  Log.Message = "checkpointed code logs; the recomputation logs again";
  Log.Loc = {"src/model.cpp", 12, 5};
  Log.SourceLine = "    log(\"step\");";
  Log.Notes.push_back({{"src/model.cpp", 20, 3}, "checkpointed here"});
  Log.Notes.push_back({{"src/model.cpp", 8, 1}, "function defined here"});
  R.Findings.push_back(Log);

  Finding Counter;
  Counter.Check = "rematch-counter-update";
  Counter.Level = "error";
  Counter.Message = "'Steps' is incremented in checkpointed code";
  Counter.Loc = {"/work/my project/lib \xC3\xBC.cpp", 4, 3};
  Counter.SourceLine = "  ++Steps;";
  R.Findings.push_back(Counter);
  return R;
}

inline std::vector<RuleInfo> sampleRules() {
  return {{"rematch-counter-update",
           "checkpointed code increments or compound-assigns outside state; "
           "the recomputation does it again",
           "https://example.org/docs/checks/counter-update.md"},
          {"rematch-logging",
           "checkpointed code logs; the recomputation logs again",
           "https://example.org/docs/checks/logging.md"}};
}

} // namespace rematch::tool::test

#endif
