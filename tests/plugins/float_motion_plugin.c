/* An example twinproof plugin (extractors/twinproof_plugin.h): float_motion's luma score written
 * in plain C from the arithmetic contract, built outside twinproof's own code, as a user's kernel
 * would be. It shows what a plugin must do to be gated like a built-in twin: parse and refuse the
 * options as the reference does, score in the contract's order, emit the look-ahead metrics at the
 * right frames, and expose its stages for repro.
 *
 * Built twice (tests/plugins/CMakeLists.txt):
 *   example-plugin            the exact twin: every row's SAD added left to right, the rows top to
 *                             bottom, as the contract says;
 *   example-plugin-sad-order  the same with each row's SAD added right to left, a reordered sum that
 *                             the gate must fail and repro must trace to the row sums
 *                             (-DTWINPROOF_EXAMPLE_SAD_RIGHT_TO_LEFT).
 * What it implements: luma (every chroma format; chroma is not read), 8/10/12/16 bits, every
 * option but motion_add_uv and motion_add_scale1, which it reports as not supported.
 * Build with -ffp-contract=off: every operation below is one IEEE operation. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/twinproof_plugin.h"

#ifdef TWINPROOF_EXAMPLE_SAD_RIGHT_TO_LEFT
#define TWIN_NAME "example-plugin-sad-order"
#define TWIN_SUMMARY "example C plugin: float_motion luma with each row's SAD added right to left (must fail)"
#else
#define TWIN_NAME "example-plugin"
#define TWIN_SUMMARY "example C plugin: float_motion luma, the contract's order (exact)"
#endif

enum { OPT_BOOL, OPT_INT, OPT_REAL };

typedef struct Options {
  int force_zero, add_scale1, add_uv, debug, filter_size;
  double fps_weight, blend_factor, blend_offset, max_val;
} Options;

typedef struct OptionSpec {
  const char *name, *alias;
  int type;
  double min, max;
  size_t offset;
} OptionSpec;

static const OptionSpec kOptions[] = {
    {"motion_force_zero", "force_0", OPT_BOOL, 0, 1, offsetof(Options, force_zero)},
    {"motion_fps_weight", "mfw", OPT_REAL, 0, 5, offsetof(Options, fps_weight)},
    {"motion_blend_factor", "mbf", OPT_REAL, 0, 1, offsetof(Options, blend_factor)},
    {"motion_blend_offset", "mbo", OPT_REAL, 0, 1000, offsetof(Options, blend_offset)},
    {"motion_add_scale1", "mdc", OPT_BOOL, 0, 1, offsetof(Options, add_scale1)},
    {"motion_filter_size", "mfs", OPT_INT, 0, 9, offsetof(Options, filter_size)},
    {"motion_add_uv", "mau", OPT_BOOL, 0, 1, offsetof(Options, add_uv)},
    {"motion_max_val", "mmxv", OPT_REAL, 0, 10000, offsetof(Options, max_val)},
    {"debug", NULL, OPT_BOOL, 0, 1, offsetof(Options, debug)},
};
#define OPTION_COUNT (sizeof kOptions / sizeof kOptions[0])

static const float kF3[3] = {0.166378498f, 0.667243004f, 0.166378498f};
static const float kF5[5] = {0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f};
static const float kIdentity[5] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};

typedef struct Instance {
  Options o;
  int w, h, bitdepth;
  const float *taps;
  int taps_n, radius;
  float *blurred[2], *tmp, *rows;
  float total, score; /* of the latest pair */
  unsigned seen;      /* pictures extracted */
  unsigned last_label;
  double prev_s; /* S(t-2, t-1) */
  const char *metric_names[4];
} Instance;

static void say(char *error, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (size > 0) vsnprintf(error, size, fmt, ap);
  va_end(ap);
}

static int mirror(int k, int n) { return k < 0 ? -k : k >= n ? 2 * (n - 1) - k : k; }

