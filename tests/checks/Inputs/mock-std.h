// A minimal stand-in for the parts of the C and C++ standard libraries (and
// of POSIX) that the rematch checks know about. The check tests compile
// against this instead of the host's library so they do not change with it;
// the declarations follow libstdc++/glibc closely enough that the checks see
// the same qualified names, class templates and typedefs.
#ifndef REMATCH_TEST_MOCK_STD_H
#define REMATCH_TEST_MOCK_STD_H

typedef decltype(sizeof(0)) size_t;
typedef long ssize_t;
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;

// ---- C and POSIX -----------------------------------------------------------
extern "C" {
typedef struct _IO_FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
// glibc defines the standard streams as macros naming themselves.
#define stdin stdin
#define stdout stdout
#define stderr stderr

int printf(const char *fmt, ...);
int fprintf(FILE *stream, const char *fmt, ...);
int sprintf(char *buf, const char *fmt, ...);
int snprintf(char *buf, size_t n, const char *fmt, ...);
int puts(const char *s);
int putchar(int c);
void perror(const char *s);
FILE *fopen(const char *path, const char *mode);
FILE *freopen(const char *path, const char *mode, FILE *stream);
int fclose(FILE *stream);
size_t fread(void *ptr, size_t size, size_t n, FILE *stream);
size_t fwrite(const void *ptr, size_t size, size_t n, FILE *stream);
int fputs(const char *s, FILE *stream);
int fputc(int c, FILE *stream);
char *fgets(char *s, int n, FILE *stream);
int fscanf(FILE *stream, const char *fmt, ...);
int remove(const char *path);
int rename(const char *from, const char *to);
FILE *popen(const char *command, const char *mode);
int pclose(FILE *stream);

int system(const char *command);
char *getenv(const char *name);
int rand(void);
void srand(unsigned seed);
long random(void);
double drand48(void);
long lrand48(void);
long mrand48(void);
int abs(int x);

struct timespec {
  time_t tv_sec;
  long tv_nsec;
};
struct timeval {
  time_t tv_sec;
  long tv_usec;
};
struct timezone;
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
time_t time(time_t *t);
clock_t clock(void);
int clock_gettime(clockid_t id, struct timespec *ts);
int gettimeofday(struct timeval *tv, struct timezone *tz);

#define O_RDONLY 0
#define O_WRONLY 1
#define O_CREAT 0100
int open(const char *path, int flags, ...);
int close(int fd);
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);

#define LOG_INFO 6
#define LOG_ERR 3
void syslog(int priority, const char *fmt, ...);

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strlen(const char *s);
}

