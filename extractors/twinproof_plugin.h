/* twinproof's plugin ABI: a twin of a feature built as a shared library, outside twinproof, and
 * gated like any twin (cells, a calibration row, reports, repro) without rebuilding twinproof:
 *
 *   twinproof --plugin ./libmytwin.so gate --matrix my-matrix.json
 *   TWINPROOF_PLUGINS=./a.so:./b.so twinproof gate ...
 *
 * A plugin exports one C function, twinproof_plugin_twins, returning the twins it provides. Each
 * twin is a table of functions with the lifecycle of twinproof's extractors (and libvmaf's):
 * create an instance, init it once with the picture format and the cell's options, extract each
 * picture in order, flush at the end of the clip, destroy. Scores go out through a callback, one
 * (metric, frame, value) at a time, as doubles: twinproof compares their bits.
 *
 * Stability: the ABI is versioned by TWINPROOF_PLUGIN_ABI_VERSION and by the size of
 * TwinproofPluginTwin. Later versions only add members at the end of the structures, so
 * `struct_size` tells which ones a plugin has. Version 2 added extract_pair (the reference and the
 * distorted picture of a pair, for features that compare two clips, such as psnr). A version-1
 * plugin is still served for features that read the reference alone (it is handed the
 * reference); its twins of a feature that reads both clips are not supported. Any other version
 * is refused when the plugin is loaded.
 * Only C types cross the boundary; no allocation is freed on the other side.
 *
 * Errors: every call that can fail returns a TwinproofStatus and writes a one-line reason
 * (NUL-terminated, at most `error_size` bytes with the NUL) into `error`. What twinproof does with
 * each status is the same as for its own twins:
 *   TWINPROOF_REFUSED      the twin refuses this configuration or input (an option out of range, a
 *                          plane too small): where the reference refuses too, the cell passes;
 *   TWINPROOF_UNSUPPORTED  the twin does not implement this configuration (a bit depth, an option):
 *                          the cell is not supported, with the reason, never a pass;
 *   TWINPROOF_FAULT        anything else (a device error, memory): the cell is an error.
 *
 * Threads: twinproof may run several instances at once on different threads (and, with
 * `gate --concurrent`, several of the same cell); one instance is only ever called from one
 * thread at a time. A plugin keeps no unsynchronised state outside its instances. */
#ifndef TWINPROOF_PLUGIN_H
#define TWINPROOF_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TWINPROOF_PLUGIN_ABI_VERSION 2u

/* Statuses, chroma formats and device kinds are plain 32-bit integers, not enum types, so that
 * twinproof can check whatever value a plugin hands over (a C++ enum holding a value outside its
 * enumerators is undefined behaviour). */
typedef int32_t TwinproofStatus;
enum { TWINPROOF_OK = 0, TWINPROOF_REFUSED = 1, TWINPROOF_UNSUPPORTED = 2, TWINPROOF_FAULT = 3 };

typedef int32_t TwinproofChroma;
enum { TWINPROOF_CHROMA_400 = 0, TWINPROOF_CHROMA_420 = 1, TWINPROOF_CHROMA_422 = 2, TWINPROOF_CHROMA_444 = 3 };

typedef int32_t TwinproofDeviceKind;
enum {
  TWINPROOF_DEVICE_HOST = 0, /* runs on the CPU */
  TWINPROOF_DEVICE_GPU = 1   /* needs a GPU: its cells are gated with --require, get a device ordinal */
};

typedef struct TwinproofFormat {
  int width, height; /* luma size */
  int bitdepth;      /* 8, 10, 12 or 16 */
  TwinproofChroma chroma;
} TwinproofFormat;

/* One picture, read-only, valid during the extract call only. Samples are unsigned: one byte each
 * at 8 bits, otherwise one native-endian uint16_t each holding a value below 2^bitdepth (an input
 * file may break that rule; a twin that checks refuses it). Planes as files store them: chroma
 * ceil(w/2) wide for 4:2:0 and 4:2:2, ceil(h/2) high for 4:2:0; data[1], data[2] are NULL for 4:0:0. */
typedef struct TwinproofPicture {
  TwinproofFormat format;
  const void *data[3];
  ptrdiff_t stride[3]; /* bytes from one row to the next */
} TwinproofPicture;

typedef struct TwinproofOption {
  const char *name;  /* as the cell gives it: "motion_filter_size" (or an alias) */
  const char *value; /* as text: "3", "true", "0.5" */
} TwinproofOption;

