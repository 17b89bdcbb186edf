#!/usr/bin/env python3
"""Derives every per-feature block of ci/matrices/ and the feature lists of ci/twins/ from the
features' test plans, extractors/<feature>/cases.json, so that nothing about a feature is copied by
hand outside its folder.

Usage: scripts/derive-plans.py            write the derived files
       scripts/derive-plans.py --check    exit 1, naming each file that is not current (CI runs it)

A plan (docs/test-plans.md describes its keys) holds the feature's option sets (scored and refused),
its golden cases (pairs of a vector and a distortion, or clips each with its option sets) and one
section per matrix that runs the feature. A section either takes the golden cases (optionally
fewer vectors and option sets, plus exclude rules) at each vector's own depth and chroma, or names
a grid (vectors x distortions x bit depths x chroma formats x option sets). A matrix file keeps
what is not per feature (its schema, name and description); its "features" array is written here,
one block per feature with a section for it, in extractors/features.inc's order. A twin of
ci/twins/ that a plan's section names gets that feature in its "features" list, and loses any
feature no plan names it for.
"""
import argparse
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PLAN_NAME = "cases.json"
GRID_AXES = ("vector", "distortion", "bitdepth", "chroma", "options")
SECTION_KEYS = {"description", "twins", "vectors", "options", "option_sets", "exclude", "include", "grid"}
PLAN_KEYS = {"feature", "goldens_from", "extractor", "about", "metrics", "option_sets", "refusals", "pairs", "clips",
             "refused_pairs", "refused_pair_case", "refusals_on", "matrices"}


class PlanError(Exception):
    pass


def feature_order():
    """Features as extractors/features.inc registers them."""
    text = (ROOT / "extractors" / "features.inc").read_text()
    return re.findall(r"^TP_FEATURE\((\w+)\)", text, flags=re.M)


def load_plan(feature):
    path = ROOT / "extractors" / feature / PLAN_NAME
    where = path.relative_to(ROOT)
    try:
        plan = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise PlanError(f"{where}: {e}")
    if plan.get("feature") != feature:
        raise PlanError(f"{where}: field feature: {plan.get('feature')!r}: must name its folder, {feature!r}")
    unknown = set(plan) - PLAN_KEYS
    if unknown:
        raise PlanError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if ("pairs" in plan) == ("clips" in plan):
        raise PlanError(f"{where}: a plan has pairs (a pair feature) or clips (a clip feature), one of them")
    plan["_where"] = str(where)
    return plan


def all_option_sets(plan):
    sets = dict(plan.get("option_sets", {}))
    for name, options in plan.get("refusals", {}).items():
        if name in sets:
            raise PlanError(f"{plan['_where']}: refusals.{name}: also a scored option set")
        sets[name] = options
    return sets


def golden_rules(plan, section, where):
    """The include rules of a section that takes the golden cases: (rules, vectors, options used)."""
    scored = list(plan.get("option_sets", {}))
    refusals = list(plan.get("refusals", {}))
    options = section.get("options", scored)
    for o in options:
        if o not in scored:
            raise PlanError(f"{where}.options: {o!r} is not one of the plan's scored option sets")
    cases = plan.get("pairs") or plan.get("clips")
    vectors = section.get("vectors", list(cases))
    for v in vectors:
        if v not in cases:
            raise PlanError(f"{where}.vectors: {v!r} has no golden cases in the plan")
    rules, used = [], set()
    if "clips" in plan:
        for v in vectors:
            names = [o for o in plan["clips"][v] if o in options or o in refusals]
            if names:
                rules.append({"vector": v, "options": names})
                used.update(names)
    else:
        refused = plan.get("refused_pairs", {})
        for v in vectors:
            whole = [d for d in plan["pairs"][v] if d not in refused.get(v, [])]
            if whole:
                rules.append({"vector": v, "distortion": whole, "options": list(options)})
                used.update(options)
            if refused.get(v):
                rules.append({"vector": v, "distortion": list(refused[v]), "options": ["default"]})
                used.add("default")
        for pair in plan.get("refusals_on", []):
            v, _, d = pair.partition("~")
            if v in vectors and refusals:
                rules.append({"vector": v, "distortion": [d], "options": list(refusals)})
                used.update(refusals)
    return rules, [v for v in vectors if any(r["vector"] == v for r in rules)], used


