//===--- SummaryJson.cpp - summaries' JSON, read and written -------------===//

#include "SummaryJson.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/JSON.h"
#include <charconv>

namespace clang::tidy::rematch::sj {

const Value *Object::get(llvm::StringRef Key) const {
  for (const Member &M : Members)
    if (M.Key == Key)
      return &M.V;
  return nullptr;
}

std::optional<llvm::StringRef> Object::getString(llvm::StringRef Key) const {
  const Value *V = get(Key);
  return V ? V->getAsString() : std::nullopt;
}

std::optional<int64_t> Object::getInteger(llvm::StringRef Key) const {
  const Value *V = get(Key);
  return V ? V->getAsInteger() : std::nullopt;
}

std::optional<bool> Object::getBoolean(llvm::StringRef Key) const {
  const Value *V = get(Key);
  return V ? V->getAsBoolean() : std::nullopt;
}

const Array *Object::getArray(llvm::StringRef Key) const {
  const Value *V = get(Key);
  return V ? V->getAsArray() : nullptr;
}

namespace {

class Parser {
public:
  explicit Parser(llvm::StringRef Text) : Text(Text) {}

  llvm::Expected<Value> document() {
    Value V;
    if (!value(V, 0))
      return error();
    space();
    if (P != Text.size()) {
      fail("text after the value");
      return error();
    }
    return V;
  }

private:
  llvm::Error error() const {
    return llvm::createStringError("JSON: " + Problem + " at byte " +
                                   std::to_string(At));
  }

  bool fail(const char *What) {
    if (Problem.empty()) {
      Problem = What;
      At = P;
    }
    return false;
  }

  // Consumes C if it comes next.
  bool eat(char C) {
    if (P == Text.size() || Text[P] != C)
      return false;
    ++P;
    return true;
  }

  void space() {
    while (P < Text.size() && (Text[P] == ' ' || Text[P] == '\n' ||
                               Text[P] == '\t' || Text[P] == '\r'))
      ++P;
  }

  bool literal(llvm::StringRef Word) {
    if (!Text.substr(P).starts_with(Word))
      return fail("unknown literal");
    P += Word.size();
    return true;
  }

  bool value(Value &V, unsigned Depth) {
    if (Depth > MaxDepth)
      return fail("nesting too deep");
    space();
    if (P == Text.size())
      return fail("unexpected end");
    switch (Text[P]) {
    case '{':
      V.K = Value::ObjectKind;
      return object(V.O, Depth);
    case '[':
      V.K = Value::ArrayKind;
      return array(V.A, Depth);
    case '"':
      V.K = Value::String;
      return string(V.S);
    case 't':
      V.K = Value::Boolean;
      V.I = 1;
      return literal("true");
    case 'f':
      V.K = Value::Boolean;
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number(V);
    }
  }

  bool object(Object &O, unsigned Depth) {
    ++P; // '{'
    space();
    if (eat('}'))
      return true;
    while (true) {
      space();
      if (P == Text.size() || Text[P] != '"')
        return fail("expected a key");
      Member M;
      size_t KeyAt = P;
      if (!string(M.Key))
        return false;
      if (O.get(M.Key)) {
        P = KeyAt;
        return fail("duplicate key");
      }
      space();
      if (!eat(':'))
        return fail("expected ':'");
      if (!value(M.V, Depth + 1))
        return false;
      O.Members.push_back(std::move(M));
      space();
      if (eat(','))
        continue;
      if (eat('}'))
        return true;
      return fail("expected ',' or '}'");
    }
  }

  bool array(Array &A, unsigned Depth) {
    ++P; // '['
    space();
    if (eat(']'))
      return true;
    while (true) {
      A.emplace_back();
      if (!value(A.back(), Depth + 1))
        return false;
      space();
      if (eat(','))
        continue;
      if (eat(']'))
        return true;
      return fail("expected ',' or ']'");
    }
  }

  // Four hex digits after "\u".
  bool hex4(unsigned &Out) {
    if (P + 4 > Text.size())
      return fail("truncated \\u escape");
    Out = 0;
    for (unsigned I = 0; I < 4; ++I) {
      unsigned D = llvm::hexDigitValue(Text[P + I]);
      if (D == ~0U)
        return fail("bad \\u escape");
      Out = Out * 16 + D;
    }
    P += 4;
    return true;
  }

  bool escape(std::string &Out) {
    if (P == Text.size())
      return fail("unexpected end");
    char C = Text[P++];
    switch (C) {
    case '"': case '\\': case '/':
      Out += C;
      return true;
    case 'b': Out += '\b'; return true;
    case 'f': Out += '\f'; return true;
    case 'n': Out += '\n'; return true;
    case 'r': Out += '\r'; return true;
    case 't': Out += '\t'; return true;
    case 'u': {
      unsigned U;
      if (!hex4(U))
        return false;
      if (U >= 0xD800 && U < 0xDC00) { // a surrogate pair
        unsigned Low;
        if (!Text.substr(P).starts_with("\\u"))
          return fail("lone surrogate");
        P += 2;
        if (!hex4(Low) || Low < 0xDC00 || Low >= 0xE000)
          return fail("lone surrogate");
        U = 0x10000 + ((U - 0xD800) << 10) + (Low - 0xDC00);
      } else if (U >= 0xDC00 && U < 0xE000) {
        return fail("lone surrogate");
      }
      char Buf[4];
      char *End = Buf;
      if (!llvm::ConvertCodePointToUTF8(U, End))
        return fail("bad code point");
      Out.append(Buf, End);
      return true;
    }
    default:
      return fail("bad escape");
    }
  }