namespace std {
using ::size_t;
using ::FILE;
using ::printf;
using ::fprintf;
using ::snprintf;
using ::puts;
using ::putchar;
using ::perror;
using ::fopen;
using ::fclose;
using ::fread;
using ::fwrite;
using ::fputs;
using ::fgets;
using ::remove;
using ::rename;
using ::system;
using ::getenv;
using ::rand;
using ::srand;
using ::abs;
using ::time;
using ::clock;
using ::time_t;
using ::memcpy;
using ::memmove;
using ::memset;
using ::strlen;

// ---- utility ---------------------------------------------------------------
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> struct remove_reference<T &&> { typedef T type; };
template <class T>
constexpr T &&forward(typename remove_reference<T>::type &t) noexcept {
  return static_cast<T &&>(t);
}
template <class T>
constexpr T &&forward(typename remove_reference<T>::type &&t) noexcept {
  return static_cast<T &&>(t);
}
template <class T>
constexpr typename remove_reference<T>::type &&move(T &&t) noexcept {
  return static_cast<typename remove_reference<T>::type &&>(t);
}
template <class T> constexpr const T &as_const(T &t) noexcept { return t; }
template <class A, class B> struct pair {
  A first;
  B second;
};
template <class T> struct less {
  bool operator()(const T &a, const T &b) const { return a < b; }
};
template <class T> struct hash {
  size_t operator()(const T &) const { return 0; }
};
template <class T> struct equal_to {
  bool operator()(const T &a, const T &b) const { return a == b; }
};
template <class T> class allocator {};
template <class CharT> struct char_traits {};

template <class T> class shared_ptr {
public:
  shared_ptr() noexcept {}
  T *operator->() const noexcept { return ptr_; }
  T &operator*() const noexcept { return *ptr_; }
  T *get() const noexcept { return ptr_; }

private:
  T *ptr_ = nullptr;
};

// ---- strings ---------------------------------------------------------------
template <class CharT, class Traits = char_traits<CharT>,
          class Alloc = allocator<CharT>>
class basic_string {
public:
  basic_string() {}
  basic_string(const CharT *) {}
  basic_string(const basic_string &) {}
  basic_string &operator=(const basic_string &) { return *this; }
  basic_string &operator=(const CharT *) { return *this; }
  basic_string &operator+=(const CharT *) { return *this; }
  const CharT *c_str() const { return nullptr; }
  size_t size() const { return 0; }
  bool empty() const { return true; }
  void push_back(CharT) {}
  void clear() {}
  void resize(size_t) {}
  basic_string &append(const CharT *) { return *this; }
  CharT &operator[](size_t) { return c_; }
  const CharT &operator[](size_t) const { return c_; }

private:
  CharT c_{};
};
typedef basic_string<char> string;

// ---- containers ------------------------------------------------------------
template <class T, class Alloc = allocator<T>> class vector {
public:
  typedef T *iterator;
  typedef const T *const_iterator;
  vector() {}
  explicit vector(size_t) {}
  vector(const vector &) {}
  vector &operator=(const vector &) { return *this; }
  void push_back(const T &) {}
  template <class... Args> T &emplace_back(Args &&...) { return *data_; }
  iterator insert(const_iterator pos, const T &) { return data_; }
  template <class... Args> iterator emplace(const_iterator, Args &&...) {
    return data_;
  }
  iterator erase(const_iterator) { return data_; }
  void clear() {}
  void resize(size_t) {}
  void reserve(size_t) {}
  T &operator[](size_t) { return *data_; }
  const T &operator[](size_t) const { return *data_; }
  T &at(size_t) { return *data_; }
  const T &at(size_t) const { return *data_; }
  T &back() { return *data_; }
  const T &back() const { return *data_; }
  T &front() { return *data_; }
  const T &front() const { return *data_; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  size_t size() const { return 0; }
  bool empty() const { return true; }
  iterator begin() { return data_; }
  iterator end() { return data_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_; }

private:
  T *data_ = nullptr;
};

template <class T, class Alloc = allocator<T>> class deque {
public:
  void push_back(const T &) {}
  void push_front(const T &) {}
  template <class... Args> T &emplace_back(Args &&...) { return *data_; }
  void clear() {}
  void resize(size_t) {}
  T &operator[](size_t) { return *data_; }
  size_t size() const { return 0; }

private:
  T *data_ = nullptr;
};

template <class T, class Alloc = allocator<T>> class list {
public:
  void push_back(const T &) {}
  template <class... Args> T &emplace_back(Args &&...) { return *data_; }
  void clear() {}
  size_t size() const { return 0; }

private:
  T *data_ = nullptr;
};

template <class T, class Alloc = allocator<T>> class forward_list {
public:
  void push_front(const T &) {}
  void clear() {}
  bool empty() const { return true; }
};

// libstdc++ declares each associative container's members in the container
// itself (over a private _Rb_tree or _Hashtable), so the mock does too.
#define REMATCH_MOCK_MAP_MEMBERS(Key, T)                                       \
public:                                                                        \
  typedef pair<const Key, T> value_type;                                       \
  typedef value_type *iterator;                                                \
  typedef const value_type *const_iterator;                                    \
  pair<iterator, bool> insert(const value_type &) { return {}; }               \
  template <class... Args> pair<iterator, bool> emplace(Args &&...) {          \
    return {};                                                                 \
  }                                                                            \
  size_t erase(const Key &) { return 0; }                                      \
  void clear() {}                                                              \
  iterator find(const Key &) { return nullptr; }                               \
  const_iterator find(const Key &) const { return nullptr; }                   \
  size_t count(const Key &) const { return 0; }                                \
  size_t size() const { return 0; }                                            \
  bool empty() const { return true; }                                          \
  iterator begin() { return nullptr; }                                         \
  iterator end() { return nullptr; }                                           \
  const_iterator begin() const { return nullptr; }                             \
  const_iterator end() const { return nullptr; }                               \
                                                                               \
private:                                                                       \
  T *value_ = nullptr;                                                         \
                                                                               \
public:
#define REMATCH_MOCK_UNIQUE_MAP_MEMBERS(Key, T)                                \
  template <class... Args>                                                     \
  pair<iterator, bool> try_emplace(const Key &, Args &&...) {                  \
    return {};                                                                 \
  }                                                                            \
  template <class M> pair<iterator, bool> insert_or_assign(const Key &, M &&) { \
    return {};                                                                 \
  }                                                                            \
  T &at(const Key &) { return *value_; }                                       \
  const T &at(const Key &) const { return *value_; }                           \
  T &operator[](const Key &) { return *value_; }

template <class Key, class T, class Compare = less<Key>,
          class Alloc = allocator<pair<const Key, T>>>
class map {
  REMATCH_MOCK_MAP_MEMBERS(Key, T)
  REMATCH_MOCK_UNIQUE_MAP_MEMBERS(Key, T)
};
template <class Key, class T, class Compare = less<Key>,
          class Alloc = allocator<pair<const Key, T>>>
class multimap {
  REMATCH_MOCK_MAP_MEMBERS(Key, T)
};
template <class Key, class T, class Hash = hash<Key>,
          class Pred = equal_to<Key>,
          class Alloc = allocator<pair<const Key, T>>>
class unordered_map {
  REMATCH_MOCK_MAP_MEMBERS(Key, T)
  REMATCH_MOCK_UNIQUE_MAP_MEMBERS(Key, T)
};
template <class Key, class T, class Hash = hash<Key>,
          class Pred = equal_to<Key>,
          class Alloc = allocator<pair<const Key, T>>>
class unordered_multimap {
  REMATCH_MOCK_MAP_MEMBERS(Key, T)
};

#define REMATCH_MOCK_SET_MEMBERS(Key)                                          \
public:                                                                        \
  typedef const Key *iterator;                                                 \
  pair<iterator, bool> insert(const Key &) { return {}; }                      \
  template <class... Args> pair<iterator, bool> emplace(Args &&...) {          \
    return {};                                                                 \
  }                                                                            \
  size_t erase(const Key &) { return 0; }                                      \
  void clear() {}                                                              \
  iterator find(const Key &) const { return nullptr; }                         \
  size_t count(const Key &) const { return 0; }                                \
  size_t size() const { return 0; }                                            \
  iterator end() const { return nullptr; }

template <class Key, class Compare = less<Key>, class Alloc = allocator<Key>>
class set {
  REMATCH_MOCK_SET_MEMBERS(Key)
};
template <class Key, class Compare = less<Key>, class Alloc = allocator<Key>>
class multiset {
  REMATCH_MOCK_SET_MEMBERS(Key)
};
template <class Key, class Hash = hash<Key>, class Pred = equal_to<Key>,
          class Alloc = allocator<Key>>
class unordered_set {
  REMATCH_MOCK_SET_MEMBERS(Key)
};
template <class Key, class Hash = hash<Key>, class Pred = equal_to<Key>,
          class Alloc = allocator<Key>>
class unordered_multiset {
  REMATCH_MOCK_SET_MEMBERS(Key)
};

// ---- function --------------------------------------------------------------
template <class Signature> class function;
template <class R, class... Args> class function<R(Args...)> {
public:
  function() noexcept {}
  template <class F> function(F) {}
  function(const function &) {}
  function &operator=(const function &) { return *this; }
  template <class F> function &operator=(F &&) { return *this; }
  explicit operator bool() const noexcept { return true; }
  R operator()(Args...) const;
};

// ---- atomic ----------------------------------------------------------------
enum memory_order { memory_order_relaxed, memory_order_seq_cst };
template <class T> struct atomic {
  atomic() noexcept = default;
  constexpr atomic(T v) noexcept : v_(v) {}
  atomic(const atomic &) = delete;
  T load(memory_order = memory_order_seq_cst) const noexcept { return v_; }
  void store(T, memory_order = memory_order_seq_cst) noexcept {}
  T fetch_add(T, memory_order = memory_order_seq_cst) noexcept { return v_; }
  T fetch_sub(T, memory_order = memory_order_seq_cst) noexcept { return v_; }
  T operator++() noexcept { return v_; }
  T operator++(int) noexcept { return v_; }
  T operator--() noexcept { return v_; }
  T operator--(int) noexcept { return v_; }
  T operator+=(T) noexcept { return v_; }
  T operator-=(T) noexcept { return v_; }
  operator T() const noexcept { return v_; }

private:
  T v_{};
};

// ---- streams ---------------------------------------------------------------
class ios_base {
public:
  typedef int openmode;
  static const openmode app = 1;
  static const openmode binary = 4;
  static const openmode in = 8;
  static const openmode out = 16;
  static const openmode trunc = 32;
};

template <class CharT, class Traits = char_traits<CharT>>
class basic_ostream : virtual public ios_base {
public:
  basic_ostream &operator<<(bool) { return *this; }
  basic_ostream &operator<<(int) { return *this; }
  basic_ostream &operator<<(long) { return *this; }
  basic_ostream &operator<<(unsigned long) { return *this; }
  basic_ostream &operator<<(float) { return *this; }
  basic_ostream &operator<<(double) { return *this; }
  basic_ostream &operator<<(const void *) { return *this; }
  basic_ostream &operator<<(basic_ostream &(*pf)(basic_ostream &)) {
    return pf(*this);
  }
  basic_ostream &write(const CharT *, long) { return *this; }
  basic_ostream &put(CharT) { return *this; }
  basic_ostream &flush() { return *this; }
};
template <class CharT, class Traits>
basic_ostream<CharT, Traits> &operator<<(basic_ostream<CharT, Traits> &os,
                                         const CharT *) {
  return os;
}
template <class CharT, class Traits>
basic_ostream<CharT, Traits> &operator<<(basic_ostream<CharT, Traits> &os,
                                         CharT) {
  return os;
}
template <class CharT, class Traits, class Alloc>
basic_ostream<CharT, Traits> &
operator<<(basic_ostream<CharT, Traits> &os,
           const basic_string<CharT, Traits, Alloc> &) {
  return os;
}
template <class CharT, class Traits>
basic_ostream<CharT, Traits> &endl(basic_ostream<CharT, Traits> &os) {
  return os;
}

template <class CharT, class Traits = char_traits<CharT>>
class basic_istream : virtual public ios_base {
public:
  basic_istream &operator>>(int &) { return *this; }
  basic_istream &operator>>(float &) { return *this; }
  basic_istream &operator>>(double &) { return *this; }
  basic_istream &read(CharT *, long) { return *this; }
  explicit operator bool() const { return true; }
};
template <class CharT, class Traits, class Alloc>
basic_istream<CharT, Traits> &getline(basic_istream<CharT, Traits> &is,
                                      basic_string<CharT, Traits, Alloc> &) {
  return is;
}

template <class CharT, class Traits = char_traits<CharT>>
class basic_iostream : public basic_istream<CharT, Traits>,
                       public basic_ostream<CharT, Traits> {};

template <class CharT, class Traits = char_traits<CharT>>
class basic_ofstream : public basic_ostream<CharT, Traits> {
public:
  basic_ofstream() {}
  explicit basic_ofstream(const char *, ios_base::openmode = ios_base::out) {}
  explicit basic_ofstream(const string &, ios_base::openmode = ios_base::out) {}
  void open(const char *, ios_base::openmode = ios_base::out) {}
  void open(const string &, ios_base::openmode = ios_base::out) {}
  bool is_open() const { return false; }
  void close() {}
};
template <class CharT, class Traits = char_traits<CharT>>
class basic_ifstream : public basic_istream<CharT, Traits> {
public:
  basic_ifstream() {}
  explicit basic_ifstream(const char *, ios_base::openmode = ios_base::in) {}
  explicit basic_ifstream(const string &, ios_base::openmode = ios_base::in) {}
  void open(const char *, ios_base::openmode = ios_base::in) {}
  bool is_open() const { return false; }
  void close() {}
};
template <class CharT, class Traits = char_traits<CharT>>
class basic_fstream : public basic_iostream<CharT, Traits> {
public:
  basic_fstream() {}
  explicit basic_fstream(const char *,
                         ios_base::openmode = ios_base::in | ios_base::out) {}
  void open(const char *, ios_base::openmode = ios_base::in | ios_base::out) {}
  void close() {}
};
template <class CharT, class Traits = char_traits<CharT>>
class basic_ostringstream : public basic_ostream<CharT, Traits> {
public:
  basic_string<CharT, Traits> str() const { return {}; }
};

typedef basic_ostream<char> ostream;
typedef basic_istream<char> istream;
typedef basic_ofstream<char> ofstream;
typedef basic_ifstream<char> ifstream;
typedef basic_fstream<char> fstream;
typedef basic_ostringstream<char> ostringstream;
extern ostream cout;
extern ostream cerr;
extern ostream clog;
extern istream cin;

// C++23 <print>; declared here regardless of -std so the checks can see it.
template <class... Args> void print(const char *fmt, Args &&...args);
template <class... Args> void println(const char *fmt, Args &&...args);

// ---- random ----------------------------------------------------------------
template <class UIntType, size_t w, size_t n, size_t m, size_t r, UIntType a,
          size_t u, UIntType d, size_t s, UIntType b, size_t t, UIntType c,
          size_t l, UIntType f>
class mersenne_twister_engine {
public:
  typedef UIntType result_type;
  static constexpr result_type default_seed = 5489u;
  mersenne_twister_engine() : mersenne_twister_engine(default_seed) {}
  explicit mersenne_twister_engine(result_type) {}
  void seed(result_type = default_seed) {}
  result_type operator()() { return 0; }
  void discard(unsigned long long) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type(0); }
};
typedef mersenne_twister_engine<unsigned int, 32, 624, 397, 31, 0x9908b0dfu,
                                11, 0xffffffffu, 7, 0x9d2c5680u, 15,
                                0xefc60000u, 18, 1812433253u>
    mt19937;
typedef mersenne_twister_engine<
    unsigned long long, 64, 312, 156, 31, 0xb5026f5aa96619e9ULL, 29,
    0x5555555555555555ULL, 17, 0x71d67fffeda60000ULL, 37,
    0xfff7eee000000000ULL, 43, 6364136223846793005ULL>
    mt19937_64;

template <class UIntType, UIntType a, UIntType c, UIntType m>
class linear_congruential_engine {
public:
  typedef UIntType result_type;
  linear_congruential_engine() : linear_congruential_engine(1u) {}
  explicit linear_congruential_engine(result_type) {}
  result_type operator()() { return 0; }
  void discard(unsigned long long) {}
  static constexpr result_type min() { return 1; }
  static constexpr result_type max() { return m - 1; }
};
typedef linear_congruential_engine<unsigned long, 16807UL, 0UL, 2147483647UL>
    minstd_rand0;
typedef linear_congruential_engine<unsigned long, 48271UL, 0UL, 2147483647UL>
    minstd_rand;
typedef minstd_rand0 default_random_engine;

template <class UIntType, size_t w, size_t s, size_t r>
class subtract_with_carry_engine {
public:
  typedef UIntType result_type;
  subtract_with_carry_engine() : subtract_with_carry_engine(19780503u) {}
  explicit subtract_with_carry_engine(result_type) {}
  result_type operator()() { return 0; }
  void discard(unsigned long long) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return 1; }
};
typedef subtract_with_carry_engine<unsigned int, 24, 10, 24> ranlux24_base;
typedef subtract_with_carry_engine<unsigned long long, 48, 5, 12>
    ranlux48_base;

