/* twinproof's libvmaf driver: runs one feature of any libvmaf build (upstream or a fork) through
 * libvmaf's public API over a pair of raw planar clips (or one clip as both), on the CPU or, built with -DTWINPROOF_DRIVER_CUDA
 * against a libvmaf with CUDA, through libvmaf's CUDA state, and prints every requested score of
 * every frame as a hex float (%a), which reads back as the exact double. It is the exec twin
 * `libvmaf` / `libvmaf-cuda` (ci/twins/libvmaf.json); scripts/build-libvmaf.sh builds it.
 *
 *   twinproof-libvmaf-driver (--input FILE | --reference FILE --distorted FILE) --width W --height H
 *       --bitdepth B --chroma 420|422|444|400 --feature NAME [--option KEY=VALUE]...
 *       --metric KEY [--metric KEY]... [--cpumask MASK] [--threads N] [--cuda]
 *
 * --input gives one clip as both reference and distorted picture (the motion features read one
 * clip); --reference and --distorted give a pair, which must hold the same number of frames.
 * --cpumask is libvmaf's: each bit set disables a CPU feature for its SIMD paths (-1: every one,
 * libvmaf's C code alone, which is how the project's goldens are made); --threads is libvmaf's
 * n_threads (0: the caller's thread).
 * A KEY is the name libvmaf's feature collector stores a score under. Output (stdout):
 *   Frame,KEY1,KEY2,
 *   0,0x1.cebae6p+4,0x0p+0,
 * A score libvmaf does not have for a frame is an empty field. Exit status: 0 scored; 1 libvmaf
 * refused or failed (its words on stderr); 2 bad arguments or input; 3 this build cannot do what
 * was asked: the twin is not supported here (--cuda without CUDA, without a usable device, or
 * for a feature without a CUDA extractor).
 *
 * --feature vmaf scores a model (twinproof's feature vmaf): --option model=VERSION loads a built-in
 * model (vmaf_model_load), model=PATH a model file (any value with a '/' or ending in .json), and
 * disable_clip=true / enable_transform=true set libvmaf's model flags; the model's own features run
 * through vmaf_use_features_from_model (their CUDA extractors with --cuda, as libvmaf picks them).
 * Its keys: "vmaf" (the model's name) per frame, "vmaf_mean", "vmaf_harmonic_mean", "vmaf_min" and
 * "vmaf_max" (vmaf_score_pooled over frames 0..i at frame i), and the features' collector keys.
 *
 * --cuda runs the feature's CUDA extractor, which libvmaf names NAME_cuda ("motion_cuda"):
 * vmaf_use_feature picks an extractor by that name, so with a CUDA state imported "motion" would
 * still run the CPU extractor. A feature without one is not supported, never run on the CPU
 * under the CUDA twin's name. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#ifdef TWINPROOF_DRIVER_CUDA
#include <libvmaf/libvmaf_cuda.h>
#endif

#define MAX_ITEMS 64

static void usage(const char *why) {
  fprintf(stderr, "twinproof-libvmaf-driver: %s\n", why);
  exit(2);
}

/* A whole number of 0 or more (--threads, --cpumask; -1 is every bit of a mask). */
static unsigned long long whole(const char *flag, const char *text) {
  if (!strcmp(text, "-1")) return ~0ull;
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(text, &end, 0);
  if (errno || end == text || *end != '\0' || text[0] == '-') {
    fprintf(stderr, "twinproof-libvmaf-driver: %s '%s': expected a whole number (or -1 for a mask of every bit)\n", flag, text);
    exit(2);
  }
  return v;
}

/* Reads the next frame of `in` into `frame`; 1 read, 0 the end, exit 2 on a short frame. */
static int read_frame(FILE *in, const char *name, unsigned index, unsigned char *frame, size_t frame_bytes) {
  const size_t got = fread(frame, 1, frame_bytes, in);
  if (got == 0) {
    if (ferror(in)) {
      fprintf(stderr, "twinproof-libvmaf-driver: %s: read error\n", name);
      exit(2);
    }
    return 0;
  }
  if (got != frame_bytes) {
    fprintf(stderr, "twinproof-libvmaf-driver: %s: frame %u is cut short (%zu of %zu bytes)\n", name, index, got, frame_bytes);
    exit(2);
  }
  return 1;
}

