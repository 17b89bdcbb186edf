/* An example plugin twin of a pair feature (extractors/twinproof_plugin.h, version 2): libvmaf's
 * integer PSNR (extractors/psnr/CONTRACT.md) in plain C, as a user would write a twin of their
 * own. Each frame arrives as a pair through extract_pair. Built with -ffp-contract=off: the few
 * floating-point operations are the contract's, in its order, so the twin is exact.
 * With TWINPROOF_EXAMPLE_ABI_V1 the same twin is built as a version-1 table (extract only, the
 * reference picture): twinproof must call its psnr cells not supported, never score them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/twinproof_plugin.h"

typedef struct Instance {
  TwinproofFormat format;
  int planes; /* read: 1 or 3 */
  int enable_mse, reduced_hbd_peak;
  double min_sse, psnr_max[3];
  unsigned peak;
} Instance;

static void *create(int device, int capture_stages, char *error, size_t size) {
  (void)device;
  (void)capture_stages;
  Instance *in = calloc(1, sizeof *in);
  if (in == NULL) snprintf(error, size, "out of memory");
  return in;
}

static int boolean(const char *v, int *out) {
  if (strcmp(v, "true") == 0) return *out = 1, 1;
  if (strcmp(v, "false") == 0) return *out = 0, 1;
  return 0;
}

static TwinproofStatus init(void *instance, const TwinproofFormat *f, const TwinproofOption *options, size_t n, char *error,
                            size_t size) {
  Instance *in = instance;
  int enable_chroma = 1, apsnr = 0;
  in->format = *f;
  in->enable_mse = in->reduced_hbd_peak = 0;
  in->min_sse = 0;
  for (size_t i = 0; i < n; ++i) {
    const char *k = options[i].name, *v = options[i].value;
    int ok = 0;
    if (strcmp(k, "enable_chroma") == 0) ok = boolean(v, &enable_chroma);
    else if (strcmp(k, "enable_mse") == 0) ok = boolean(v, &in->enable_mse);
    else if (strcmp(k, "enable_apsnr") == 0) ok = boolean(v, &apsnr) && !apsnr;
    else if (strcmp(k, "reduced_hbd_peak") == 0) ok = boolean(v, &in->reduced_hbd_peak);
    else if (strcmp(k, "min_sse") == 0) {
      char *end = NULL;
      in->min_sse = strtod(v, &end);
      ok = end != v && *end == '\0' && isfinite(in->min_sse) && in->min_sse >= 0;
    }
    if (!ok) {
      snprintf(error, size, "option %s=%s is not taken", k, v);
      return TWINPROOF_REFUSED;
    }
  }
  if (f->bitdepth != 8 && f->bitdepth != 10 && f->bitdepth != 12 && f->bitdepth != 16) {
    snprintf(error, size, "bit depth %d", f->bitdepth);
    return TWINPROOF_REFUSED;
  }
  in->planes = enable_chroma && f->chroma != TWINPROOF_CHROMA_400 ? 3 : 1;
  const unsigned bpc = (unsigned)f->bitdepth;
  in->peak = in->reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1u;
  const int ss_hor = f->chroma != TWINPROOF_CHROMA_444, ss_ver = f->chroma == TWINPROOF_CHROMA_420;
  const unsigned w = (unsigned)f->width, h = (unsigned)f->height;
  for (int i = 0; i < 3; ++i) {
    if (in->min_sse != 0.0) {
      const unsigned samples = ((i && ss_hor) ? w / 2 : w) * ((i && ss_ver) ? h / 2 : h);
      in->psnr_max[i] = ceil(10. * log10((double)(in->peak * in->peak) / (in->min_sse / samples)));
    } else {
      in->psnr_max[i] = (double)(6 * bpc + 12);
    }
  }
  return TWINPROOF_OK;
}

static const char *const *metrics(void *instance) {
  static const char *const all[] = {"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr", NULL};
  static const char *const psnr_only[] = {"psnr_y", "psnr_cb", "psnr_cr", NULL};
  static const char *const luma[] = {"psnr_y", NULL};
  static const char *const luma_mse[] = {"psnr_y", "mse_y", NULL};
  const Instance *in = instance;
  if (in->planes == 1) return in->enable_mse ? luma_mse : luma;
  return in->enable_mse ? all : psnr_only;
}

