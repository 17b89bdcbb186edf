#include "extractors/vmaf/model_backend.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "extractors/registry.hpp"
#include "extractors/vmaf/options.hpp"
#include "extractors/vmaf/predict.hpp"

namespace twinproof::vmaf {
namespace {

const char* const kScoreMetrics[] = {"vmaf", "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min", "vmaf_max"};

// One feature the model reads, computed by one backend.
struct Part {
  std::string feature;
  std::string backend;
  OptionList options;
  std::unique_ptr<Extractor> extractor;
  std::vector<std::pair<std::string, std::size_t>> wanted;  // (its metric, the model feature's index)
};

// One frame's model features as they come in.
struct PendingFrame {
  std::vector<double> values;
  std::vector<char> arrived;
  std::size_t missing = 0;
};

class ModelExtractor final : public Extractor, private ScoreSink {
 public:
  // The default model's feature backends are made here, so that whatever stops one of them (an
  // unknown SIMD level, no device) stops this backend when it is made, as it stops theirs; init
  // uses them for whichever model it loads.
  ModelExtractor(const ExtractorContext& ctx, std::string backend, std::map<std::string, std::string> overrides)
      : ctx_(ctx), backend_(std::move(backend)), overrides_(std::move(overrides)) {
    for (const ModelFeature& f : load_model(VmafOptions{}).features)
      if (!prepared_.count(f.feature)) prepared_[f.feature] = make_part(f.feature, backend_for(f.feature), f.metric);
  }

  void init(const Format& fmt, const OptionList& options) override {
    model_ = load_model(parse_options(options));
    parts_.clear();
    for (std::size_t i = 0; i < model_.features.size(); ++i) {
      const ModelFeature& f = model_.features[i];
      auto part = std::find_if(parts_.begin(), parts_.end(), [&](const Part& p) { return p.feature == f.feature; });
      if (part == parts_.end()) {
        parts_.push_back({f.feature, backend_for(f.feature), f.options, nullptr, {}});
        part = parts_.end() - 1;
      } else if (part->options != f.options) {
        throw RefusedConfiguration("model " + model_.source, f.libvmaf_name,
                                   fmt::format("model {}: {} asks feature {} for other options than the model's other {} "
                                               "features (twinproof runs one {} per model)",
                                               model_.source, f.libvmaf_name, f.feature, f.feature, f.feature));
      }
      part->wanted.emplace_back(f.metric, i);
    }
    for (Part& p : parts_) {
      if (auto it = prepared_.find(p.feature); it != prepared_.end() && it->second) p.extractor = std::move(it->second);
      else p.extractor = make_part(p.feature, p.backend, p.wanted.front().first);
      try {
        p.extractor->init(fmt, p.options);
      } catch (const ConfigError& e) {
        refuse_as_model_field(p, e);
        throw;
      }
    }
    pending_.clear();
    first_pending_ = 0;
    started_ = false;
    pool_ = Pooling{};
    captured_.clear();
  }

  void extract(const PictureView& ref, const PictureView& dist, unsigned frame, ScoreSink& sink) override {
    if (!started_) {
      first_pending_ = frame;
      started_ = true;
    }
    const std::size_t n = model_.features.size();
    pending_.push_back({std::vector<double>(n, 0.0), std::vector<char>(n, 0), n});
    for (Part& p : parts_) {
      current_ = &p;
      p.extractor->extract(ref, dist, frame, *this);
    }
    emit_ready(sink);
  }

  void flush(ScoreSink& sink) override {
    for (Part& p : parts_) {
      current_ = &p;
      p.extractor->flush(*this);
    }
    emit_ready(sink);
    if (!pending_.empty()) {
      const PendingFrame& f = pending_.front();
      std::size_t i = 0;
      while (i < f.arrived.size() && f.arrived[i]) ++i;
      throw std::runtime_error(fmt::format("vmaf: feature {} ({} backend) gave no {} for frame {}", model_.features[i].feature,
                                           backend_for(model_.features[i].feature), model_.features[i].metric, first_pending_));
    }
  }

  std::vector<std::string> metrics() const override {
    std::vector<std::string> out(std::begin(kScoreMetrics), std::end(kScoreMetrics));
    for (const ModelFeature& f : model_.features) out.push_back(f.metric);
    return out;
  }

  std::optional<Probe> inspect(std::string_view stage) const override {
    if (!ctx_.capture_stages || (stage != "features" && stage != "outputs")) return std::nullopt;
    Probe p{std::string(stage), {}};
    for (const auto& [name, v] : captured_)
      if ((stage == "features") != (name.rfind("vmaf", 0) == 0)) p.arrays.push_back(ProbeArray{name, 1, 1, false, {v}});
    return p;
  }

  std::vector<ExtractorPart> parts() const override {
    std::vector<ExtractorPart> out;
    for (const Part& p : parts_) {
      ExtractorPart e{p.feature, p.backend, p.options, {}};
      for (const auto& [metric, index] : p.wanted) e.metrics.push_back(metric);
      out.push_back(std::move(e));
    }
    return out;
  }