def derive_block(plan, matrix, section):
    where = f"{plan['_where']}: matrices.{matrix}"
    unknown = set(section) - SECTION_KEYS
    if unknown:
        raise PlanError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if "twins" not in section:
        raise PlanError(f"{where}: field twins: (missing): name the twins, or [\"*\"] for every registered one")
    # A section may define option sets only its matrix uses (a name there is that matrix's meaning).
    sets = {**all_option_sets(plan), **section.get("option_sets", {})}
    block = {"feature": plan["feature"]}
    if "description" in section:
        block["description"] = section["description"]
    if "grid" in section:
        grid = section["grid"]
        for key in grid:
            if key not in GRID_AXES:
                raise PlanError(f"{where}.grid: unknown axis {key!r}")
        names = grid.get("options", [])
        axes = {"twin": section["twins"], **grid}
        include = section.get("include", [])
    else:
        include, vectors, used = golden_rules(plan, section, where)
        names = [o for o in sets if o in used]
        axes = {"twin": section["twins"], "vector": vectors}
        if "pairs" in plan:
            axes["distortion"] = sorted({d for r in include for d in r["distortion"]})
        axes.update({"bitdepth": ["native"], "chroma": ["native"], "options": names})
    for o in names:
        if o not in sets:
            raise PlanError(f"{where}: option set {o!r} is not in the plan's option_sets or refusals")
    block["option_sets"] = {o: sets[o] for o in names}
    block["axes"] = axes
    if include:
        block["include"] = include
    if section.get("exclude"):
        block["exclude"] = section["exclude"]
    return block


def dumps(value, indent=0, width=110):
    """JSON with short arrays and objects on one line: the derived files stay readable and diffable."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + dumps(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [pad + json.dumps(k, ensure_ascii=False) + ": " + dumps(v, indent + 2, width) for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def derived_files():
    """{path: text} for every matrix and twins file the plans derive."""
    plans = [load_plan(f) for f in feature_order()]
    out = {}
    twins_of = {}  # twin name -> features whose plan names it
    for path in sorted((ROOT / "ci" / "matrices").glob("*.json")):
        matrix = json.loads(path.read_text())
        name = matrix.get("name", path.stem)
        blocks = [derive_block(p, name, p["matrices"][name]) for p in plans if name in p.get("matrices", {})]
        for p in plans:
            for twin in p.get("matrices", {}).get(name, {}).get("twins", []):
                if twin != "*":
                    twins_of.setdefault(twin, []).append(p["feature"])
        if not blocks:
            continue  # a matrix no plan has a section for (the gate's self-test) stays as written
        head = {k: v for k, v in matrix.items() if k in ("schema", "name", "description")}
        out[path] = dumps({**head, "features": blocks}) + "\n"
    order = feature_order()
    for path in sorted((ROOT / "ci" / "twins").glob("*.json")):
        doc = json.loads(path.read_text())
        for twin in doc.get("twins", []):
            for entry in [twin] + twin.get("variants", []):
                named = set(twins_of.get(entry["name"], []))
                kept = [f for f in entry.get("features", []) if f not in order]  # features no plan knows
                entry["features"] = kept + [f for f in order if f in named]
        if doc != json.loads(path.read_text()):  # a twins file is written only where a list changed
            out[path] = dumps(doc) + "\n"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a derived file is not current")
    args = ap.parse_args()
    try:
        files = derived_files()
    except PlanError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    stale = [p for p, text in files.items() if p.read_text() != text]
    for p in stale:
        rel = p.relative_to(ROOT)
        if args.check:
            print(f"{rel}: not derived from the features' plans: run scripts/derive-plans.py", file=sys.stderr)
        else:
            p.write_text(files[p])
            print(f"wrote {rel}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
