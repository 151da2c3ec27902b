//===--- Scheduler.cpp - analyse files in parallel, isolating failures ----===//

#include "Scheduler.h"
#include "Progress.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/thread.h"
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace rematch::tool {

using clang::tooling::CompileCommand;
using clang::tooling::Replacement;

std::vector<CompileCommand>
SerializedDatabase::getCompileCommands(llvm::StringRef FilePath) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Inner.getCompileCommands(FilePath);
}

std::vector<std::string> SerializedDatabase::getAllFiles() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Inner.getAllFiles();
}

std::vector<CompileCommand> SerializedDatabase::getAllCompileCommands() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Inner.getAllCompileCommands();
}

// The test build's hook (Scheduler.h); null in the shipped program.
static std::atomic<AnalysisHook> Hook{nullptr};

void setAnalysisHook(AnalysisHook H) { Hook.store(H); }

std::vector<std::string> shardOf(const CliOptions &O) {
  std::vector<std::string> Files;
  for (size_t K = 0; K < O.Files.size(); ++K)
    if (K % O.ShardCount == O.ShardIndex - 1)
      Files.push_back(O.Files[K]);
  return Files;
}

ScheduleOptions scheduleOptions(const CliOptions &O) {
  ScheduleOptions S;
  S.Jobs = O.Jobs ? O.Jobs : defaultJobs();
  S.TimeoutSeconds = O.TimeoutPerFile;
  S.MemoryMiB = O.MemoryPerFile;
  S.Progress = llvm::sys::Process::StandardErrIsDisplayed();
  return S;
}

unsigned defaultJobs() {
  unsigned N = std::thread::hardware_concurrency();
  return N ? N : 1;
}

namespace {

// Clang recurses deeply on deeply nested code; its own driver gives the
// compiler thread 8 MiB (clang::DesiredStackSize).
constexpr unsigned AnalysisStackSize = 8u << 20;

// The exit status of a worker process whose allocation failed under
// --memory-per-file.
constexpr int OutOfMemoryExit = 86;

// Whether this is the main thread and its stack is as large as an analysis
// thread's. One worker then runs there: a second thread would give malloc a
// second arena, which grows page by page with a system call each (five
// hundred for a small file) where the main arena grows by the break.
bool mainStackSuffices() {
  if (getpid() != gettid())
    return false;
  rlimit Limit{};
  if (getrlimit(RLIMIT_STACK, &Limit) != 0)
    return false;
  return Limit.rlim_cur == RLIM_INFINITY || Limit.rlim_cur >= AnalysisStackSize;
}

FileOutcome failed(const std::string &File, const std::string &Why) {
  FileOutcome Out;
  Out.Status.File = File;
  Out.Status.Status = FileStatus::State::Failed;
  Out.Status.Errors.push_back(File + ": error: " + Why);
  return Out;
}

std::string describeSignal(int Signal) {
  std::string S = "signal " + std::to_string(Signal);
  if (const char *Name = strsignal(Signal))
    S += std::string(": ") + Name;
  return S;
}


// Analyses one file; a crash (a signal, CrashRecoveryContext::Enable() having
// been called in main) becomes the file's error.
FileOutcome
analyseSafely(const std::string &File,
              llvm::function_ref<FileOutcome(const std::string &)> Analyse) {
  FileOutcome Out;
  llvm::CrashRecoveryContext CRC;
  if (CRC.RunSafely([&] {
        if (AnalysisHook H = Hook.load())
          H(File);
        Out = Analyse(File);
      }))
    return Out;
  // RetCode is 128 + the signal for a crash, the status for an exit.
  return failed(File, "the analysis crashed (" +
                          (CRC.RetCode > 128
                               ? describeSignal(CRC.RetCode - 128)
                               : "exit status " + std::to_string(CRC.RetCode)) +
                          ")");
}

std::vector<FileOutcome>
analyseOnThreads(const std::vector<std::string> &Files,
                 const ScheduleOptions &S,
                 llvm::function_ref<FileOutcome(const std::string &)> Analyse) {
  std::vector<FileOutcome> Outcomes(Files.size());
  ProgressLine Progress(S.Progress, Files.size());
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next++) < Files.size();) {
      Progress.started(Files[I]);
      Outcomes[I] = analyseSafely(Files[I], Analyse);
      Progress.finished();
    }
  };
  size_t N = std::min<size_t>(std::max(1u, S.Jobs), Files.size());
  if (N == 1 && mainStackSuffices()) {
    Work(); // as the compiler does: its allocations stay in the main arena
    return Outcomes;
  }
  std::vector<llvm::thread> Threads;
  for (size_t I = 0; I < N; ++I)
    Threads.emplace_back(std::optional<unsigned>(AnalysisStackSize), Work);
  for (llvm::thread &T : Threads)
    T.join();
  return Outcomes;
}