/* A number as the reference reads one: the whole text, no sign '+', no space, no hex, finite. */
static int parse_number(const char *text, int integer, double *out) {
  if (text[0] == '\0' || isspace((unsigned char)text[0]) || text[0] == '+' || strpbrk(text, "xX") != NULL) return 0;
  char *end = NULL;
  errno = 0;
  if (integer) {
    const long long v = strtoll(text, &end, 10);
    if (*end != '\0' || errno != 0) return 0;
    *out = (double)v;
    return 1;
  }
  const double v = strtod(text, &end);
  if (*end != '\0' || !isfinite(v)) return 0;
  if (v == 0 && text[0] == '-') return 0; /* the reference refuses a negative zero */
  *out = v;
  return 1;
}

static TwinproofStatus parse_options(Options *o, const TwinproofOption *given, size_t n, char *error, size_t size) {
  int seen[OPTION_COUNT] = {0};
  for (size_t i = 0; i < n; ++i) {
    const OptionSpec *spec = NULL;
    size_t k = 0;
    for (; k < OPTION_COUNT; ++k)
      if (strcmp(given[i].name, kOptions[k].name) == 0 || (kOptions[k].alias && strcmp(given[i].name, kOptions[k].alias) == 0)) {
        spec = &kOptions[k];
        break;
      }
    if (spec == NULL) {
      say(error, size, "unknown option '%s'", given[i].name);
      return TWINPROOF_REFUSED;
    }
    if (seen[k]++) {
      say(error, size, "option %s is given more than once", spec->name);
      return TWINPROOF_REFUSED;
    }
    char *field = (char *)o + spec->offset;
    const char *v = given[i].value;
    if (spec->type == OPT_BOOL) {
      if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
        say(error, size, "option %s: '%s' is not true or false", spec->name, v);
        return TWINPROOF_REFUSED;
      }
      *(int *)field = strcmp(v, "true") == 0;
      continue;
    }
    double d = 0;
    if (!parse_number(v, spec->type == OPT_INT, &d) || !(d >= spec->min && d <= spec->max)) {
      say(error, size, "option %s: '%s' is not %s in [%g, %g]", spec->name, v, spec->type == OPT_INT ? "an integer" : "a number",
          spec->min, spec->max);
      return TWINPROOF_REFUSED;
    }
    if (spec->type == OPT_INT) *(int *)field = (int)d;
    else *(double *)field = d;
  }
  return TWINPROOF_OK;
}

static void *create(int device, int capture_stages, char *error, size_t size) {
  (void)device;
  (void)capture_stages; /* the stages are kept anyway: they are the working buffers */
  Instance *s = calloc(1, sizeof *s);
  if (s == NULL) say(error, size, "out of memory");
  return s;
}

static TwinproofStatus init(void *instance, const TwinproofFormat *f, const TwinproofOption *options, size_t n, char *error,
                            size_t size) {
  Instance *s = instance;
  s->o =
      (Options){.debug = 1, .filter_size = 5, .fps_weight = 1.0, .blend_factor = 1.0, .blend_offset = 40.0, .max_val = 10000.0};
  const TwinproofStatus st = parse_options(&s->o, options, n, error, size);
  if (st != TWINPROOF_OK) return st;
  if (f->bitdepth != 8 && f->bitdepth != 10 && f->bitdepth != 12 && f->bitdepth != 16) {
    say(error, size, "bit depth %d is not 8, 10, 12 or 16", f->bitdepth);
    return TWINPROOF_REFUSED;
  }
  if (s->o.add_uv && f->chroma == TWINPROOF_CHROMA_400) {
    say(error, size, "motion_add_uv on a 4:0:0 picture: there is no chroma");
    return TWINPROOF_REFUSED;
  }
  if (s->o.add_uv || s->o.add_scale1) {
    say(error, size, "this example scores luma only, without motion_add_uv and motion_add_scale1");
    return TWINPROOF_UNSUPPORTED;
  }
  s->w = f->width;
  s->h = f->height;
  s->bitdepth = f->bitdepth;
  s->taps = s->o.filter_size == 3 ? kF3 : s->o.filter_size == 1 ? kIdentity : kF5;
  s->taps_n = s->o.filter_size == 3 ? 3 : 5;
  s->radius = s->taps_n / 2;
  if (!s->o.force_zero && (s->w < s->radius + 1 || s->h < s->radius + 1)) {
    say(error, size, "plane Y is %dx%d, below the smallest legal size %dx%d", s->w, s->h, s->radius + 1, s->radius + 1);
    return TWINPROOF_REFUSED;
  }
  const size_t plane = (size_t)s->w * (size_t)s->h;
  s->blurred[0] = malloc(plane * sizeof(float));
  s->blurred[1] = malloc(plane * sizeof(float));
  s->tmp = malloc(plane * sizeof(float));
  s->rows = malloc((size_t)s->h * sizeof(float));
  if (!s->blurred[0] || !s->blurred[1] || !s->tmp || !s->rows) {
    say(error, size, "out of memory for a %dx%d plane", s->w, s->h);
    return TWINPROOF_FAULT;
  }
  int m = 0;
  if (s->o.debug) s->metric_names[m++] = "motion";
  s->metric_names[m++] = "motion2";
  s->metric_names[m++] = "motion3";
  s->metric_names[m] = NULL;
  return TWINPROOF_OK;
}

