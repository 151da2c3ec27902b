// rematch-io: file and process I/O from checkpointed code; the recomputation
// in backward opens, reads, writes or runs it again. A stream opened inside
// the callable is reported at the opening only; a stream that outlives the
// call is reported at each read and write.
// Every rematch check runs on this file; see run_check_test.py for the
// annotation syntax.
// OPTIONS: CheckpointFunctions=nn::checkpoint,Trainer::run
// OPTIONS: IoFunctions=storage::upload
#include "rematch-mock.h"

namespace storage {
// A project call, known to the check only through IoFunctions.
void upload(const char *path);
} // namespace storage

namespace db {
// A look-alike with no effects at all.
inline int open(const char *) { return 0; }
} // namespace db

std::ofstream g_trace;
std::ifstream g_input;
FILE *g_file = nullptr;
// Opened outside the checkpointed code: the FILE* changes between steps.
void open_log() { g_file = fopen("log.txt", "w"); }

// ---- positives ---------------------------------------------------------

// Streams opened inside the callable: the opening is reported, not the use.
float positives_local_streams(rematch::Segment &seg, float x) {
  return seg.forward([x] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'; it runs again during backward
    std::ofstream out("activations.txt"); // expect: rematch-io {{performs I/O through 'std::ofstream'}}
    out << x;
    out.write("abc", 3);
    std::ifstream in; // not opened yet
    in.open("weights.bin"); // expect: rematch-io {{performs I/O through 'std::ifstream' with 'open'}}
    float w = 0;
    in >> w;
    std::fstream both("scratch.txt"); // expect: rematch-io {{performs I/O through 'std::fstream'}}
    std::string line;
    std::getline(both, line);
    return x + w;
  });
}

// Streams that outlive the call: each read and write is reported.
void positives_outside_streams(rematch::Segment &seg, float x) {
  std::ofstream report("report.txt");
  seg.recompute([&report, x] { // expect-note: call to 'rematch::Segment::recompute'
    g_trace << x; // expect: rematch-io {{'g_trace'}}
    g_trace.write("abc", 3); // expect: rematch-io {{performs I/O through 'g_trace' with 'write'}}
    report << "x"; // expect: rematch-io {{'report'}}
    float v = 0;
    g_input >> v; // expect: rematch-io {{performs I/O through 'g_input' with '>>'}}
    char buf[8];
    g_input.read(buf, 8); // expect: rematch-io {{performs I/O through 'g_input' with 'read'}}
    std::string line;
    std::getline(g_input, line); // expect: rematch-io {{performs I/O through 'g_input' with 'getline'}}
  });
}

// The C and POSIX calls.
void positives_c_and_posix(float x) {
  nn::checkpoint([x] { // expect-note: 'nn::checkpoint'
    FILE *f = fopen("dump.bin", "wb"); // expect: rematch-io {{checkpointed lambda performs I/O through 'fopen'; the recomputation in backward repeats it}}
    fwrite(&x, sizeof x, 1, f); // expect: rematch-io {{'fwrite'}}
    fputs("x", f); // expect: rematch-io {{'fputs'}}
    fputc('x', f); // expect: rematch-io {{performs I/O through 'fputc'}}
    fprintf(f, "%f\n", x); // expect: rematch-io {{'fprintf'}}
    fclose(f); // expect: rematch-io {{'fclose'}}
    FILE *r = freopen("in.txt", "r", f); // expect: rematch-io {{performs I/O through 'freopen'}}
    char buf[16];
    fread(buf, 1, 16, r); // expect: rematch-io {{performs I/O through 'fread'}}
    fgets(buf, 16, r); // expect: rematch-io {{performs I/O through 'fgets'}}
    int n = 0;
    fscanf(r, "%d", &n); // expect: rematch-io {{performs I/O through 'fscanf'}}
    int fd = open("data.bin", O_RDONLY); // expect: rematch-io {{'open'}}
    read(fd, buf, 16); // expect: rematch-io {{'read'}}
    write(fd, buf, 16); // expect: rematch-io {{'write'}}
    remove("old.txt"); // expect: rematch-io {{performs I/O through 'remove'}}
    rename("a.txt", "b.txt"); // expect: rematch-io {{performs I/O through 'rename'}}
    std::system("sync"); // expect: rematch-io {{performs I/O through 'system'}}
    system("sync"); // expect: rematch-io {{performs I/O through 'system'}}
    FILE *p = popen("ls", "r"); // expect: rematch-io {{performs I/O through 'popen'}}
    storage::upload("ckpt.bin"); // expect: rematch-io {{'storage::upload'}}
    return p != nullptr;
  });
}