//===-- Worker processes --------------------------------------------------===//
//
// A worker writes its FileOutcome to a pipe as length-prefixed fields and
// exits; the parent decodes it. Both sides are this program, so the encoding
// needs no versioning.

class Encoder {
public:
  void num(uint64_t V) { Buf.append(reinterpret_cast<const char *>(&V), 8); }
  void str(llvm::StringRef S) {
    num(S.size());
    Buf.append(S.data(), S.size());
  }
  void loc(const Location &L) {
    str(L.File);
    num(L.Line);
    num(L.Column);
  }
  std::string Buf;
};

class Decoder {
public:
  explicit Decoder(llvm::StringRef Data) : Data(Data) {}
  uint64_t num() {
    uint64_t V = 0;
    if (Data.size() < 8) {
      Ok = false;
      return 0;
    }
    std::memcpy(&V, Data.data(), 8);
    Data = Data.drop_front(8);
    return V;
  }
  std::string str() {
    uint64_t N = num();
    if (N > Data.size()) {
      Ok = false;
      return {};
    }
    std::string S = Data.take_front(N).str();
    Data = Data.drop_front(N);
    return S;
  }
  Location loc() {
    Location L;
    L.File = str();
    L.Line = num();
    L.Column = num();
    return L;
  }
  // A count that cannot exceed what is left, so garbage cannot make the
  // decoder reserve gigabytes.
  uint64_t count() {
    uint64_t N = num();
    if (N > Data.size())
      Ok = false;
    return Ok ? N : 0;
  }
  bool done() const { return Ok && Data.empty(); }

private:
  llvm::StringRef Data;
  bool Ok = true;
};

std::string encode(const FileOutcome &O) {
  Encoder E;
  E.num(O.Status.Status == FileStatus::State::Failed);
  E.num(O.Status.Errors.size());
  for (const std::string &Err : O.Status.Errors)
    E.str(Err);
  auto Findings = [&](const std::vector<Finding> &List) {
    E.num(List.size());
    for (const Finding &F : List) {
      E.str(F.Check);
      E.str(F.Level);
      E.str(F.Message);
      E.loc(F.Loc);
      E.str(F.SourceLine);
      E.num(F.Notes.size());
      for (const Note &N : F.Notes) {
        E.loc(N.Loc);
        E.str(N.Message);
      }
    }
  };
  auto Fixes = [&](const std::vector<Replacement> &List) {
    E.num(List.size());
    for (const Replacement &R : List) {
      E.str(R.getFilePath());
      E.num(R.getOffset());
      E.num(R.getLength());
      E.str(R.getReplacementText());
    }
  };
  Findings(O.Findings);
  Fixes(O.Fixes);
  E.str(O.Summary);
  E.str(O.CacheError);
  E.str(O.Dependencies);
  E.num(O.Conditional.size());
  for (const ConditionalFinding &C : O.Conditional) {
    E.str(C.IfWritten);
    Findings({C.F});
    Fixes(C.Fixes);
  }
  return std::move(E.Buf);
}