template <class Engine, size_t p, size_t r> class discard_block_engine {
public:
  typedef typename Engine::result_type result_type;
  discard_block_engine() {}
  explicit discard_block_engine(result_type) {}
  result_type operator()() { return 0; }
  void discard(unsigned long long) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return 1; }
};
typedef discard_block_engine<ranlux24_base, 223, 23> ranlux24;
typedef discard_block_engine<ranlux48_base, 389, 11> ranlux48;

class random_device {
public:
  typedef unsigned int result_type;
  random_device() {}
  explicit random_device(const string &) {}
  random_device(const random_device &) = delete;
  result_type operator()() { return 0; }
  double entropy() const noexcept { return 0; }
};

template <class RealType = double> class uniform_real_distribution {
public:
  typedef RealType result_type;
  explicit uniform_real_distribution(RealType a = 0, RealType b = 1) {}
  template <class URBG> result_type operator()(URBG &) { return 0; }
};
template <class IntType = int> class uniform_int_distribution {
public:
  typedef IntType result_type;
  explicit uniform_int_distribution(IntType a = 0, IntType b = 1) {}
  template <class URBG> result_type operator()(URBG &) { return 0; }
};
template <class RealType = double> class normal_distribution {
public:
  typedef RealType result_type;
  explicit normal_distribution(RealType mean = 0, RealType stddev = 1) {}
  template <class URBG> result_type operator()(URBG &) { return 0; }
};
class bernoulli_distribution {
public:
  typedef bool result_type;
  explicit bernoulli_distribution(double p = 0.5) {}
  template <class URBG> bool operator()(URBG &) { return false; }
};