static unsigned number(const char *flag, const char *text) {
  char *end = NULL;
  errno = 0;
  const unsigned long v = strtoul(text, &end, 10);
  if (errno || end == text || *end != '\0' || v == 0 || v > 65536) {
    fprintf(stderr, "twinproof-libvmaf-driver: %s '%s': expected a positive integer\n", flag, text);
    exit(2);
  }
  return (unsigned)v;
}

static void check(int err, const char *what) {
  if (err) {
    fprintf(stderr, "twinproof-libvmaf-driver: %s failed: %s (%d)\n", what, strerror(err < 0 ? -err : err), err);
    exit(1);
  }
}

/* The options as libvmaf's dictionary (NULL for none); vmaf_use_feature takes it over. */
static VmafFeatureDictionary *dictionary(const char *const *options, unsigned n) {
  VmafFeatureDictionary *dict = NULL;
  for (unsigned k = 0; k < n; ++k) {
    char key[256];
    const char *eq = strchr(options[k], '=');
    if (!eq || eq == options[k] || (size_t)(eq - options[k]) >= sizeof key) usage("--option is KEY=VALUE");
    memcpy(key, options[k], (size_t)(eq - options[k]));
    key[eq - options[k]] = '\0';
    check(vmaf_feature_dictionary_set(&dict, key, eq + 1), "vmaf_feature_dictionary_set");
  }
  return dict;
}

/* Whether this libvmaf has an extractor named `name`, asked of a scratch context. */
static int has_extractor(const char *name) {
  VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE};
  VmafContext *scratch = NULL;
  check(vmaf_init(&scratch, cfg), "vmaf_init");
  const int ok = vmaf_use_feature(scratch, name, NULL) == 0;
  check(vmaf_close(scratch), "vmaf_close");
  return ok;
}

/* The model the options of --feature vmaf name, loaded; the options are libvmaf's model settings,
 * not an extractor's. */
static VmafModel *load_model(const char *const *options, unsigned n) {
  const char *spec = "vmaf_v0.6.1";
  uint64_t flags = VMAF_MODEL_FLAGS_DEFAULT;
  for (unsigned k = 0; k < n; ++k) {
    const char *eq = strchr(options[k], '=');
    if (!eq) usage("--option is KEY=VALUE");
    const size_t len = (size_t)(eq - options[k]);
    const char *value = eq + 1;
    if (len == 5 && !strncmp(options[k], "model", 5)) spec = value;
    else if (len == 12 && !strncmp(options[k], "disable_clip", 12) && !strcmp(value, "true"))
      flags |= VMAF_MODEL_FLAG_DISABLE_CLIP;
    else if (len == 16 && !strncmp(options[k], "enable_transform", 16) && !strcmp(value, "true"))
      flags |= VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
    else if (!(len == 12 && !strncmp(options[k], "disable_clip", 12)) &&
             !(len == 16 && !strncmp(options[k], "enable_transform", 16))) {
      fprintf(stderr, "twinproof-libvmaf-driver: --feature vmaf: unknown option '%s' (model, disable_clip, enable_transform)\n",
              options[k]);
      exit(1);
    }
  }
  VmafModelConfig cfg = {.name = "vmaf", .flags = flags};
  VmafModel *model = NULL;
  const size_t len = strlen(spec);
  const int is_path = strchr(spec, '/') != NULL || (len > 5 && !strcmp(spec + len - 5, ".json"));
  const int err = is_path ? vmaf_model_load_from_path(&model, &cfg, spec) : vmaf_model_load(&model, &cfg, spec);
  if (err) {
    fprintf(stderr, "twinproof-libvmaf-driver: --feature vmaf: libvmaf cannot load model '%s' (%d)\n", spec, err);
    exit(1);
  }
  return model;
}

/* The pooling method a pooled key names, or 0 for any other key. */
static enum VmafPoolingMethod pooled_method(const char *key) {
  if (!strcmp(key, "vmaf_mean")) return VMAF_POOL_METHOD_MEAN;
  if (!strcmp(key, "vmaf_harmonic_mean")) return VMAF_POOL_METHOD_HARMONIC_MEAN;
  if (!strcmp(key, "vmaf_min")) return VMAF_POOL_METHOD_MIN;
  if (!strcmp(key, "vmaf_max")) return VMAF_POOL_METHOD_MAX;
  return 0;
}