static const char *const *metrics(void *instance) { return ((Instance *)instance)->metric_names; }

/* Luma to fp32, vertical pass, horizontal pass (the contract's order, one IEEE operation each). */
static void blur(Instance *s, const TwinproofPicture *p, float *out) {
  const float scale = s->bitdepth == 8 ? 1.0f : s->bitdepth == 10 ? 4.0f : s->bitdepth == 12 ? 16.0f : 256.0f;
  const unsigned char *base = p->data[0];
  for (int i = 0; i < s->h; ++i)
    for (int j = 0; j < s->w; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < s->taps_n; ++k) {
        const unsigned char *row = base + p->stride[0] * mirror(i - s->radius + k, s->h);
        const unsigned sample = s->bitdepth == 8 ? row[j] : ((const unsigned short *)row)[j];
        const float v = (float)sample / scale + (-128.0f);
        acc = acc + s->taps[k] * v;
      }
      s->tmp[(size_t)i * s->w + j] = acc;
    }
  for (int i = 0; i < s->h; ++i)
    for (int j = 0; j < s->w; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < s->taps_n; ++k) acc = acc + s->taps[k] * s->tmp[(size_t)i * s->w + mirror(j - s->radius + k, s->w)];
      out[(size_t)i * s->w + j] = acc;
    }
}

/* S(earlier, later): the plane's SAD score, as a double. */
static double score(Instance *s, const float *a, const float *b) {
  for (int i = 0; i < s->h; ++i) {
    const float *ra = a + (size_t)i * s->w, *rb = b + (size_t)i * s->w;
    float row = 0.0f;
#ifdef TWINPROOF_EXAMPLE_SAD_RIGHT_TO_LEFT
    for (int j = s->w - 1; j >= 0; --j) row = row + fabsf(ra[j] - rb[j]);
#else
    for (int j = 0; j < s->w; ++j) row = row + fabsf(ra[j] - rb[j]);
#endif
    s->rows[i] = row;
  }
  float total = 0.0f;
  for (int i = 0; i < s->h; ++i) total = total + s->rows[i];
  s->total = total;
  s->score = total / (float)(s->w * s->h);
  return (double)s->score;
}

static double clip(const Options *o, double m) { return fmin(m * o->fps_weight, o->max_val); }
static double clip3(const Options *o, double m) {
  const double weighted = m * o->fps_weight;
  const double blended = weighted * o->blend_factor + (1 - o->blend_factor) * fmin(o->blend_offset, weighted);
  return fmin(blended, o->max_val);
}