bool decode(llvm::StringRef Data, const std::string &File, FileOutcome &O) {
  Decoder D(Data);
  O.Status.File = File;
  O.Status.Status =
      D.num() ? FileStatus::State::Failed : FileStatus::State::Analysed;
  for (uint64_t I = 0, N = D.count(); I < N; ++I)
    O.Status.Errors.push_back(D.str());
  auto Findings = [&](std::vector<Finding> &List) {
    for (uint64_t I = 0, N = D.count(); I < N; ++I) {
      Finding F;
      F.Check = D.str();
      F.Level = D.str();
      F.Message = D.str();
      F.Loc = D.loc();
      F.SourceLine = D.str();
      for (uint64_t J = 0, M = D.count(); J < M; ++J) {
        Note Nt;
        Nt.Loc = D.loc();
        Nt.Message = D.str();
        F.Notes.push_back(std::move(Nt));
      }
      List.push_back(std::move(F));
    }
  };
  auto Fixes = [&](std::vector<Replacement> &List) {
    for (uint64_t I = 0, N = D.count(); I < N; ++I) {
      std::string Path = D.str();
      uint64_t Offset = D.num(), Length = D.num();
      std::string Text = D.str();
      List.emplace_back(Path, Offset, Length, Text);
    }
  };
  Findings(O.Findings);
  Fixes(O.Fixes);
  O.Summary = D.str();
  O.CacheError = D.str();
  O.Dependencies = D.str();
  for (uint64_t I = 0, N = D.count(); I < N; ++I) {
    ConditionalFinding C;
    C.IfWritten = D.str();
    std::vector<Finding> One;
    Findings(One);
    if (One.size() != 1)
      return false;
    C.F = std::move(One.front());
    Fixes(C.Fixes);
    O.Conditional.push_back(std::move(C));
  }
  return D.done();
}

[[noreturn]] void outOfMemory(void *, const char *, bool) {
  _exit(OutOfMemoryExit);
}

// The child's side: analyse, write the outcome, exit without running the
// parent's atexit handlers or flushing its stdio buffers.
[[noreturn]] void
runWorker(const std::string &File, const ScheduleOptions &S, int Fd,
          llvm::function_ref<FileOutcome(const std::string &)> Analyse) {
  if (S.MemoryMiB) {
    rlim_t Bytes = rlim_t(S.MemoryMiB) << 20;
    struct rlimit Limit = {Bytes, Bytes};
    setrlimit(RLIMIT_AS, &Limit);
    // LLVM's allocation failures (operator new included, through the
    // handler InitLLVM installs) end here.
    llvm::install_bad_alloc_error_handler(outOfMemory);
  }
  std::string Bytes = encode(analyseSafely(File, Analyse));
  for (size_t Written = 0; Written < Bytes.size();) {
    ssize_t N = write(Fd, Bytes.data() + Written, Bytes.size() - Written);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(1);
    Written += N;
  }
  _exit(0);
}

std::string formatSeconds(double Seconds) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", Seconds);
  return Buf;
}

struct Worker {
  size_t Index;
  pid_t Pid;
  int Fd; // read end of the pipe; -1 once at end of file
  std::string Data;
  std::chrono::steady_clock::time_point Deadline;
};

// Files analysed in forked workers, at most S.Jobs at once, each killed at
// its deadline: start a worker per file, read the workers' pipes, reap them.
class ProcessPool {
public:
  using Clock = std::chrono::steady_clock;

  ProcessPool(const std::vector<std::string> &Files, const ScheduleOptions &S,
              llvm::function_ref<FileOutcome(const std::string &)> Analyse)
      : Files(Files), S(S), Analyse(Analyse), Outcomes(Files.size()),
        Progress(S.Progress, Files.size()) {}