// Algorithms that draw from the engine they are given.
template <class RandomIt, class URBG>
void shuffle(RandomIt __first, RandomIt __last, URBG &&g) {}
template <class PopulationIt, class SampleIt, class Distance, class URBG>
SampleIt sample(PopulationIt first, PopulationIt last, SampleIt out,
                Distance n, URBG &&g) {
  return out;
}
template <class RealType, size_t Bits, class URBG>
RealType generate_canonical(URBG &g) {
  return RealType();
}

// ---- aliases: views, references, tuples, algorithms ------------------------
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> {
  typedef F type;
};
template <size_t I, class A, class B>
typename conditional<I == 0, A, B>::type &get(pair<A, B> &p);
template <class... T> struct tuple {
  tuple(T... args) {}
  template <class A, class B> tuple &operator=(const pair<A, B> &) {
    return *this;
  }
};
template <class... T> tuple<T &...> tie(T &...args) {
  return tuple<T &...>(args...);
}
template <class T> class reference_wrapper {
public:
  reference_wrapper(T &x) : p_(&x) {}
  T &get() const { return *p_; }
  operator T &() const { return *p_; }

private:
  T *p_;
};
template <class T> reference_wrapper<T> ref(T &x) {
  return reference_wrapper<T>(x);
}
template <class T> class span {
public:
  span(T *p, size_t n) : p_(p) {}
  template <class C> span(C &c) : p_(c.data()) {}
  T &operator[](size_t i) const { return p_[i]; }
  T *data() const { return p_; }
  T *begin() const { return p_; }
  T *end() const { return p_; }

private:
  T *p_;
};
class string_view {
public:
  string_view(const char *s) : p_(s) {}
  const char &operator[](size_t i) const { return p_[i]; }
  const char *data() const { return p_; }

private:
  const char *p_;
};
template <class T> class unique_ptr {
public:
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  T *get() const { return p_; }

private:
  T *p_ = nullptr;
};
template <class T> shared_ptr<T> make_shared();
template <class It> It next(It it, long n = 1) { return it; }
template <class C> auto begin(C &c) -> decltype(c.begin()) {
  return c.begin();
}
// The algorithms, their parameters named as libstdc++ names them.
template <class It, class T> void fill(It __first, It __last, const T &v) {}
template <class It, class N, class T> It fill_n(It __first, N n, const T &v) {
  return __first;
}
template <class In, class Out> Out copy(In __first, In __last, Out __result) {
  return __result;
}
template <class In, class Out, class Op>
Out transform(In __first, In __last, Out __result, Op __op) {
  return __result;
}
template <class It, class T> void iota(It __first, It __last, T v) {}
template <class It> void sort(It __first, It __last) {}
template <class It> void reverse(It __first, It __last) {}
template <class T> void swap(T &a, T &b) {}
template <class In, class T> T accumulate(In first, In last, T init) {
  return init;
}

