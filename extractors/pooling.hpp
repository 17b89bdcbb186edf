// libvmaf's pooling of a score over frames (vmaf_feature_score_pooled): a running sum and a running
// sum of 1/(s+1) in frame order, divided at the end. The vmaf feature's pooled scores of frames
// 0..t and the pooled_metrics of twinproof's libvmaf-shaped documents both come from here.
#pragma once

namespace twinproof {

class Pooling {
 public:
  void add(double score) {
    sum_ += score;
    inverse_sum_ += 1. / (score + 1.);
    if (count_ == 0 || score < min_) min_ = score;
    if (count_ == 0 || score > max_) max_ = score;
    ++count_;
  }
  unsigned count() const { return count_; }
  double mean() const { return sum_ / count_; }
  double harmonic_mean() const { return count_ / inverse_sum_ - 1.0; }
  double min() const { return min_; }
  double max() const { return max_; }

 private:
  unsigned count_ = 0;
  double sum_ = 0, inverse_sum_ = 0, min_ = 0, max_ = 0;
};

}  // namespace twinproof
