#!/usr/bin/env python3
"""Imports libvmaf oracle scores into goldens/ and their vectors into vectors/manifest.json.

Usage: scripts/import-oracle.py FEATURE ORACLE.json

FEATURE is the feature's name in twinproof (float_motion, motion); its goldens go to
goldens/FEATURE/. Every per-frame column of the oracle's cases is kept (the feature's metrics).

Oracle goldens are never edited: an existing golden file whose cases differ from the oracle is
an error, not an overwrite. Vectors already in the manifest must match the oracle's pin.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    feature = sys.argv[1]
    oracle = json.loads(pathlib.Path(sys.argv[2]).read_text())
    # The oracle cites the shared specs; the project's own docs describe the same contracts.
    about = oracle["about"]
    for spec, doc in (("spec/vectors.md", "vectors/RECIPES.md"), ("spec/integer_motion.md", "extractors/motion/CONTRACT.md"),
                      ("spec/float_motion.md", "extractors/float_motion/CONTRACT.md")):
        about = about.replace(spec, doc)
    commit = about.split("commit ")[1].split(",")[0] if "commit " in about else "unknown"

    manifest_path = ROOT / "vectors" / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"schema": 1, "vectors": []}
    known = {v["id"]: v for v in manifest["vectors"]}
    for v in oracle["vectors"]:
        if v["id"] in known:
            if known[v["id"]]["sha256"] != v["sha256"]:
                print(f"error: vector {v['id']}: manifest pins {known[v['id']]['sha256']}, oracle {v['sha256']}", file=sys.stderr)
                return 2
            continue
        entry = dict(v)
        entry["purpose"] = "oracle"
        manifest["vectors"].append(entry)
        known[v["id"]] = entry
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")

    by_vector = {}
    for c in oracle["cases"]:
        by_vector.setdefault(c["vector"], {"cases": [], "errors": []})["cases"].append(
            {k: v for k, v in c.items() if k != "vector"})
    for e in oracle["errors"]:
        by_vector.setdefault(e["vector"], {"cases": [], "errors": []})["errors"].append(
            {"id": e["id"], "options": e["options"], "refused_by_libvmaf": e["refused_by_libvmaf"]})

    out_dir = ROOT / "goldens" / feature
    out_dir.mkdir(parents=True, exist_ok=True)
    for vector, body in sorted(by_vector.items()):
        doc = {
            "feature": feature,
            "vector": vector,
            "provenance": {
                "kind": "oracle",
                "source": "libvmaf",
                "commit": commit,
                "about": about,
            },
            "cases": body["cases"],
            "errors": body["errors"],
        }
        path = out_dir / f"{vector}.json"
        if path.exists():
            old = json.loads(path.read_text())
            if old.get("cases") != doc["cases"] or old.get("errors") != doc["errors"]:
                print(f"error: {path} differs from the oracle; oracle goldens are never rewritten", file=sys.stderr)
                return 2
            continue
        path.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