/* The command line, checked. */
struct Args {
  const char *reference, *distorted, *feature, *chroma;
  unsigned long long cpumask, threads;
  unsigned width, height, bitdepth, n_options, n_metrics;
  const char *options[MAX_ITEMS], *metrics[MAX_ITEMS];
  int cuda;
  enum VmafPixelFormat pix_fmt;
  /* The file's layout, from the above: bytes a sample, planes, a chroma plane's size. */
  unsigned bytes, planes, chroma_w, chroma_h;
};

/* Reads the flags into `a`; -1 to go on, else the exit status (--version, an unknown flag). A bad
 * value ends the process through usage(). */
static int parse_args(int argc, char **argv, struct Args *a) {
  const char *input = NULL;
  unsigned ss_x = 1, ss_y = 1; /* chroma subsampling shifts */
  *a = (struct Args){.chroma = "420", .bitdepth = 8};
  for (int i = 1; i < argc; ++i) {
    const char *f = argv[i];
    if (!strcmp(f, "--cuda")) {
      a->cuda = 1;
      continue;
    }
    if (!strcmp(f, "--version")) {
      printf("twinproof-libvmaf-driver, libvmaf %s%s\n", vmaf_version(),
#ifdef TWINPROOF_DRIVER_CUDA
             " (built with CUDA)"
#else
             ""
#endif
      );
      return 0;
    }
    if (i + 1 >= argc) usage("every flag but --cuda and --version takes a value");
    const char *v = argv[++i];
    if (!strcmp(f, "--input")) input = v;
    else if (!strcmp(f, "--reference")) a->reference = v;
    else if (!strcmp(f, "--distorted")) a->distorted = v;
    else if (!strcmp(f, "--cpumask")) a->cpumask = whole(f, v);
    else if (!strcmp(f, "--threads")) {
      a->threads = whole(f, v);
      if (a->threads > 1024) usage("--threads is at most 1024");
    } else if (!strcmp(f, "--width")) a->width = number(f, v);
    else if (!strcmp(f, "--height")) a->height = number(f, v);
    else if (!strcmp(f, "--bitdepth")) a->bitdepth = number(f, v);
    else if (!strcmp(f, "--chroma")) a->chroma = v;
    else if (!strcmp(f, "--feature")) a->feature = v;
    else if (!strcmp(f, "--option")) {
      if (a->n_options == MAX_ITEMS) usage("too many --option");
      a->options[a->n_options++] = v;
    } else if (!strcmp(f, "--metric")) {
      if (a->n_metrics == MAX_ITEMS) usage("too many --metric");
      a->metrics[a->n_metrics++] = v;
    } else {
      fprintf(stderr, "twinproof-libvmaf-driver: unknown flag '%s'\n", f);
      return 2;
    }
  }
  if (input && (a->reference || a->distorted))
    usage("--input is one clip as both pictures: give it, or --reference and --distorted");
  if (input) a->reference = a->distorted = input;
  if (!a->reference || !a->distorted) usage("--reference and --distorted (or --input) are required");
  if (!a->feature || !a->width || !a->height || !a->n_metrics) usage("--width, --height, --feature and --metric are required");
  if (a->bitdepth != 8 && a->bitdepth != 10 && a->bitdepth != 12 && a->bitdepth != 16) usage("--bitdepth is 8, 10, 12 or 16");
  if (!strcmp(a->chroma, "420")) a->pix_fmt = VMAF_PIX_FMT_YUV420P;
  else if (!strcmp(a->chroma, "422")) a->pix_fmt = VMAF_PIX_FMT_YUV422P, ss_y = 0;
  else if (!strcmp(a->chroma, "444")) a->pix_fmt = VMAF_PIX_FMT_YUV444P, ss_x = 0, ss_y = 0;
  else if (!strcmp(a->chroma, "400")) a->pix_fmt = VMAF_PIX_FMT_YUV400P;
  else usage("--chroma is 420, 422, 444 or 400");
  a->bytes = a->bitdepth > 8 ? 2 : 1;
  a->planes = a->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
  a->chroma_w = (a->width + ss_x) >> ss_x;
  a->chroma_h = (a->height + ss_y) >> ss_y;
  return -1;
}

