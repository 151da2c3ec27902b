//===--- RematchTidyModule.cpp - registers the rematch checks -------------===//

#include "CacheWriteCheck.h"
#include "CounterUpdateCheck.h"
#include "GlobalReadCheck.h"
#include "IoCheck.h"
#include "LoggingCheck.h"
#include "NondeterminismCheck.h"
#include "StateWriteCheck.h"
#include "UnreplayedRngCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace clang::tidy::rematch {

class RematchModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
#define REMATCH_CHECK(Name, Class, Stem, Kind, Description)                    \
  static_assert(Class::Reports == EffectKind::Kind,                           \
                Name " must report the effect kind Checks.def gives it");     \
  Factories.registerCheck<Class>(Name);
#include "Checks.def"
  }
};

static ClangTidyModuleRegistry::Add<RematchModule>
    X("rematch-module", "Checks that activation-checkpoint recomputation "
                        "repeats the original forward exactly.");

} // namespace clang::tidy::rematch

// Referenced from the rematch program so the linker keeps this module (and
// its registration) when it comes from a static or object library.
// NOLINTNEXTLINE(misc-use-internal-linkage)
volatile int RematchModuleAnchorSource = 0;
