// FactsPool: effects that say the same thing share one record, effects that
// differ in any word do not, and a record stays where it is however many
// come after it.

#include "Effect.h"
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace clang::tidy::rematch;

namespace {

EffectFacts facts(EffectKind K, std::string Subject, std::string Detail = "") {
  EffectFacts F;
  F.Kind = K;
  F.Subject = std::move(Subject);
  F.Detail = std::move(Detail);
  return F;
}

TEST(FactsPool, TheSameFactsAreKeptOnce) {
  FactsPool Pool;
  const EffectFacts *A = Pool.intern(facts(EffectKind::GlobalRead, "g_scale"));
  const EffectFacts *B = Pool.intern(facts(EffectKind::GlobalRead, "g_scale"));
  EXPECT_EQ(A, B);
  EXPECT_EQ(A->Subject, "g_scale");
  EXPECT_EQ(A->Kind, EffectKind::GlobalRead);
}

TEST(FactsPool, AnyDifferentWordIsAnotherRecord) {
  FactsPool Pool;
  EffectFacts Base = facts(EffectKind::UnreplayedRng, "torch::rand", "draw");
  const EffectFacts *First = Pool.intern(Base);
  std::vector<EffectFacts> Variants(7, Base);
  Variants[0].Kind = EffectKind::Logging;
  Variants[1].Subject = "torch::randn";
  Variants[2].Detail = "";
  Variants[3].RngSource = "torch.default";
  Variants[4].RngSourceText = "torch's default generator";
  Variants[5].Draws = "mask";
  Variants[6].May = "in training mode";
  for (const EffectFacts &V : Variants) {
    const EffectFacts *P = Pool.intern(V);
    EXPECT_NE(P, First) << V.Subject << " " << V.Detail;
    EXPECT_EQ(Pool.intern(V), P); // and itself once
  }
  EXPECT_EQ(Pool.intern(Base), First);
}

TEST(FactsPool, RecordsDoNotMoveAsThePoolGrows) {
  FactsPool Pool;
  const EffectFacts *First = Pool.intern(facts(EffectKind::StateWrite, "w"));
  for (int I = 0; I < 10000; ++I) // many rehashes
    Pool.intern(facts(EffectKind::StateWrite, "v" + std::to_string(I)));
  EXPECT_EQ(First->Subject, "w");
  EXPECT_EQ(Pool.intern(facts(EffectKind::StateWrite, "w")), First);
}

} // namespace
