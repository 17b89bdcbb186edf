/* A plugin that breaks the plugin ABI (extractors/twinproof_plugin.h) in the one way that
 * TWINPROOF_BROKEN_CASE names, for the tests of twinproof's loader and plugin adapter: each must
 * end as a clear error or the right status, never a crash, a hang or a pass.
 *   loading:  abi, size, name, feature, missing, none, device
 *   running:  create, refuse, unsupported, unterminated, metric, status, fault, nan, future (a score for
 *             frame 100000000), exit-load (exit(0) while loaded), exit-create, exit-init, exit-extract,
 *             exit-flush (exit(0) in that call)
 * Unset (or any other value): a well-formed twin "broken-plugin" of float_motion that emits
 * motion = 0 and motion2 = motion3 = 0.25 for every frame (wrong, but well-formed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "extractors/twinproof_plugin.h"

static int is_case(const char *name) {
  const char *c = getenv("TWINPROOF_BROKEN_CASE");
  return c != NULL && strcmp(c, name) == 0;
}

/* A plugin must never end the process; these cases do, at the moment their name says. */
static void exit_if(const char *moment) {
  const char *c = getenv("TWINPROOF_BROKEN_CASE");
  if (c != NULL && strncmp(c, "exit-", 5) == 0 && strcmp(c + 5, moment) == 0) exit(0);
}

__attribute__((constructor)) static void when_loaded(void) { exit_if("load"); }

static void *create(int device, int capture_stages, char *error, size_t size) {
  (void)device;
  (void)capture_stages;
  exit_if("create");
  if (is_case("create")) {
    strncpy(error, "no licence for this host", size - 1);
    return NULL;
  }
  static int instance_tag;
  return &instance_tag;
}

static TwinproofStatus init(void *instance, const TwinproofFormat *format, const TwinproofOption *options, size_t n, char *error,
                            size_t size) {
  (void)instance;
  (void)format;
  (void)options;
  (void)n;
  exit_if("init");
  if (is_case("refuse")) {
    strncpy(error, "this plugin refuses everything", size - 1);
    return TWINPROOF_REFUSED;
  }
  if (is_case("unsupported")) {
    strncpy(error, "only 4:4:4 here", size - 1);
    return TWINPROOF_UNSUPPORTED;
  }
  if (is_case("unterminated")) {
    memset(error, 'x', size); /* no NUL anywhere: the reader must stop at the buffer's end */
    return TWINPROOF_REFUSED;
  }
  return TWINPROOF_OK;
}

static const char *const kMetrics[] = {"motion", "motion2", "motion3", NULL};
static const char *const *metrics(void *instance) {
  (void)instance;
  return kMetrics;
}

static TwinproofStatus extract(void *instance, const TwinproofPicture *picture, unsigned frame, TwinproofEmitScore emit,
                               void *sink, char *error, size_t size) {
  (void)instance;
  (void)picture;
  exit_if("extract");
  if (is_case("metric")) emit(sink, "motion9", frame, 1.0);
  if (is_case("future")) emit(sink, "motion2", 100000000u, 0.25);
  if (is_case("status")) return (TwinproofStatus)42;
  if (is_case("fault")) {
    strncpy(error, "device lost\nFAKE LINE", size - 1);
    return TWINPROOF_FAULT;
  }
  emit(sink, "motion", frame, 0.0);
  emit(sink, "motion2", frame, is_case("nan") ? nan("") : 0.25);
  emit(sink, "motion3", frame, 0.25);
  return TWINPROOF_OK;
}

static TwinproofStatus flush(void *instance, TwinproofEmitScore emit, void *sink, char *error, size_t size) {
  exit_if("flush");
  (void)instance;
  (void)emit;
  (void)sink;
  (void)error;
  (void)size;
  return TWINPROOF_OK;
}

static void destroy(void *instance) { (void)instance; }

TWINPROOF_PLUGIN_EXPORT const TwinproofPluginTwin *const *twinproof_plugin_twins(size_t *count) {
  static TwinproofPluginTwin twin;
  static const TwinproofPluginTwin *twins[] = {&twin};
  twin = (TwinproofPluginTwin){
      .abi_version = is_case("abi") ? 99u : TWINPROOF_PLUGIN_ABI_VERSION,
      .struct_size = is_case("size") ? 8u : (uint32_t)sizeof(TwinproofPluginTwin),
      .feature = is_case("feature") ? "psnr_hvs" : "float_motion",
      .name = is_case("name") ? "Broken/Plugin" : "broken-plugin",
      .summary = "a plugin that breaks the ABI as TWINPROOF_BROKEN_CASE says",
      .version = "0",
      .device_kind = is_case("device") ? (TwinproofDeviceKind)7 : TWINPROOF_DEVICE_HOST,
      .create = create,
      .init = init,
      .metrics = metrics,
      .extract = is_case("missing") ? NULL : extract,
      .flush = flush,
      .inspect = NULL,
      .destroy = destroy,
  };
  *count = is_case("none") ? 0 : 1;
  return twins;
}
