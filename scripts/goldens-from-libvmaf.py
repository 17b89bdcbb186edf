#!/usr/bin/env python3
"""Makes a feature's goldens with the project's libvmaf driver (libvmaf's C code: every SIMD path
off, --cpumask -1) from its test plan, extractors/FEATURE/cases.json (its pairs, option sets and
refusals; docs/test-plans.md).

Usage: scripts/goldens-from-libvmaf.py FEATURE --driver DRIVER [--twinproof BIN] [--commit SHA]

For every pair of the plan (VECTOR~DISTORTION, written by `twinproof vectors make`) and every
option set, the driver scores the pair and prints each score as a hex float; the golden file
goldens/FEATURE/VECTOR~DISTORTION.json keeps them with their provenance: libvmaf's commit, the
driver's version line, the build, the CPU mask and the options. Each refusal of the plan is run
too: libvmaf's own refusal (non-zero exit) or its acceptance is recorded (refused_by_libvmaf). Pairs
the contract refuses whole (pictures too small for the feature) are listed under `refused_pairs`:
each becomes a refusal with the default options, and what libvmaf did with it is recorded
(`libvmaf`: scored, refused, or the signal that killed it: a crash is never a refusal).

The libvmaf keys of every option set come from twinproof itself (`features --libvmaf-keys`), so
that options libvmaf names its outputs after (vif's egl) are asked for under libvmaf's names.

Goldens made from libvmaf are never edited: an existing file whose values differ is an error,
not an overwrite (delete it on purpose, with the reason in the commit, to make it again).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def libvmaf_keys(twinproof, feature, options):
    cmd = [twinproof, "features", "--libvmaf-keys", feature]
    for k, val in options.items():
        cmd += ["--option", f"{k}={val}"]
    r = run(cmd)
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def driver_scores(driver, ref, dist, v, options, keys):
    cmd = [driver, "--reference", ref, "--distorted", dist, "--width", str(v["width"]), "--height", str(v["height"]),
           "--bitdepth", str(v["bitdepth"]), "--chroma", v["chroma"], "--feature", PLAN["extractor"], "--cpumask", "-1"]
    for k, val in options.items():
        cmd += ["--option", f"{k}={val}"]
    for key in keys:
        cmd += ["--metric", key]
    r = run(cmd)
    if r.returncode != 0:
        return None, r
    lines = [l for l in r.stdout.splitlines() if l]
    header = lines[0].rstrip(",").split(",")
    columns = {k: [] for k in header[1:]}
    for line in lines[1:]:
        fields = line.rstrip("\n").split(",")
        for k, value in zip(header[1:], fields[1:]):
            columns[k].append(value if value else None)
    return columns, r


def outcome(res):
    """What the driver did with a configuration it did not score: refused it, or died."""
    if res.returncode < 0:
        return f"crashed: signal {-res.returncode}"
    if res.returncode > 128:
        return f"crashed: exit {res.returncode} (signal {res.returncode - 128})"
    return "refused"


def main() -> int:
    global PLAN
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("feature")
    ap.add_argument("--driver", required=True)
    ap.add_argument("--twinproof", default=str(ROOT / "build" / "ci" / "harness" / "twinproof"))
    ap.add_argument("--commit", default="unknown", help="the libvmaf commit the driver was built from")
    a = ap.parse_args()
    PLAN = json.loads((ROOT / "extractors" / a.feature / "cases.json").read_text())
    if PLAN.get("goldens_from") != "libvmaf" or "pairs" not in PLAN:
        raise SystemExit(f"error: extractors/{a.feature}/cases.json: field goldens_from: {PLAN.get('goldens_from')!r}: "
                         "this script makes the goldens of a pair feature whose plan says \"libvmaf\"")
    manifest = {v["id"]: v for v in json.loads((ROOT / "vectors" / "manifest.json").read_text())["vectors"]}
    version = run([a.driver, "--version"]).stdout.strip()
    metrics = PLAN["metrics"]
    out_dir = ROOT / "goldens" / a.feature
    out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for vector, distortions in PLAN["pairs"].items():
            v = manifest[vector]
            ref = f"{tmp}/{vector}.yuv"
            r = run([a.twinproof, "vectors", "make", vector, "--output", ref])
            if r.returncode != 0:
                print(r.stderr, file=sys.stderr)
                return 2
            for d in distortions:
                pair = f"{vector}~{d}"
                dist = f"{tmp}/{pair}.yuv"
                r = run([a.twinproof, "vectors", "make", pair, "--output", dist])
                if r.returncode != 0:
                    print(r.stderr, file=sys.stderr)
                    return 2
                cases = []
                errors = []
                default_keys = libvmaf_keys(a.twinproof, a.feature, {})
                if d in PLAN.get("refused_pairs", {}).get(vector, []):
                    columns, res = driver_scores(a.driver, ref, dist, v, {}, list(default_keys.values()))
                    errors.append({"id": f"{pair}/{PLAN['refused_pair_case']}", "options": {},
                                   "refused_by_libvmaf": columns is None and outcome(res) == "refused",
                                   "libvmaf": "scored" if columns is not None else outcome(res)})
                    option_sets = {}
                else:
                    option_sets = PLAN["option_sets"]
                for name, options in option_sets.items():
                    keys = libvmaf_keys(a.twinproof, a.feature, options)
                    columns, res = driver_scores(a.driver, ref, dist, v, options, [keys[m] for m in metrics])
                    if columns is None:
                        print(f"error: {pair}/{name}: the driver refused: {res.stderr.strip()}", file=sys.stderr)
                        failures += 1
                        continue
                    case = {"id": f"{pair}/{name}", "options": options, "frames": v["frames"]}
                    for metric in metrics:
                        case[metric] = columns.get(keys[metric], [None] * v["frames"])
                    if all(x is None for metric in metrics for x in case[metric]):
                        print(f"error: {pair}/{name}: the driver gave no score under any key asked for", file=sys.stderr)
                        failures += 1
                        continue
                    cases.append(case)
                if pair in PLAN.get("refusals_on", []):
                    for name, options in PLAN["refusals"].items():
                        columns, res = driver_scores(a.driver, ref, dist, v, options, list(default_keys.values()))
                        errors.append({"id": f"{pair}/{name}", "options": options, "refused_by_libvmaf": columns is None})
                doc = {
                    "feature": a.feature,
                    "vector": pair,
                    "provenance": {
                        "kind": "libvmaf-driver",
                        "source": "libvmaf",
                        "commit": a.commit,
                        "build": version,
                        "cpumask": "-1 (every SIMD path off: libvmaf's C code)",
                        "made_by": f"scripts/goldens-from-libvmaf.py {a.feature} (plan extractors/{a.feature}/cases.json)",
                        "about": PLAN["about"],
                    },
                    "cases": cases,
                    "errors": errors,
                }
                path = out_dir / f"{pair}.json"
                if path.exists():
                    old = json.loads(path.read_text())
                    if old.get("cases") != doc["cases"] or old.get("errors") != doc["errors"]:
                        print(f"error: {path} differs from what libvmaf gives now; goldens are never rewritten", file=sys.stderr)
                        failures += 1
                    continue
                path.write_text(json.dumps(doc, indent=1) + "\n")
                print(f"{path.relative_to(ROOT)}: {len(cases)} cases, {len(errors)} refusals")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