/* libvmaf's context with the feature (or the model and its features) in use, on the CUDA state
 * with --cuda; *model is the loaded model or NULL. Returns 0, or 3 when this build or this machine
 * cannot do what was asked (the twin is not supported here). */
static int open_context(const struct Args *a, VmafContext **vmaf, VmafModel **model) {
#ifndef TWINPROOF_DRIVER_CUDA
  if (a->cuda) {
    fprintf(
        stderr,
        "twinproof-libvmaf-driver: --cuda: this driver was built without CUDA (build it with scripts/build-libvmaf.sh --cuda)\n");
    return 3;
  }
#endif
  const int is_model = !strcmp(a->feature, "vmaf");
  const char *extractor = a->feature;
  static char cuda_extractor[256];
  if (a->cuda && !is_model) {
    if (snprintf(cuda_extractor, sizeof cuda_extractor, "%s_cuda", a->feature) >= (int)sizeof cuda_extractor)
      usage("--feature is too long");
    extractor = cuda_extractor;
    /* A probe on a scratch context (an extractor is only initialised at the first picture). It
     * cannot check the options: libvmaf ignores a key that is not in an extractor's option table,
     * so an option the CUDA extractor lacks is silently not applied (the scores show it). */
    if (!has_extractor(extractor)) {
      fprintf(stderr, "twinproof-libvmaf-driver: --cuda: this libvmaf has no CUDA extractor of %s (no extractor named %s)\n",
              a->feature, extractor);
      return 3;
    }
  }
  VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR,
                           .n_threads = (unsigned)a->threads,
                           .n_subsample = 1,
                           .cpumask = a->cpumask,
                           .gpumask = 0};
  check(vmaf_init(vmaf, cfg), "vmaf_init");
#ifdef TWINPROOF_DRIVER_CUDA
  if (a->cuda) {
    VmafCudaState *cu_state = NULL;
    VmafCudaConfiguration cu_cfg = {.cu_ctx = NULL};
    /* No driver or device here: the twin cannot run on this machine (not a refusal). */
    const int err = vmaf_cuda_state_init(&cu_state, cu_cfg);
    if (err) {
      fprintf(stderr, "twinproof-libvmaf-driver: --cuda: vmaf_cuda_state_init failed (%d): no usable CUDA driver or device\n",
              err);
      return 3;
    }
    check(vmaf_cuda_import_state(*vmaf, cu_state), "vmaf_cuda_import_state");
  }
#endif
  *model = NULL;
  if (is_model) {
    *model = load_model(a->options, a->n_options);
    check(vmaf_use_features_from_model(*vmaf, *model), "vmaf_use_features_from_model");
  } else {
    check(vmaf_use_feature(*vmaf, extractor, dictionary(a->options, a->n_options)),
          "vmaf_use_feature (the feature or its options)");
  }
  return 0;
}

/* One frame of the file into a libvmaf picture. The file stores chroma planes of ceil(w/2) x
 * ceil(h/2) samples (4:2:0, odd sizes); libvmaf allocates floor(w/2) x floor(h/2). Copy what
 * libvmaf holds: the last column and row of an odd-sized chroma plane do not reach it (and
 * copying them would overrun its buffer). Host pictures in both cases: with a CUDA state
 * imported, libvmaf uploads them itself (the path its own vmaf tool takes), so the driver needs
 * no API newer than the state's. */
static void to_picture(const struct Args *a, const unsigned char *src, VmafPicture *pic) {
  const unsigned bytes = a->bytes;
  check(vmaf_picture_alloc(pic, a->pix_fmt, a->bitdepth, a->width, a->height), "vmaf_picture_alloc");
  size_t offset = 0;
  for (unsigned plane = 0; plane < a->planes; ++plane) {
    const unsigned w = plane ? a->chroma_w : a->width, h = plane ? a->chroma_h : a->height;
    const unsigned copy_w = pic->w[plane] < w ? pic->w[plane] : w;
    const unsigned copy_h = pic->h[plane] < h ? pic->h[plane] : h;
    for (unsigned y = 0; y < copy_h; ++y)
      memcpy((unsigned char *)pic->data[plane] + (size_t)pic->stride[plane] * y, src + offset + (size_t)y * w * bytes,
             (size_t)copy_w * bytes);
    offset += (size_t)w * h * bytes;
  }
}