static TwinproofStatus extract(void *instance, const TwinproofPicture *p, unsigned t, TwinproofEmitScore emit, void *sink,
                               char *error, size_t size) {
  Instance *s = instance;
  if (p->format.width != s->w || p->format.height != s->h) {
    say(error, size, "picture %u is %dx%d, not %dx%d", t, p->format.width, p->format.height, s->w, s->h);
    return TWINPROOF_REFUSED;
  }
  const unsigned i = s->seen++;
  s->last_label = t;
  if (s->o.force_zero) {
    if (s->o.debug) emit(sink, "motion", t, 0.0);
    emit(sink, "motion2", t, 0.0);
    emit(sink, "motion3", t, 0.0);
    return TWINPROOF_OK;
  }
  float *cur = s->blurred[i & 1u], *prev = s->blurred[(i + 1) & 1u];
  blur(s, p, cur);
  if (i == 0) {
    if (s->o.debug) emit(sink, "motion", t, 0.0);
    emit(sink, "motion2", t, 0.0);
    return TWINPROOF_OK;
  }
  const double st = score(s, prev, cur);
  if (s->o.debug) emit(sink, "motion", t, clip(&s->o, st));
  if (i == 1) {
    emit(sink, "motion3", t - 1, clip3(&s->o, st));
  } else {
    const double m2 = fmin(s->prev_s, st);
    emit(sink, "motion2", t - 1, clip(&s->o, m2));
    emit(sink, "motion3", t - 1, clip3(&s->o, m2));
  }
  s->prev_s = st;
  return TWINPROOF_OK;
}

static TwinproofStatus flush(void *instance, TwinproofEmitScore emit, void *sink, char *error, size_t size) {
  (void)error;
  (void)size;
  Instance *s = instance;
  if (s->o.force_zero || s->seen == 0) return TWINPROOF_OK;
  if (s->seen == 1) {
    emit(sink, "motion3", s->last_label, 0.0);
  } else {
    emit(sink, "motion2", s->last_label, clip(&s->o, s->prev_s));
    emit(sink, "motion3", s->last_label, clip3(&s->o, s->prev_s));
  }
  return TWINPROOF_OK;
}

/* The latest picture's blurred luma, and the latest pair's row sums, total and score. */
static int inspect(void *instance, const char *stage, TwinproofEmitArray emit, void *sink) {
  Instance *s = instance;
  if (s->o.force_zero || s->seen == 0) return 0;
  const int have_pair = s->seen >= 2;
  if (strcmp(stage, "blurred") == 0 || (strcmp(stage, "row_sums") == 0 && have_pair)) {
    const int rows = strcmp(stage, "row_sums") == 0;
    const size_t n = rows ? (size_t)s->h : (size_t)s->w * s->h;
    const float *src = rows ? s->rows : s->blurred[(s->seen - 1) & 1u];
    double *values = malloc(n * sizeof(double));
    if (values == NULL) return 0;
    for (size_t k = 0; k < n; ++k) values[k] = src[k];
    emit(sink, "Y", rows ? 1 : s->w, s->h, 1, values);
    free(values);
    return 1;
  }
  if ((strcmp(stage, "plane_totals") == 0 || strcmp(stage, "plane_scores") == 0) && have_pair) {
    const double v = strcmp(stage, "plane_totals") == 0 ? s->total : s->score;
    emit(sink, "Y", 1, 1, 1, &v);
    return 1;
  }
  return 0;
}

static void destroy(void *instance) {
  Instance *s = instance;
  if (s == NULL) return;
  free(s->blurred[0]);
  free(s->blurred[1]);
  free(s->tmp);
  free(s->rows);
  free(s);
}

static const TwinproofPluginTwin kTwin = {
    .abi_version = TWINPROOF_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(TwinproofPluginTwin),
    .feature = "float_motion",
    .name = TWIN_NAME,
    .summary = TWIN_SUMMARY,
    .version = "1.0",
    .device_kind = TWINPROOF_DEVICE_HOST,
    .create = create,
    .init = init,
    .metrics = metrics,
    .extract = extract,
    .flush = flush,
    .inspect = inspect,
    .destroy = destroy,
};

TWINPROOF_PLUGIN_EXPORT const TwinproofPluginTwin *const *twinproof_plugin_twins(size_t *count) {
  static const TwinproofPluginTwin *const twins[] = {&kTwin};
  *count = 1;
  return twins;
}