static TwinproofStatus score_pair(void *instance, const TwinproofPicture *ref, const TwinproofPicture *dist, unsigned frame,
                                  TwinproofEmitScore emit, void *sink, char *error, size_t size) {
  (void)error;
  (void)size;
  const Instance *in = instance;
  static const char *const psnr_names[3] = {"psnr_y", "psnr_cb", "psnr_cr"}, *const mse_names[3] = {"mse_y", "mse_cb", "mse_cr"};
  const int hs = in->format.chroma == TWINPROOF_CHROMA_444 ? 0 : 1, vs = in->format.chroma == TWINPROOF_CHROMA_420 ? 1 : 0;
  for (int p = 0; p < in->planes; ++p) {
    const int w = p ? in->format.width >> hs : in->format.width, h = p ? in->format.height >> vs : in->format.height;
    uint64_t sse = 0;
    for (int y = 0; y < h; ++y) {
      const unsigned char *r = (const unsigned char *)ref->data[p] + ref->stride[p] * y;
      const unsigned char *d = (const unsigned char *)dist->data[p] + dist->stride[p] * y;
      for (int x = 0; x < w; ++x) {
        const int64_t e =
            in->format.bitdepth == 8 ? (int64_t)r[x] - d[x] : (int64_t)((const uint16_t *)r)[x] - ((const uint16_t *)d)[x];
        sse += (uint64_t)(e * e);
      }
    }
    const double mse = (double)sse / (unsigned)((unsigned)w * (unsigned)h);
    const double peak2 = in->format.bitdepth == 8 ? (double)(255 * 255) : (double)(in->peak * in->peak);
    const double v = 10. * log10(peak2 / (mse > 1e-16 ? mse : 1e-16));
    emit(sink, psnr_names[p], frame, v < in->psnr_max[p] ? v : in->psnr_max[p]);
    if (in->enable_mse) emit(sink, mse_names[p], frame, mse);
  }
  return TWINPROOF_OK;
}

#ifdef TWINPROOF_EXAMPLE_ABI_V1
/* Version 1 hands over the reference alone: what this build would score is the pair (ref, ref). */
static TwinproofStatus extract(void *instance, const TwinproofPicture *picture, unsigned frame, TwinproofEmitScore emit,
                               void *sink, char *error, size_t size) {
  return score_pair(instance, picture, picture, frame, emit, sink, error, size);
}
#endif

static TwinproofStatus flush(void *instance, TwinproofEmitScore emit, void *sink, char *error, size_t size) {
  (void)instance;
  (void)emit;
  (void)sink;
  (void)error;
  (void)size;
  return TWINPROOF_OK;
}

static void destroy(void *instance) { free(instance); }

TWINPROOF_PLUGIN_EXPORT const TwinproofPluginTwin *const *twinproof_plugin_twins(size_t *count) {
  static const TwinproofPluginTwin twin = {
#ifdef TWINPROOF_EXAMPLE_ABI_V1
      .abi_version = 1,
      .struct_size = TWINPROOF_PLUGIN_V1_SIZE,
      .name = "example-psnr-v1",
      .extract = extract,
#else
      .abi_version = TWINPROOF_PLUGIN_ABI_VERSION,
      .struct_size = sizeof(TwinproofPluginTwin),
      .name = "example-psnr",
      .extract_pair = score_pair,
#endif
      .feature = "psnr",
      .summary = "libvmaf's integer PSNR in plain C (plugin ABI example of a pair feature)",
      .version = "1",
      .device_kind = TWINPROOF_DEVICE_HOST,
      .create = create,
      .init = init,
      .metrics = metrics,
      .flush = flush,
      .inspect = NULL,
      .destroy = destroy,
  };
  static const TwinproofPluginTwin *const twins[] = {&twin};
  *count = 1;
  return twins;
}
