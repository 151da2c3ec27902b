// models/eigen.yaml on Debian's Eigen 3 headers, included with -I as most
// projects do, which makes Eigen's templates user code: the model stands
// for them. Arithmetic is pure; assignments write their left operand;
// Random() and setRandom() draw with std::rand; the set* members write.
// ARGS: -I/usr/include/eigen3 -I{root}/runtime/include
// REQUIRES: /usr/include/eigen3/Eigen/Dense
#include <rematch/rematch.h>
#include <Eigen/Dense>

float updates(rematch::Segment &seg, Eigen::MatrixXf &acc, Eigen::MatrixXf &out,
              const Eigen::MatrixXf &a, const Eigen::MatrixXf &b) {
  return seg.forward([&] { // expect-note: callable is checkpointed by this call to 'rematch::Segment::forward'
    acc += a * b; // expect: rematch-counter-update {{updates 'acc' with '+='}}
    out = a * b; // expect: rematch-state-write {{writes 'out'}}
    out.setZero(); // expect: rematch-state-write {{writes 'out' with 'setZero'}}
    acc.resize(2, 2); // expect: rematch-state-write {{'resize'}}
    return a.sum();
  });
}

float draws(rematch::Segment &seg, Eigen::MatrixXf &noise) {
  return seg.forward([&] { // expect-note: callable is checkpointed expect-note: if it saves and restores the C library's rand() state, declare what
    // expect-next-line: rematch-unreplayed-rng {{draws from the C library's rand() state through 'Eigen::MatrixXf::Random', which 'rematch::Segment::forward' does not replay}}
    Eigen::MatrixXf r = Eigen::MatrixXf::Random(3, 3);
    Eigen::MatrixXf s(3, 3);
    s.setRandom(); // expect: rematch-unreplayed-rng {{draws from the C library's rand() state through 'Eigen::DenseBase::setRandom', which 'rematch::Segment::forward' does not replay}}
    noise.setRandom(); // expect: rematch-unreplayed-rng {{draws from the C library's rand() state through 'Eigen::DenseBase::setRandom', which 'rematch::Segment::forward' does not replay}}, rematch-state-write {{'noise'}}
    return (r + s).sum();
  });
}

// Locals, temporaries and pure expressions: nothing, and nothing from
// inside Eigen's product kernels either.
float locals(rematch::Segment &seg, const Eigen::MatrixXf &a,
             const Eigen::MatrixXf &b) {
  return seg.forward([&] {
    Eigen::MatrixXf m = a * b;
    m += a * b;
    m.setZero();
    m.resize(2, 2);
    Eigen::MatrixXf z = Eigen::MatrixXf::Zero(3, 3) + Eigen::MatrixXf::Identity(3, 3);
    Eigen::VectorXf v = a.colwise().sum().transpose();
    return m.sum() + z.norm() + v.maxCoeff() + (a.array() * b.array()).sum();
  });
}

// Eigen's thread count is the process's: set again by the recomputation;
// reading it is not.
float threads(rematch::Segment &seg, const Eigen::MatrixXf &a) {
  return seg.forward([&] { // expect-note: callable is checkpointed
    Eigen::setNbThreads(1); // expect: rematch-state-write {{writes 'Eigen's thread count' with 'setNbThreads'}}
    return a.sum() * float(Eigen::nbThreads());
  });
}

// Outside any checkpoint.
void plain(Eigen::MatrixXf &acc, const Eigen::MatrixXf &a) {
  Eigen::setNbThreads(2);
  acc += a * a;
  acc.setRandom();
}