/* Where scores go: `sink` is twinproof's, passed back unchanged. `frame` is the label of the
 * picture the score belongs to (the labels extract received). */
typedef void (*TwinproofEmitScore)(void *sink, const char *metric, unsigned frame, double value);

/* Where a stage's arrays go (inspect): one call per array. `name` is the plane ("Y", "U", "V", or
 * "Y/scale1"); `values` holds width x height values, row-major; `fp32` says they are binary32
 * values widened to double (exactly). The values are copied before the call returns. */
typedef void (*TwinproofEmitArray)(void *sink, const char *name, int width, int height, int fp32, const double *values);

typedef struct TwinproofPluginTwin {
  uint32_t abi_version; /* TWINPROOF_PLUGIN_ABI_VERSION */
  uint32_t struct_size; /* sizeof(TwinproofPluginTwin) as the plugin was built */
  const char *feature;  /* the feature it twins, as `twinproof features` lists it: "float_motion" */
  const char *name;     /* the twin's name in cell ids: lower case, digits, '-' and '_' */
  const char *summary;  /* one line: what it is */
  const char *version;  /* the implementation's version, for the record */
  TwinproofDeviceKind device_kind;

  /* A new instance, or NULL with a reason. `device`: the GPU ordinal for a GPU twin.
   * `capture_stages`: non-zero when twinproof will call inspect (repro, twin checks): keep the
   * latest picture's stages. */
  void *(*create)(int device, int capture_stages, char *error, size_t error_size);
  /* Once, before any picture: the format and the cell's options, in the order given. */
  TwinproofStatus (*init)(void *instance, const TwinproofFormat *format, const TwinproofOption *options, size_t option_count,
                          char *error, size_t error_size);
  /* The metrics this configuration emits, in report order, after init: a NULL-terminated array
   * owned by the instance. */
  const char *const *(*metrics)(void *instance);
  /* One picture (the reference's), for a feature that reads the reference alone; labels are
   * consecutive. Scores may be emitted now or later (look-ahead metrics). NULL in a version-2
   * twin that gives extract_pair. */
  TwinproofStatus (*extract)(void *instance, const TwinproofPicture *picture, unsigned frame, TwinproofEmitScore emit, void *sink,
                             char *error, size_t error_size);
  /* After the last picture: emits what the clip still owes. */
  TwinproofStatus (*flush)(void *instance, TwinproofEmitScore emit, void *sink, char *error, size_t error_size);
  /* Optional (NULL: no stages). The latest picture's stage `stage` (an id of the feature's
   * descriptor: `twinproof features` lists them, e.g. "blurred", "row_sums"): emits its arrays and
   * returns 1, or returns 0 when the twin does not expose that stage (or has no such data yet). */
  int (*inspect)(void *instance, const char *stage, TwinproofEmitArray emit, void *sink);
  void (*destroy)(void *instance);

  /* Version 2. One frame of a pair: the reference picture and the distorted one (one format), as
   * libvmaf's extractors take them; labels are consecutive. Required for a twin of a feature that
   * reads the distorted clip (`twinproof features --json` says reads_distorted); when given, it is
   * called instead of extract for any feature. NULL: extract is called with the reference. */
  TwinproofStatus (*extract_pair)(void *instance, const TwinproofPicture *reference, const TwinproofPicture *distorted,
                                  unsigned frame, TwinproofEmitScore emit, void *sink, char *error, size_t error_size);
} TwinproofPluginTwin;

/* The size of a version-1 table: everything before extract_pair. */
#define TWINPROOF_PLUGIN_V1_SIZE offsetof(TwinproofPluginTwin, extract_pair)

/* The one symbol a plugin exports: its twins (`*count` of them), valid while it is loaded. A
 * plugin built with hidden visibility marks it TWINPROOF_PLUGIN_EXPORT. */
#if defined(__GNUC__) || defined(__clang__)
#define TWINPROOF_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TWINPROOF_PLUGIN_EXPORT
#endif
#define TWINPROOF_PLUGIN_ENTRY "twinproof_plugin_twins"
typedef const TwinproofPluginTwin *const *(*TwinproofPluginEntry)(size_t *count);
TWINPROOF_PLUGIN_EXPORT const TwinproofPluginTwin *const *twinproof_plugin_twins(size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* TWINPROOF_PLUGIN_H */