  bool string(std::string &Out) {
    ++P; // '"'
    size_t Start = P;
    // The common case, no escape: one append.
    while (P < Text.size() && Text[P] != '"' && Text[P] != '\\' &&
           static_cast<unsigned char>(Text[P]) >= 0x20)
      ++P;
    Out.assign(Text.data() + Start, P - Start);
    while (P < Text.size()) {
      char C = Text[P];
      if (C == '"') {
        ++P;
        return true;
      }
      if (static_cast<unsigned char>(C) < 0x20)
        return fail("control character in a string");
      ++P;
      if (C == '\\') {
        if (!escape(Out))
          return false;
      } else {
        Out += C;
      }
    }
    return fail("unterminated string");
  }

  bool number(Value &V) {
    size_t Start = P;
    eat('-');
    if (P == Text.size() || !llvm::isDigit(Text[P]))
      return fail("unexpected character");
    if (Text[P] == '0' && P + 1 < Text.size() && llvm::isDigit(Text[P + 1]))
      return fail("leading zero");
    while (P < Text.size() && llvm::isDigit(Text[P]))
      ++P;
    bool Fraction = false;
    if (eat('.')) {
      Fraction = true;
      if (P == Text.size() || !llvm::isDigit(Text[P]))
        return fail("bad number");
      while (P < Text.size() && llvm::isDigit(Text[P]))
        ++P;
    }
    if (P < Text.size() && (Text[P] == 'e' || Text[P] == 'E')) {
      Fraction = true;
      ++P;
      if (P < Text.size() && (Text[P] == '+' || Text[P] == '-'))
        ++P;
      if (P == Text.size() || !llvm::isDigit(Text[P]))
        return fail("bad number");
      while (P < Text.size() && llvm::isDigit(Text[P]))
        ++P;
    }
    // Summaries hold integers only; another number is kept as such, and a
    // reader that wants an integer finds none.
    V.K = Value::Number;
    if (!Fraction && !Text.slice(Start, P).getAsInteger(10, V.I))
      V.K = Value::Integer;
    return true;
  }

  llvm::StringRef Text;
  size_t P = 0;
  std::string Problem;
  size_t At = 0;
};

} // namespace

llvm::Expected<Value> parse(llvm::StringRef Text) {
  if (!llvm::json::isUTF8(Text))
    return llvm::createStringError("JSON: invalid UTF-8");
  return Parser(Text).document();
}

// --- Writer -----------------------------------------------------------------

void Writer::value(int64_t I) {
  separate();
  char Buf[24];
  Out.append(Buf, std::to_chars(Buf, Buf + sizeof Buf, I).ptr);
}

void Writer::value(uint64_t I) {
  separate();
  char Buf[24];
  Out.append(Buf, std::to_chars(Buf, Buf + sizeof Buf, I).ptr);
}

namespace {

// Whether a byte is written escaped: '"', '\\' and control characters.
struct EscapeTable {
  bool Escaped[256] = {};
  constexpr EscapeTable() {
    for (int C = 0; C < 0x20; ++C)
      Escaped[C] = true;
    Escaped[int('"')] = Escaped[int('\\')] = true;
  }
};
constexpr EscapeTable Escapes;

} // namespace

// llvm::json's escapes: '"' and '\\' after a backslash, \t \n \r, any other
// control character as \u00xx (lower-case hex); every other byte as it is.
void Writer::quote(llvm::StringRef S) {
  if (LLVM_UNLIKELY(!llvm::json::isUTF8(S))) {
    std::string Fixed = llvm::json::fixUTF8(S);
    quote(Fixed);
    return;
  }
  Out += '"';
  const char *P = S.data(), *E = P + S.size();
  const char *Plain = P; // the start of the run not yet appended
  for (; P != E; ++P) {
    unsigned char C = *P;
    if (LLVM_LIKELY(!Escapes.Escaped[C]))
      continue;
    Out.append(Plain, P);
    Plain = P + 1;
    Out += '\\';
    switch (C) {
    case '"':
    case '\\':
      Out += char(C);
      break;
    case '\t':
      Out += 't';
      break;
    case '\n':
      Out += 'n';
      break;
    case '\r':
      Out += 'r';
      break;
    default:
      Out += "u00";
      Out += llvm::hexdigit(C >> 4, /*LowerCase=*/true);
      Out += llvm::hexdigit(C & 15, /*LowerCase=*/true);
    }
  }
  Out.append(Plain, E);
  Out += '"';
}

} // namespace clang::tidy::rematch::sj