/* Every frame of the pair into libvmaf, then the flush. Returns 0 with the count in *frames, or
 * the exit status: 2 for a file that cannot be read or clips of unequal length, 1 out of memory. */
static int feed_frames(const struct Args *a, VmafContext *vmaf, unsigned *frames) {
  const char *reference = a->reference, *distorted = a->distorted;
  FILE *files[2] = {fopen(reference, "rb"), distorted == reference ? NULL : fopen(distorted, "rb")};
  const char *names[2] = {reference, distorted};
  for (int p = 0; p < 2; ++p)
    if (!files[p] && !(p == 1 && distorted == reference)) {
      fprintf(stderr, "twinproof-libvmaf-driver: %s: %s\n", names[p], strerror(errno));
      return 2;
    }
  const size_t frame_bytes =
      (size_t)a->bytes * ((size_t)a->width * a->height + (a->planes == 3 ? 2 * (size_t)a->chroma_w * a->chroma_h : 0));
  unsigned char *frame[2] = {malloc(frame_bytes), malloc(frame_bytes)};
  if (!frame[0] || !frame[1]) return 1;
  *frames = 0;
  for (;;) {
    const int have_ref = read_frame(files[0], reference, *frames, frame[0], frame_bytes);
    const int have_dist = files[1] ? read_frame(files[1], distorted, *frames, frame[1], frame_bytes) : have_ref;
    if (have_ref != have_dist) {
      fprintf(stderr, "twinproof-libvmaf-driver: %s holds %u frames and %s more\n", have_ref ? distorted : reference, *frames,
              have_ref ? reference : distorted);
      return 2;
    }
    if (!have_ref) break;
    VmafPicture pics[2];
    for (int p = 0; p < 2; ++p) to_picture(a, files[1] ? frame[p] : frame[0], &pics[p]);
    check(vmaf_read_pictures(vmaf, &pics[0], &pics[1], *frames), "vmaf_read_pictures");
    ++*frames;
  }
  for (int p = 0; p < 2; ++p) {
    if (files[p]) fclose(files[p]);
    free(frame[p]);
  }
  if (*frames == 0) usage("the input holds no frame");
  check(vmaf_read_pictures(vmaf, NULL, NULL, 0), "vmaf_read_pictures (flush)");
  return 0;
}

/* The table: a line per frame, each requested key's score as %a (empty where libvmaf has none). */
static void print_scores(const struct Args *a, VmafContext *vmaf, VmafModel *model, unsigned frames) {
  printf("Frame,");
  for (unsigned k = 0; k < a->n_metrics; ++k) printf("%s,", a->metrics[k]);
  printf("\n");
  for (unsigned i = 0; i < frames; ++i) {
    printf("%u,", i);
    for (unsigned k = 0; k < a->n_metrics; ++k) {
      double score = 0;
      const enum VmafPoolingMethod method = model ? pooled_method(a->metrics[k]) : 0;
      if (method ? vmaf_score_pooled(vmaf, model, method, &score, 0, i) == 0
                 : vmaf_feature_score_at_index(vmaf, a->metrics[k], &score, i) == 0)
        printf("%a", score);
      printf(",");
    }
    printf("\n");
  }
}

int main(int argc, char **argv) {
  static struct Args a;
  const int parsed = parse_args(argc, argv, &a);
  if (parsed >= 0) return parsed;
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  const int opened = open_context(&a, &vmaf, &model);
  if (opened) return opened;
  unsigned frames = 0;
  const int fed = feed_frames(&a, vmaf, &frames);
  if (fed) return fed;
  /* Each frame's score, written into the collector under the model's name. */
  for (unsigned i = 0; model && i < frames; ++i) {
    double score = 0;
    check(vmaf_score_at_index(vmaf, model, &score, i), "vmaf_score_at_index");
  }
  print_scores(&a, vmaf, model, frames);
  check(vmaf_close(vmaf), "vmaf_close");
  if (model) vmaf_model_destroy(model);
  return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
