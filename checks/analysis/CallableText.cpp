//===--- CallableText.cpp - how messages name a checkpointed callable -----===//

#include "CallableText.h"
#include "DeclPath.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::rematch {

namespace {

std::string quote(llvm::StringRef S) { return ("'" + S + "'").str(); }

std::string callableKindText(const Callable &C) {
  switch (C.K) {
  case Callable::Lambda:
    return "checkpointed lambda";
  case Callable::Function:
    return "checkpointed function " + quote(C.Name);
  case Callable::Functor:
    return "checkpointed functor " + quote(C.Name);
  case Callable::Module:
    return "checkpointed module " + quote(C.Name);
  }
  return "checkpointed callable";
}

// The place a held callable was stored into: a variable, a member, or what
// a function returns ('make_step'; a lambda's result has no name).
std::string placeText(const NamedDecl &In) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&In);
  if (MD && MD->getParent()->isLambda())
    return "the result of a lambda";
  return quote(In.getNameAsString());
}

} // namespace

std::string callableText(const Callable &C) {
  std::string Text = callableKindText(C);
  if (!C.StoredIn)
    return Text;
  Text += " held by " + placeText(*C.StoredIn);
  if (C.Alternatives > 1)
    Text += " (may: one of " + std::to_string(C.Alternatives) +
            " callables it holds)";
  return Text;
}

std::string storedNoteText(const Callable &C) {
  if (!C.StoredIn)
    return {};
  const std::string Kind = callableKindText(C);
  return placeText(*C.StoredIn) + " holds the " +
         llvm::StringRef(Kind)
             .drop_front(llvm::StringRef("checkpointed ").size())
             .str() +
         " stored here";
}

} // namespace clang::tidy::rematch
