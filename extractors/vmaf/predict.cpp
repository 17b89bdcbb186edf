#include "extractors/vmaf/predict.hpp"

#include <cmath>
#include <vector>

namespace twinproof::vmaf {
namespace {

// libsvm's rbf kernel exp(-gamma * |x - sv|^2): the squared distance walks both sparse vectors in
// index order, adding the square of an entry present in one alone, in that order.
double rbf(const std::vector<SvmNode>& x, const std::vector<SvmNode>& sv, double gamma) {
  double sum = 0;
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < sv.size()) {
    if (x[i].index == sv[j].index) {
      const double d = x[i].value - sv[j].value;
      sum += d * d;
      ++i;
      ++j;
    } else if (x[i].index > sv[j].index) {
      sum += sv[j].value * sv[j].value;
      ++j;
    } else {
      sum += x[i].value * x[i].value;
      ++i;
    }
  }
  for (; i < x.size(); ++i) sum += x[i].value * x[i].value;
  for (; j < sv.size(); ++j) sum += sv[j].value * sv[j].value;
  return std::exp(-gamma * sum);
}

// The line through two knots, as libvmaf finds it.
void line_through(Point p1, Point p2, double& slope, double& offset) {
  if (p2.x - p1.x == 0 || p2.y - p1.y == 0) {
    slope = 1.0;
    offset = 0.0;
  } else if (p1.x == 0) {
    offset = p1.y;
    slope = (p2.y - offset) / p2.x;
  } else {
    slope = (p2.y - p1.y) / (p2.x - p1.x);
    offset = p1.y - p1.x * slope;
  }
}

// Each segment in turn may set y (a later one overrides an earlier one at a shared knot); the
// first and last extend below and above the knots.
double piecewise_linear(double x, const std::vector<Point>& k) {
  double y = 0.0;
  const std::size_t segments = k.size() - 1;
  for (std::size_t i = 0; i < segments; ++i) {
    const bool inside = k[i].x <= x && x <= k[i + 1].x;
    const bool below = i == 0 && x < k[i].x;
    const bool above = i == segments - 1 && x > k[i + 1].x;
    if (k[i].y == k[i + 1].y) {
      if (inside || below || above) y = k[i].y;
    } else {
      double slope = 0, offset = 0;
      line_through(k[i], k[i + 1], slope, offset);
      if (inside || below || above) y = slope * x + offset;
    }
  }
  return y;
}

double transform(const ScoreTransform& t, double y_in) {
  double y = y_in;
  if (t.has_p0 || t.has_p1 || t.has_p2) {
    y = 0.0;
    if (t.has_p0) y += t.p0;
    if (t.has_p1) y += t.p1 * y_in;
    if (t.has_p2) y += t.p2 * y_in * y_in;
  }
  if (t.has_knots) y = piecewise_linear(y, t.knots);
  if (t.out_lte_in && y > y_in) y = y_in;
  if (t.out_gte_in && y < y_in) y = y_in;
  return y;
}

}  // namespace

double predict(const Model& m, std::span<const double> values) {
  std::vector<SvmNode> x(m.features.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    double v = values[i];
    if (m.linear_rescale) v = m.features[i].slope * v + m.features[i].intercept;
    x[i] = {static_cast<int>(i + 1), v};
  }
  double sum = 0;
  for (std::size_t k = 0; k < m.support_vectors.size(); ++k) sum += m.sv_coef[k] * rbf(x, m.support_vectors[k], m.gamma);
  sum -= m.rho;
  double y = sum;
  if (m.linear_rescale) y = (y - m.intercept) / m.slope;
  if (m.transform.enabled) y = transform(m.transform, y);
  if (m.clip) {
    y = y < m.clip_min ? m.clip_min : y;
    y = y > m.clip_max ? m.clip_max : y;
  }
  return y;
}

}  // namespace twinproof::vmaf