  std::vector<FileOutcome> run() {
    size_t Next = 0;
    while (Next < Files.size() || !Running.empty()) {
      while (Running.size() < std::max(1u, S.Jobs) && Next < Files.size())
        start(Next++);
      readPipes();
      reap();
    }
    return std::move(Outcomes);
  }

private:
  void start(size_t I) {
    const std::string &File = Files[I];
    Progress.started(File);
    int Fds[2];
    if (pipe2(Fds, O_CLOEXEC) != 0) {
      Outcomes[I] = failed(File, std::string("cannot create a pipe: ") +
                                     std::strerror(errno));
      Progress.finished();
      return;
    }
    pid_t Pid = fork();
    if (Pid == 0) {
      close(Fds[0]);
      runWorker(File, S, Fds[1], Analyse);
    }
    close(Fds[1]);
    if (Pid < 0) {
      close(Fds[0]);
      Outcomes[I] =
          failed(File, std::string("cannot start a worker process: ") +
                           std::strerror(errno));
      Progress.finished();
      return;
    }
    Clock::time_point Deadline = Clock::time_point::max();
    if (S.TimeoutSeconds > 0)
      Deadline =
          Clock::now() + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(S.TimeoutSeconds));
    Running.push_back({I, Pid, Fds[0], {}, Deadline});
  }

  // Waits for output, the nearest deadline, or (now and then) workers whose
  // pipe is already closed, then reads what is ready.
  void readPipes() {
    std::vector<pollfd> Polls;
    for (const Worker &W : Running)
      if (W.Fd >= 0)
        Polls.push_back({W.Fd, POLLIN, 0});
    int WaitMs = 100;
    for (const Worker &W : Running)
      if (W.Fd < 0)
        WaitMs = 1;
      else if (W.Deadline != Clock::time_point::max()) {
        auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        W.Deadline - Clock::now())
                        .count() +
                    1;
        WaitMs = std::max<int>(0, std::min<long long>(WaitMs, Left));
      }
    if (poll(Polls.data(), Polls.size(), WaitMs) > 0)
      for (const pollfd &P : Polls)
        if (P.revents)
          for (Worker &W : Running)
            if (W.Fd == P.fd)
              drain(W);
  }

  // One read per poll readiness, so a chatty worker cannot starve the
  // others' deadlines.
  static void drain(Worker &W) {
    char Buf[65536];
    while (W.Fd >= 0) {
      ssize_t N = read(W.Fd, Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N < 0 && errno == EAGAIN)
        return;
      if (N <= 0) {
        close(W.Fd);
        W.Fd = -1;
        return;
      }
      W.Data.append(Buf, N);
      return;
    }
  }

  // Collects the workers that exited, and kills those past their deadline.
  void reap() {
    for (auto It = Running.begin(); It != Running.end();) {
      Worker &W = *It;
      int Status = 0;
      pid_t Reaped = 0;
      if (W.Fd < 0) // end of file: the worker has exited or is exiting
        Reaped = waitpid(W.Pid, &Status, WNOHANG);
      if (Reaped == W.Pid) {
        finish(W, Status);
      } else if (Clock::now() >= W.Deadline) {
        kill(W.Pid, SIGKILL);
        while (waitpid(W.Pid, &Status, 0) < 0 && errno == EINTR)
          ;
        if (W.Fd >= 0)
          close(W.Fd);
        Outcomes[W.Index] =
            failed(Files[W.Index], "analysis timed out after " +
                                       formatSeconds(S.TimeoutSeconds) + " s");
        Progress.finished();
      } else {
        ++It;
        continue;
      }
      It = Running.erase(It);
    }
  }

  void finish(const Worker &W, int Status) {
    const std::string &File = Files[W.Index];
    FileOutcome &Out = Outcomes[W.Index];
    if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
      if (!decode(W.Data, File, Out))
        Out = failed(File, "the analysis worker returned a malformed result");
    } else if (WIFEXITED(Status) && WEXITSTATUS(Status) == OutOfMemoryExit) {
      Out = failed(File, "analysis ran out of memory (limit " +
                             std::to_string(S.MemoryMiB) + " MiB)");
    } else if (WIFSIGNALED(Status)) {
      Out = failed(File, "the analysis crashed (" +
                             describeSignal(WTERMSIG(Status)) + ")");
    } else {
      Out = failed(File, "the analysis worker exited with status " +
                             std::to_string(WEXITSTATUS(Status)));
    }
    Progress.finished();
  }

  const std::vector<std::string> &Files;
  const ScheduleOptions &S;
  llvm::function_ref<FileOutcome(const std::string &)> Analyse;
  std::vector<FileOutcome> Outcomes;
  ProgressLine Progress;
  std::vector<Worker> Running;
};

std::vector<FileOutcome> analyseInProcesses(
    const std::vector<std::string> &Files, const ScheduleOptions &S,
    llvm::function_ref<FileOutcome(const std::string &)> Analyse) {
  return ProcessPool(Files, S, Analyse).run();
}

} // namespace

std::string encodeOutcome(const FileOutcome &O) { return encode(O); }

bool decodeOutcome(llvm::StringRef Data, const std::string &File,
                   FileOutcome &O) {
  return decode(Data, File, O);
}

std::vector<FileOutcome>
analyseFiles(const std::vector<std::string> &Files, const ScheduleOptions &S,
             llvm::function_ref<FileOutcome(const std::string &)> Analyse) {
  if (Files.empty())
    return {};
  if (S.TimeoutSeconds > 0 || S.MemoryMiB > 0)
    return analyseInProcesses(Files, S, Analyse);
  return analyseOnThreads(Files, S, Analyse);
}

} // namespace rematch::tool