  int planes_read() const override {
    int planes = 1;
    for (const Part& p : parts_) planes = std::max(planes, p.extractor->planes_read());
    return planes;
  }
  std::shared_ptr<HostMemory> frame_memory() const override {
    for (const Part& p : parts_)
      if (auto m = p.extractor->frame_memory()) return m;
    return nullptr;
  }
  std::optional<double> device_ms() const override {
    std::optional<double> total;
    for (const Part& p : parts_)
      if (const auto ms = p.extractor->device_ms()) total = total.value_or(0) + *ms;
    return total;
  }

 private:
  // An option the model gives a feature (feature_opts_dicts) that the feature refuses is a field of
  // the model file: the refusal names the file, the field and the value.
  void refuse_as_model_field(const Part& p, const ConfigError& e) const {
    const FeatureDescriptor& d = feature_or_throw(p.feature);
    for (std::size_t i = 0; i < model_.features.size(); ++i) {
      if (model_.features[i].feature != p.feature) continue;
      for (const auto& [name, value] : model_.features[i].options) {
        const OptionSpec* spec = find_option(d.options, name);
        if (e.subject() == "option " + name || (spec != nullptr && e.subject() == std::string("option ") + spec->name))
          throw FileRefusal("model " + model_.source, fmt::format("model_dict.feature_opts_dicts[{}].{}", i, name), value,
                            e.what());
      }
    }
  }

  std::string backend_for(const std::string& feature) const {
    const auto it = overrides_.find(feature);
    return it == overrides_.end() ? backend_ : it->second;
  }

  std::unique_ptr<Extractor> make_part(const std::string& feature, const std::string& backend, const std::string& metric) const {
    const Backend* b = find_backend(feature, backend, /*with_mutants=*/true);
    if (b == nullptr)
      throw BackendUnavailable("backend " + backend, feature,
                               fmt::format("vmaf: feature {} has no backend '{}' for the model's {}", feature, backend, metric));
    return make_extractor(*b, ctx_);
  }

  // ScoreSink of the parts: keeps the metrics the model reads (the parts' other metrics are dropped).
  void put(std::string_view metric, unsigned frame, double value) override {
    for (const auto& [wanted, index] : current_->wanted) {
      if (wanted != metric) continue;
      if (frame < first_pending_ || frame >= first_pending_ + pending_.size())
        throw std::logic_error(
            fmt::format("vmaf: feature {} emitted {} of frame {}, which is not in flight", current_->feature, metric, frame));
      PendingFrame& f = pending_[frame - first_pending_];
      if (f.arrived[index])
        throw std::logic_error(fmt::format("vmaf: feature {} emitted {} of frame {} twice", current_->feature, metric, frame));
      f.values[index] = value;
      f.arrived[index] = 1;
      --f.missing;
    }
  }

  void emit_ready(ScoreSink& sink) {
    while (!pending_.empty() && pending_.front().missing == 0) {
      const PendingFrame f = std::move(pending_.front());
      pending_.pop_front();
      const unsigned label = first_pending_++;
      const double score = predict(model_, f.values);
      pool_.add(score);
      const double scores[] = {score, pool_.mean(), pool_.harmonic_mean(), pool_.min(), pool_.max()};
      // A model whose numbers are in range one by one can still overflow a double together (a
      // score near the largest double, whose pooled mean overflows): such a frame has no score,
      // and nan or inf must never reach a document as one.
      for (std::size_t k = 0; k < std::size(kScoreMetrics); ++k)
        if (!std::isfinite(scores[k]))
          throw RefusedConfiguration("model " + model_.source, fmt::format("frame {}", label),
                                     fmt::format("model {}: the {} of frame {} is {}: the model's numbers overflow a double "
                                                 "on these features",
                                                 model_.source, kScoreMetrics[k], label, scores[k]));
      if (ctx_.capture_stages) captured_.clear();
      auto put_one = [&](const std::string& metric, double v) {
        if (ctx_.capture_stages) captured_.emplace_back(fmt::format("{}[{}]", metric, label), v);
        sink.put(metric, label, v);
      };
      for (std::size_t k = 0; k < std::size(kScoreMetrics); ++k) put_one(kScoreMetrics[k], scores[k]);
      for (std::size_t i = 0; i < model_.features.size(); ++i) put_one(model_.features[i].metric, f.values[i]);
    }
  }

  ExtractorContext ctx_;
  std::string backend_;
  std::map<std::string, std::string> overrides_;
  Model model_;
  std::map<std::string, std::unique_ptr<Extractor>> prepared_;  // made with this backend, not yet used
  std::vector<Part> parts_;
  Part* current_ = nullptr;
  std::deque<PendingFrame> pending_;
  unsigned first_pending_ = 0;  // the label of pending_.front()
  bool started_ = false;
  Pooling pool_;
  std::vector<std::pair<std::string, double>> captured_;
};

}  // namespace

std::unique_ptr<Extractor> make_model_backend(const ExtractorContext& ctx, std::string backend,
                                              std::map<std::string, std::string> overrides) {
  return std::make_unique<ModelExtractor>(ctx, std::move(backend), std::move(overrides));
}

}  // namespace twinproof::vmaf
