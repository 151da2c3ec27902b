//===--- UnreplayedRngCheck.cpp -------------------------------------------===//

#include "UnreplayedRngCheck.h"

namespace clang::tidy::rematch {

std::string UnreplayedRngCheck::describe(const EffectFacts &E) const {
  // A library's named source (models/*.yaml): what it is, through what.
  if (!E.RngSource.empty())
    return "draws from " + E.RngSourceText + " through " + quoted(E.Subject);
  return "draws from " + quoted(E.Subject) + ", which is not replayed";
}

std::string UnreplayedRngCheck::describeFor(const EffectFacts &E,
                                            const CheckpointSite &Site) const {
  if (!E.RngSource.empty())
    return describe(E) + ", which " + quoted(Site.EntryPoint) +
           " does not replay";
  return describe(E);
}

std::string UnreplayedRngCheck::consequence(const EffectFacts &E) const {
  if (!E.Draws.empty())
    return "the recomputation in backward draws a different " + E.Draws;
  return "the recomputation in backward draws different numbers";
}

std::string UnreplayedRngCheck::suggestion(const EffectFacts &E,
                                           const CheckpointSite &Site,
                                           ReplayerOf ReplayedBy) const {
  if (E.RngSource.empty())
    return {};
  std::string Declare = "declare what " + quoted(Site.EntryPoint) +
                        " replays in .rematch.yaml: CheckpointFunctions: "
                        "[{Name: " +
                        Site.EntryPoint + ", Replays: [" + E.RngSource + "]}]";
  const std::string Replayer = ReplayedBy(E.RngSource);
  if (Replayer.empty())
    return "if it saves and restores " + E.RngSourceText + ", " + Declare;
  return "checkpoint with " + quoted(Replayer) +
         ", which replays " + E.RngSourceText + "; or, if " +
         quoted(Site.EntryPoint) + " does, " + Declare;
}

} // namespace clang::tidy::rematch
