// Views of Eigen objects on Debian's Eigen 3 headers (models/eigen.yaml):
// assigning to a block, row, column, segment or diagonal writes the matrix
// it views; `noalias()` is the matrix; a Map or Ref writes the memory it
// stands for; a view kept in a variable writes through. Views of locals
// stay quiet.
// ARGS: -I/usr/include/eigen3 -I{root}/runtime/include
// REQUIRES: /usr/include/eigen3/Eigen/Dense
#include <rematch/rematch.h>
#include <Eigen/Dense>
#include <vector>

Eigen::MatrixXf g_w(4, 4);
std::vector<float> g_state(16);

// ---- positives ---------------------------------------------------------

float views(rematch::Segment &seg, Eigen::VectorXf &h, const Eigen::MatrixXf &a,
            const Eigen::VectorXf &b) {
  return seg.forward([&] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    g_w.block(0, 0, 2, 2) = a.block(0, 0, 2, 2); // expect: rematch-state-write {{checkpointed lambda writes 'g_w' through 'g_w.block(0,0,2,2)'}}
    g_w.row(1) *= 2.0f; // expect: rematch-counter-update {{updates 'g_w' with '*=' through 'g_w.row(1)'}}
    g_w.col(0).setZero(); // expect: rematch-state-write {{writes 'g_w' with 'setZero' through 'g_w.col(0)'}}
    g_w.diagonal().array() += 1.0f; // expect: rematch-counter-update {{'g_w' with '+='}}
    h.noalias() += a * b; // expect: rematch-counter-update {{updates 'h' with '+=' through 'h.noalias()'}}
    h.head(2) = b.tail(2); // expect: rematch-state-write {{writes 'h' through 'h.head(2)'}}
    Eigen::Map<Eigen::VectorXf>(g_state.data(), 4) = b.head(4); // expect: rematch-state-write {{writes 'g_state' through}}
    Eigen::Map<Eigen::MatrixXf> m(g_state.data(), 4, 4); // expect-note: 'm' is an alias of 'g_state' taken here
    m(0, 0) = 1.0f; // expect: rematch-state-write {{writes 'g_state' through 'm'}}
    auto top = g_w.topRows(2); // expect-note: 'top' is an alias of 'g_w' taken here
    top.setOnes(); // expect: rematch-state-write {{writes 'g_w' with 'setOnes' through 'top'}}
    return h.sum();
  });
}

// ---- negatives -------------------------------------------------------------

float locals(rematch::Segment &seg, const Eigen::MatrixXf &a) {
  return seg.forward([&a] {
    Eigen::MatrixXf m = a;
    m.block(0, 0, 1, 1).setZero();
    auto r = m.row(0);
    r *= 2.0f;
    std::vector<float> buf(4);
    Eigen::Map<Eigen::VectorXf>(buf.data(), 4).setOnes();
    return m.sum() + a.block(0, 0, 1, 1).sum(); // reads an input
  });
}

// ---- Ref parameters --------------------------------------------------------

// An Eigen::Ref taken by value views the caller's matrix: writing it,
// its rows and columns, writes that matrix, also when the Ref is built by
// the call's implicit conversion. A Ref of a local stays quiet.
static void center(Eigen::Ref<Eigen::MatrixXf> data) {
  data.rowwise() -= data.colwise().mean(); // expect-note: 'center' updates 'data' with '-=' through 'data.rowwise()' here
}
static float loss_of(Eigen::Ref<Eigen::MatrixXf> pred,
                     const Eigen::MatrixXf &target) {
  pred -= target; // expect-note: 'loss_of' updates 'pred' with '-=' here
  return pred.squaredNorm();
}

struct Net {
  Eigen::MatrixXf P, T;
  float step(rematch::Segment &seg, Eigen::Ref<Eigen::MatrixXf> data) {
    return seg.forward([&] { // expect-note: callable is checkpointed
      center(data); // expect: rematch-counter-update {{calls 'center', which updates 'data' with '-='}}
      float l = loss_of(P, T); // expect: rematch-counter-update {{calls 'loss_of', which updates 'pred' with '-='}}
      Eigen::MatrixXf d = data;
      center(d);
      Eigen::MatrixXf pred = P;
      return l + loss_of(pred, T);
    });
  }
};