// The other callable forms.
struct Dumper {
  std::ofstream out_;
  void operator()() {
    out_ << 1; // expect: rematch-io {{checkpointed functor 'Dumper' performs I/O through}}
  }
};
void io_step() {
  // The FILE* global is read (another expression) to find the file.
  fputs("x", g_file); // expect: rematch-io {{checkpointed function 'io_step' performs I/O through 'fputs'}}, rematch-global-read {{'g_file'}}
}
struct Writer {
  std::ofstream log_;
  rematch::Segment seg_;
  void forward(float x) {
    seg_.forward([this, x] { log_ << x; }); // expect: rematch-io {{performs I/O through 'log_' with '<<'}} expect-note: callable is checkpointed
  }
};
void positives_callable_forms(rematch::Segment &seg, Trainer &trainer,
                              std::ofstream &sink,
                              const ttml::autograd::TensorPtr &in) {
  seg.forward(Dumper{}); // expect-note: callable is checkpointed
  seg.forward(io_step); // expect-note: callable is checkpointed
  run_block([] { fopen("a", "r"); }); // expect: rematch-io {{performs I/O through 'fopen'}} expect-note: callable is checkpointed
  trainer.run([&sink] { sink << 2; }); // expect: rematch-io {{performs I/O through 'sink' with '<<'}} expect-note: callable is checkpointed
  auto body = [] { remove("tmp"); }; // expect: rematch-io {{performs I/O through 'remove'}}
  seg.forward(body); // expect-note: callable is checkpointed
  seg.forward(std::function<void()>([] { system("true"); })); // expect: rematch-io {{performs I/O through 'system'}} expect-note: callable is checkpointed
  rematch::torch::checkpoint([](std::ofstream &o) { o << 3; }, sink); // expect: rematch-io {{performs I/O through 'o' with '<<'}} expect-note: callable is checkpointed
  mlx::core::checkpoint([](const std::vector<mlx::core::array> &xs) { // expect-note: callable is checkpointed
    std::ofstream dump("mlx.txt"); // expect: rematch-io {{performs I/O through 'std::ofstream'}}
    return xs;
  });
  ttml::models::common::transformer::memory_efficient_runner( // expect-note: callable is checkpointed
      [](const ttml::autograd::TensorPtr &t, const ttml::autograd::TensorPtr &) {
        fclose(g_file); // expect: rematch-io {{performs I/O through 'fclose'}}, rematch-global-read {{reads mutable global 'g_file'}}
        return t;
      },
      in, in);
}

// ---- negatives ---------------------------------------------------------

// A stream that is never opened, in-memory formatting, look-alikes.
float negatives_no_io(rematch::Segment &seg, float x) {
  return seg.forward([x] {
    std::ofstream unopened;
    std::ostringstream os;
    os << x;
    char buf[16];
    snprintf(buf, sizeof buf, "%f", x);
    std::string path = "a.txt";
    return x + db::open("table") + path.size();
  });
}

// Console output is logging, not I/O.
void negatives_console(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    write(1, "x", 1); // expect: rematch-logging {{logs through 'write'}}
    write(2, "x", 1); // expect: rematch-logging {{logs through 'write'}}
    fprintf(stderr, "x\n"); // expect: rematch-logging {{logs through 'fprintf'}}
    fprintf(stdout, "x\n"); // expect: rematch-logging {{logs through 'fprintf'}}
  });
}

// Guarded, in both forms.
void negatives_guarded(rematch::Segment &seg, float x) {
  seg.forward([x] {
    if (!rematch::recomputing()) {
      std::ofstream out("forward-only.txt");
      out << x;
      g_trace << x;
    }
    if (!rematch::recomputing())
      fclose(g_file);
  });
  seg.forward([x] {
    if (rematch::recomputing())
      return;
    g_trace << x;
  });
}

// Suppressed.
void negatives_nolint(rematch::Segment &seg) {
  seg.forward([] { // expect-note: callable is checkpointed
    fopen("a", "r"); // NOLINT
    fopen("a", "r"); // NOLINT(rematch-io)
    // NOLINTNEXTLINE(rematch-io)
    remove("a");
    // NOLINTBEGIN(rematch-io)
    system("true");
    g_trace << 1;
    // NOLINTEND(rematch-io)
    fopen("a", "r"); // NOLINT(rematch-logging) expect: rematch-io {{performs I/O through 'fopen'}}
  });
}

// Discarded if constexpr branch.
constexpr bool kDumpActivations = false;
void negatives_if_constexpr(rematch::Segment &seg, float x) {
  seg.forward([=] {
    if constexpr (kDumpActivations) {
      std::ofstream out("act.txt");
      out << x;
    }
  });
}

// Evaluated by the caller, or not checkpointed.
void negatives_not_checkpointed(rematch::Segment &seg) {
  seg.forward([f = fopen("once.txt", "r")] { return f; });
  rematch::torch::checkpoint([](FILE *f) { return f; }, fopen("once.txt", "r"));
  apply([] { remove("apply"); });
  [] { g_trace << 1; }();
  std::ofstream out("outside.txt");
  out << 1;
  auto later = [] { system("later"); };
  later();
}

// More look-alikes: streams never opened, in-memory buffers, a lambda
// variable that is only given to an ordinary function or called.
float negatives_more_look_alikes(rematch::Segment &seg, float x) {
  float r = seg.forward([x] {
    std::ofstream a;
    std::ifstream b;
    std::fstream c;
    std::ostringstream os;
    os << x;
    os.write("abc", 3);
    char buf[16];
    snprintf(buf, sizeof buf, "%f", x);
    memcpy(buf, "abc", 3);
    std::string name = "ckpt";
    name.append(".bin");
    return x + db::open(name.c_str());
  });
  auto dump = [] { remove("x"); };
  apply(dump);
  dump();
  return r;
}
