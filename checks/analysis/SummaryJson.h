//===--- SummaryJson.h - summaries' JSON, read and written ---*- C++ -*-===//
//
// A run reads every summary of the program, so reading one must cost little
// beside the parse of a file. llvm::json's values copy themselves whenever an
// array grows (their move is not noexcept), which made reading a summary
// cost a few hundred instructions per byte. These values move; an object is
// its members in file order.
//
// Strict: one value and nothing but white space after it, valid UTF-8, no
// duplicate keys, nesting at most MaxDepth deep; any error says where
// (byte offset) and what.
//
// Writing a summary is paid on every first run of a file: llvm::json::OStream
// writes through raw_ostream one character at a time (about a hundred
// instructions per byte, a tenth of the parse on a file with thousands of
// functions). Writer appends to a string and writes the same text.
//
//===----------------------------------------------------------------------===//
#ifndef REMATCH_CHECKS_SUMMARYJSON_H
#define REMATCH_CHECKS_SUMMARYJSON_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cassert>
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

// The text llvm::json::OStream writes with no indentation: no white space,
// the same escapes, invalid UTF-8 replaced as llvm::json::fixUTF8 does.
// Keys are written in the order given.
class Writer {
public:
  explicit Writer(std::string &Out) : Out(Out) {}

  template <class Body> void object(Body B) {
    open('{');
    B();
    close('}');
  }
  template <class Body> void array(Body B) {
    open('[');
    B();
    close(']');
  }
  template <class Body> void attributeObject(llvm::StringRef Key, Body B) {
    key(Key);
    object(B);
  }
  template <class Body> void attributeArray(llvm::StringRef Key, Body B) {
    key(Key);
    array(B);
  }
  // Key, then whatever B writes as its value.
  template <class Body> void attributeWith(llvm::StringRef Key, Body B) {
    key(Key);
    B();
  }
  template <class T> void attribute(llvm::StringRef Key, const T &V) {
    key(Key);
    value(V);
  }

  void value(llvm::StringRef S) {
    separate();
    quote(S);
  }
  void value(const std::string &S) { value(llvm::StringRef(S)); }
  void value(const char *S) { value(llvm::StringRef(S)); }
  void value(bool B) {
    separate();
    Out += B ? "true" : "false";
  }
  void value(int64_t I);
  void value(uint64_t I);
  void value(int I) { value(int64_t(I)); }
  void value(unsigned I) { value(uint64_t(I)); }
  void value(long long I) { value(int64_t(I)); }
  void value(unsigned long long I) { value(uint64_t(I)); }

private:
  void separate() {
    if (Comma)
      Out += ',';
    Comma = true;
  }
  void open(char C) {
    separate();
    Out += C;
    Comma = false;
  }
  void close(char C) {
    Out += C;
    Comma = true;
  }
  // Keys are the writer's own names: plain, written as they are.
  void key(llvm::StringRef Key) {
    assert(llvm::all_of(Key, [](char C) {
      return C >= 0x20 && C != '"' && C != '\\' && !(C & 0x80);
    }));
    if (Comma)
      Out += ',';
    Out += '"';
    Out += Key;
    Out += "\":";
    Comma = false;
  }
  void quote(llvm::StringRef S);

  std::string &Out;
  bool Comma = false; // a value was written where the next needs a ','
};

} // namespace clang::tidy::rematch::sj

#endif