// ---- chrono and threads ----------------------------------------------------
template <long long Num, long long Den = 1> struct ratio {};
typedef ratio<1, 1000000000> nano;
typedef ratio<1, 1000> milli;
namespace chrono {
template <class Rep, class Period = ratio<1>> class duration {
public:
  constexpr duration() = default;
  constexpr explicit duration(Rep r) : r_(r) {}
  constexpr Rep count() const { return r_; }

private:
  Rep r_{};
};
typedef duration<long long, nano> nanoseconds;
typedef duration<long long, milli> milliseconds;
typedef duration<long long> seconds;
template <class Clock, class Dur = typename Clock::duration> class time_point {
public:
  constexpr time_point() = default;
  constexpr Dur time_since_epoch() const { return d_; }

private:
  Dur d_{};
};
struct system_clock {
  typedef chrono::nanoseconds duration;
  typedef chrono::time_point<system_clock> time_point;
  static constexpr bool is_steady = false;
  static time_point now() noexcept;
};
struct steady_clock {
  typedef chrono::nanoseconds duration;
  typedef chrono::time_point<steady_clock> time_point;
  static constexpr bool is_steady = true;
  static time_point now() noexcept;
};
// As in libstdc++.
using high_resolution_clock = system_clock;
} // namespace chrono

class thread {
public:
  class id {
  public:
    id() noexcept {}
  };
};
namespace this_thread {
thread::id get_id() noexcept;
} // namespace this_thread
} // namespace std

#endif
