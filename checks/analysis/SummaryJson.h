//===--- SummaryJson.h - a small strict JSON reader for summaries -*- C++ -*-===//
//
// A run reads every summary of the program, so reading one must cost little
// beside the parse of a file. llvm::json's values copy themselves whenever an
// array grows (their move is not noexcept), which made reading a summary
// cost a few hundred instructions per byte. These values move; an object is
// its members in file order. The writer stays llvm::json (Summary.cpp).
//
// Strict: one value and nothing but white space after it, valid UTF-8, no
// duplicate keys, nesting at most MaxDepth deep; any error says where
// (byte offset) and what.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_SUMMARYJSON_H
#define REMATCH_CHECKS_SUMMARYJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::rematch::sj {

class Value;
struct Member;

class Object {
public:
  const Value *get(llvm::StringRef Key) const;
  std::optional<llvm::StringRef> getString(llvm::StringRef Key) const;
  std::optional<int64_t> getInteger(llvm::StringRef Key) const;
  std::optional<bool> getBoolean(llvm::StringRef Key) const;
  const std::vector<Value> *getArray(llvm::StringRef Key) const;

  std::vector<Member> Members;
};

using Array = std::vector<Value>;

class Value {
public:
  enum Kind { Null, Boolean, Integer, Number, String, ArrayKind, ObjectKind };

  const Object *getAsObject() const { return K == ObjectKind ? &O : nullptr; }
  const Array *getAsArray() const { return K == ArrayKind ? &A : nullptr; }
  std::optional<llvm::StringRef> getAsString() const {
    return K == String ? std::optional<llvm::StringRef>(S) : std::nullopt;
  }
  std::optional<int64_t> getAsInteger() const {
    return K == Integer ? std::optional<int64_t>(I) : std::nullopt;
  }
  std::optional<bool> getAsBoolean() const {
    return K == Boolean ? std::optional<bool>(I != 0) : std::nullopt;
  }

  Kind K = Null;
  int64_t I = 0; // Integer, and Boolean (0 or 1)
  std::string S;
  Array A;
  Object O;
};

struct Member {
  std::string Key;
  Value V;
};

inline constexpr unsigned MaxDepth = 64;

llvm::Expected<Value> parse(llvm::StringRef Text);

} // namespace clang::tidy::rematch::sj

#endif
