#!/usr/bin/env python3
"""The bad-input corpus: every case is a hostile input or command line with the exit code and the
message fragment twinproof must answer with. Any case that crashes (a signal, "internal error",
"terminate called", a sanitizer report), hangs past its time limit, or answers another exit code
or message fails the run.

usage: corpus.py TWINPROOF_BINARY SOURCE_DIR [--list] [--filter SUBSTRING]
"""
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import fcntl
import resource
import time

CRASH_MARKS = ("internal error", "terminate called", "AddressSanitizer", "runtime error:", "LeakSanitizer",
               "Segmentation fault", "std::bad_alloc", "json.exception", "filesystem error")


class Case:
    def __init__(self, name, args, rc, message, files=None, stdout=None, env=None, check=None, timeout=60,
                 setup=None, data_root=False, stdin=None, unless=None, address_space=None, signal_after=None, killed_by=None,
                 allowed_marks=(), absent=None):
        self.name, self.args, self.rc, self.message = name, args, rc, message
        self.files = files or {}          # relative path -> bytes | str | callable(tmp) -> bytes
        self.stdout = stdout              # None (captured), a path to open for writing, or "closed"
        self.env = env or {}
        self.check = check                # callable(tmp) -> error text or None, after the run
        self.timeout = timeout
        self.setup = setup                # callable(tmp), after the files are written
        self.data_root = data_root        # run against a private copy of the project's data
        self.stdin = stdin                # bytes for standard input
        self.unless = unless              # callable() -> reason to skip the case on this machine
        self.address_space = address_space  # bytes of virtual memory the process may map (RLIMIT_AS)
        # [(seconds, signal), ...]: interrupt the run as a user or a CI runner would, each signal
        # the given seconds after the one before.
        self.signal_after = signal_after
        self.killed_by = killed_by        # a signal that ends the process by design (SIGKILL): no exit code to check
        self.allowed_marks = allowed_marks  # crash marks expected in the output (an outside program's own crash, quoted)
        self.absent = absent              # text the output must not hold (a control byte printed raw)


def nested(depth, open_="[", close="]", inner="0"):
    return open_ * depth + inner + close * depth


# ---------------------------------------------------------------------------------------------
# Fixtures

CALIBRATION_ROW = {"feature": "float_motion", "reference": "cpu", "twin": "cpu-simd", "mode": "exact",
                   "reason": "r", "provenance": {"by": "corpus"}}
MOTION_ROW = dict(CALIBRATION_ROW, feature="motion")


def table(rows=None, waivers=None, **extra):
    t = {"rows": rows if rows is not None else [CALIBRATION_ROW, MOTION_ROW]}
    if waivers is not None:
        t["waivers"] = waivers
    t.update(extra)
    return json.dumps(t)


def matrix(**over):
    m = {"name": "corpus", "feature": "float_motion", "reference": "cpu",
         "option_sets": {"default": {}},
         "axes": {"twin": ["cpu-simd"], "vector": ["flash64"], "bitdepth": ["native"], "chroma": ["native"],
                  "options": ["default"]}}
    for k, v in over.items():
        if v is None:
            m.pop(k, None)
        else:
            m[k] = v
    return json.dumps(m)


def y4m(header, frame_bytes=None, frames=1, raw=None):
    if raw is not None:
        return raw
    body = b""
    for _ in range(frames):
        body += b"FRAME\n" + (b"\x10" * frame_bytes if frame_bytes else b"")
    return header + b"\n" + body


CELL = "float_motion/cpu-simd/flash64/8b/420/default"
WAIVER = {"cells": CELL, "reason": "r", "issue": "i", "expires": "2027-01-01"}
# The gate over a small matrix of CELL's feature alone ({small}: written once per corpus run), so
# that a case pays for loading float_motion's goldens, not every feature's (seconds a case under
# the sanitizers).
GATE = ["gate", "--quiet", "--matrix", "{small}", "--filter", CELL]
# The gate over the shipped gate.json: for a waiver's reach, which counts the twin's cells there.
GATE_FULL = ["gate", "--quiet", "--filter", CELL]


def record_line(**over):
    r = {"id": CELL, "kind": "parity", "feature": "float_motion", "reference": "cpu", "twin": "cpu-simd",
         "vector": "flash64", "bitdepth": 8, "chroma": "420", "option_set": "default", "status": "pass", "detail": "",
         "tolerance": "exact", "values": 1, "mismatches": 0, "max_abs_diff": 0, "max_ulp": 0, "first_mismatch": None,
         "seconds": 0.1, "device": "host", "required": False, "unexpected_pass": False, "waiver": ""}
    r.update(over)
    return json.dumps(r)


def sums_of(tmp, bundle):
    lines = ""
    for name in ("cell.json", "frames.y4m"):
        with open(os.path.join(tmp, bundle, name), "rb") as f:
            lines += hashlib.sha256(f.read()).hexdigest() + "  " + name + "\n"
    with open(os.path.join(tmp, bundle, "SHA256SUMS"), "w") as f:
        f.write(lines)


def edit_bundle(edit, resum=True):
    """A setup that copies the reference bundle to b/, applies `edit(cell_dict, tmp)`, and (by
    default) writes SHA256SUMS again so that the loader's field checks are what answers."""
    def setup(tmp):
        shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b"))
        path = os.path.join(tmp, "b", "cell.json")
        with open(path) as f:
            cell = json.load(f)
        out = edit(cell, tmp)
        with open(path, "w") as f:
            f.write(out if isinstance(out, str) else json.dumps(cell, indent=2))
        if resum:
            sums_of(tmp, "b")
    return setup


def replace_in_frames(old, new, resum=False):
    def setup(tmp):
        shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b"))
        path = os.path.join(tmp, "b", "frames.y4m")
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data.replace(old, new, 1))
        if resum:
            sums_of(tmp, "b")
    return setup


def set_field(key, value):
    def edit(cell, tmp):
        if value is DELETE:
            del cell[key]
        else:
            cell[key] = value
    return edit


DELETE = object()


def still_char_device(path):
    def check(tmp):
        p = path if os.path.isabs(path) else os.path.join(tmp, path)
        return None if stat.S_ISCHR(os.stat(p).st_mode) else f"{p} is no longer a character device"
    return check


def still_symlink(path):
    def check(tmp):
        return None if os.path.islink(os.path.join(tmp, path)) else f"{path} was replaced by a regular file"
    return check


def no_file(path):
    def check(tmp):
        return f"{path} was left behind" if os.path.exists(os.path.join(tmp, path)) else None
    return check


def untouched(tmp, rel, data):
    with open(os.path.join(tmp, rel), "rb") as f:
        return None if f.read() == data else f"{rel} was written"


def regular(tmp, rel):
    p = os.path.join(tmp, rel)
    return None if os.path.isfile(p) and not os.path.islink(p) else f"{rel} is not a regular file"


def lock_held(folder):
    """Holds the report folder's lock as another run would, for the duration of the case."""
    def setup(tmp):
        os.makedirs(os.path.join(tmp, folder), exist_ok=True)
        fd = os.open(os.path.join(tmp, folder, ".twinproof.lock"), os.O_RDWR | os.O_CREAT)
        os.write(fd, b"4242\n")
        fcntl.flock(fd, fcntl.LOCK_EX)
        HELD.append(fd)
    return setup


HELD = []


# ---------------------------------------------------------------------------------------------
# The cases

def cases():
    out = []
    add = out.append

    # 1. Deep and large JSON: refused with the file named, never a stack overflow.
    add(Case("calibration rows nested 100000 deep", GATE + ["--calibration", "{tmp}/t.json"], 2, "nested deeper than 64",
             files={"t.json": '{"rows": ' + nested(100000) + "}"}))
    add(Case("calibration places nested", GATE + ["--calibration", "{tmp}/t.json"], 2, "nested deeper",
             files={"t.json": table([dict(CALIBRATION_ROW, mode="places", places=json.loads("0"))]).replace(
                 '"places": 0', '"places": ' + nested(5000))}))
    add(Case("matrix value 1000000 deep (--list)", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "m.json: json",
             files={"m.json": '{"name": ' + nested(1000000) + "}"}))
    add(Case("matrix object nesting 200000 deep", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "nested deeper",
             files={"m.json": nested(200000, '{"a":', "}", "1")}))
    add(Case("results.jsonl first_mismatch 100000 deep", ["report", "{tmp}/r"], 2, "nested deeper",
             files={"r/results.jsonl": record_line().replace('"first_mismatch": null',
                                                             '"first_mismatch": ' + nested(100000)) + "\n"}))
    add(Case("bundle cell.json options deep", ["repro", "--bundle", "{tmp}/b"], 2, "nested deeper",
             setup=edit_bundle(lambda c, t: json.dumps(c).replace('"options": {}', '"options": ' + nested(50000, '{"a":', "}", "1")))))
    add(Case("golden options deep (goldens check)", ["goldens", "check", "--feature", "float_motion"], 2, "nested deeper",
             data_root=True, setup=lambda tmp: write(tmp, "data/goldens/float_motion/tiny2.json",
                                                      '{"feature": "float_motion", "vector": "tiny2", "cases": [{"options": '
                                                      + nested(20000, '{"a":', "}", "1") + "}]}")))
    add(Case("manifest nested", ["vectors", "list"], 2, "nested deeper", data_root=True,
             setup=lambda tmp: write(tmp, "data/vectors/manifest.json", '{"vectors": ' + nested(100000) + "}")))
    add(Case("calibration larger than the limit", GATE + ["--calibration", "{tmp}/t.json"], 2, "larger than",
             setup=lambda tmp: sparse(tmp, "t.json", (64 << 20) + 10)))
    add(Case("results.jsonl record longer than allowed", ["report", "{tmp}/r"], 2, "longer than allowed",
             files={"r/results.jsonl": record_line(detail="x" * (2 << 20)) + "\n"}))
    # Found by fuzz_golden: a number too large for a double escaped the parser as a library fault.
    for where, args, text in (("golden", ["goldens", "check", "--feature", "float_motion"], None),
                              ("matrix", ["gate", "--list", "--matrix", "{tmp}/m.json"], '{"name": 1e569061}'),
                              ("calibration", GATE + ["--calibration", "{tmp}/m.json"], '{"rows": [-1111222222222000000014e569061]}'),
                              ("results record", ["report", "{tmp}/r"], None)):
        if where == "golden":
            add(Case("number overflow in a golden", args, 2, "number overflow", data_root=True,
                     setup=lambda tmp: write(tmp, "data/goldens/float_motion/tiny2.json", '{"feature": 1111222222222000000014e569061}')))
        elif where == "results record":
            add(Case("number overflow in a results record", args, 2, "number overflow",
                     files={"r/results.jsonl": record_line().replace('"seconds": 0.1', '"seconds": 1e999') + "\n"}))
        else:
            add(Case(f"number overflow in a {where}", args, 2, "number overflow", files={"m.json": text}))
    for depth in (65, 100, 1000):
        add(Case(f"matrix nesting {depth}", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "nested deeper",
                 files={"m.json": '{"name": "x", "about": ' + nested(depth) + "}"}))
    add(Case("brackets inside strings are not nesting", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2,
             "a matrix name is 1 to 64", files={"m.json": matrix(name="[{" * 100 + '\\"' + "]" * 3)}))
    add(Case("matrix nesting 60 is only an unknown key", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "unknown key",
             files={"m.json": matrix().replace('"name"', '"about": ' + nested(60) + ', "name"')}))

    # 2. Workers.
    add(Case("-j 100000", GATE + ["-j", "100000"], 2, "at most 1024 workers"))
    add(Case("goldens -j 100000", ["goldens", "check", "-j", "100000", "--filter", "tiny2/*"], 2, "at most 1024"))
    add(Case("-j -1", GATE + ["-j", "-1"], 2, "not a plain whole number"))
    # Threads that the system refuses (here: 8 MiB stacks in a 640 MiB address space; root
    # ignores process-count limits) end the run with an error, not std::terminate.
    add(Case("-j 1000 where threads cannot start", ["gate", "--quiet", "--matrix", "{sweep}", "--filter",
                                                    "float_motion/cpu-simd/flash64/*", "-j", "1000"], 2,
             "cannot start worker thread", address_space=640 << 20, unless=sanitizer_build))

    # 3. Non-regular files.
    add(Case("FIFO as a bundle's frames", ["repro", "--bundle", "{tmp}/b"], 2, "not a regular file", timeout=20,
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                os.remove(os.path.join(tmp, "b", "frames.y4m")),
                                os.mkfifo(os.path.join(tmp, "b", "frames.y4m")))))
    add(Case("FIFO as a bundle's cell.json", ["repro", "--bundle", "{tmp}/b"], 2, "not a regular file", timeout=20,
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                os.remove(os.path.join(tmp, "b", "cell.json")),
                                os.mkfifo(os.path.join(tmp, "b", "cell.json")))))
    add(Case("FIFO as the calibration table", GATE + ["--calibration", "{tmp}/fifo"], 2, "not a regular file", timeout=20,
             setup=lambda tmp: os.mkfifo(os.path.join(tmp, "fifo"))))
    add(Case("FIFO as the matrix", ["gate", "--list", "--matrix", "{tmp}/fifo"], 2, "not a regular file", timeout=20,
             setup=lambda tmp: os.mkfifo(os.path.join(tmp, "fifo"))))
    add(Case("FIFO as results.jsonl", ["report", "{tmp}/r"], 2, "not a regular file", timeout=20,
             setup=lambda tmp: (os.makedirs(os.path.join(tmp, "r")), os.mkfifo(os.path.join(tmp, "r", "results.jsonl")))))
    add(Case("bundle frames as a symlink out of the bundle", ["repro", "--bundle", "{tmp}/b"], 2, "not a regular file",
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                os.rename(os.path.join(tmp, "b", "frames.y4m"), os.path.join(tmp, "outside.y4m")),
                                os.symlink(os.path.join(tmp, "outside.y4m"), os.path.join(tmp, "b", "frames.y4m")))))

    # 4. A large calibration table loads in linear time.
    add(Case("calibration table of 60000 rows", GATE + ["--calibration", "{tmp}/t.json", "--report-dir", "{tmp}/r"], 0,
             "1 passed, 0 failed", timeout=30,
             files={"t.json": table([CALIBRATION_ROW, MOTION_ROW] + [dict(CALIBRATION_ROW, metric=f"m{i}") for i in range(60000)])}))

    # 5. Frame sizes claimed by headers.
    big = b"YUV4MPEG2 W32768 H32768 F25:1 Ip A1:1 C444p16\nFRAME\n" + b"\0" * 80
    add(Case("139-byte Y4M claiming 32768x32768 4:4:4 16-bit", ["score", "{tmp}/big.y4m"], 2, "big.y4m", files={"big.y4m": big}))
    add(Case("Y4M claiming 32768x32768 4:2:0 8-bit", ["score", "{tmp}/big.y4m"], 2, "a frame may hold",
             files={"big.y4m": b"YUV4MPEG2 W32768 H32768 C420jpeg\nFRAME\n" + b"\0" * 100}))
    add(Case("Y4M claiming 16000x16000 with 10 bytes of frame", ["score", "{tmp}/big.y4m"], 2, "too small for one",
             files={"big.y4m": b"YUV4MPEG2 W16000 H16000 C420jpeg\nFRAME\n" + b"\0" * 10}))
    add(Case("raw input claiming 32768x32768", ["score", "{tmp}/x.yuv", "--width", "32768", "--height", "32768",
                                                 "--pixfmt", "444", "--bitdepth", "16"], 2, "a frame may hold",
             files={"x.yuv": b"\0" * 100}))
    add(Case("Y4M from stdin claiming 32768x32768 16-bit", ["score", "-"], 2, "a frame may hold",
             stdin=b"YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n" + b"\0" * 64))
    add(Case("Y4M from stdin cut inside a frame", ["score", "-"], 2, "truncated frame",
             stdin=b"YUV4MPEG2 W64 H48 C420jpeg\nFRAME\n" + b"\0" * 1000))

    # 6. Outputs that are not regular files are written through, never replaced.
    add(Case("vectors make -O /dev/null", ["vectors", "make", "check_pan64x48", "-O", "/dev/null"], 0, "written to /dev/null",
             check=still_char_device("/dev/null")))
    add(Case("vectors make -O /dev/full", ["vectors", "make", "check_pan64x48", "-O", "/dev/full"], 2, "write failed",
             check=still_char_device("/dev/full")))
    add(Case("vectors make -O symlink", ["vectors", "make", "check_pan64x48", "-O", "{tmp}/link.yuv"], 0, "written to",
             setup=lambda tmp: os.symlink(os.path.join(tmp, "target.yuv"), os.path.join(tmp, "link.yuv")),
             check=still_symlink("link.yuv")))
    add(Case("score --json through a symlink", ["score", "vector:check_pan64x48", "--json", "{tmp}/link.json"], 0, "",
             setup=lambda tmp: os.symlink(os.path.join(tmp, "target.json"), os.path.join(tmp, "link.json")),
             check=lambda tmp: still_symlink("link.json")(tmp) or (None if os.path.getsize(os.path.join(tmp, "target.json")) > 0
                                                                   else "nothing written through the link")))
    add(Case("score --json /dev/stdout, a pipe at the links' end", ["score", "vector:check_pan64x48", "--json", "/dev/stdout", "-q"],
             0, '"frames"'))
    add(Case("score --json into a folder", ["score", "vector:check_pan64x48", "--json", "{tmp}/d"], 2, "is a folder",
             setup=lambda tmp: os.makedirs(os.path.join(tmp, "d"))))
    add(Case("vectors make -O DIR", ["vectors", "make", "check_pan64x48", "-O", "{tmp}/d"], 2, "is a folder",
             setup=lambda tmp: os.makedirs(os.path.join(tmp, "d")), check=no_file("d.part")))
    add(Case("vectors make -O into a missing folder", ["vectors", "make", "check_pan64x48", "-O", "{tmp}/no/such/x.yuv"], 2,
             "cannot create", check=no_file("no")))

    # 7. Write errors.
    add(Case("score >/dev/full", ["score", "vector:check_pan64x48"], 2, "cannot write", stdout="/dev/full"))
    add(Case("score --json - >/dev/full", ["score", "vector:check_pan64x48", "--json", "-"], 2, "cannot write", stdout="/dev/full"))
    add(Case("score with stdout closed", ["score", "vector:check_pan64x48"], 2, "cannot write", stdout="closed"))
    add(Case("score --json /dev/full", ["score", "vector:check_pan64x48", "--json", "/dev/full"], 2, "cannot write"))
    add(Case("vectors make -O - >/dev/full", ["vectors", "make", "check_pan64x48", "-O", "-"], 2, "write failed", stdout="/dev/full"))
    add(Case("vectors list >/dev/full", ["vectors", "list"], 2, "cannot write", stdout="/dev/full"))
    add(Case("gate --list >/dev/full", ["gate", "--list"], 2, "cannot write", stdout="/dev/full"))
    # A report folder's files are twinproof's own: a link planted at one of their names is replaced
    # by the run's regular file, never written through (D11: results.jsonl -> a file outside).
    for name in ("results.jsonl", "cells.txt", "selection.json", "summary.json", "junit.xml", "report.html"):
        add(Case(f"gate over a planted {name} link", GATE + ["--report-dir", "{tmp}/r"], 0, "1 passed, 0 failed",
                 setup=lambda tmp, name=name: (os.makedirs(os.path.join(tmp, "r")), write(tmp, "outside.txt", "keep\n"),
                                               os.symlink(os.path.join(tmp, "outside.txt"), os.path.join(tmp, "r", name))),
                 check=lambda tmp, name=name: untouched(tmp, "outside.txt", b"keep\n") or regular(tmp, "r/" + name)))
    add(Case("goldens check --json /dev/full", ["goldens", "check", "--filter", "tiny2/*", "--json", "/dev/full"], 2, "cannot write"))
    add(Case("bench --json /dev/full", ["bench", "--backends", "cpu", "--sizes", "32x16", "--frames", "2", "--reps", "1",
                                        "--json", "/dev/full"], 2, "cannot write"))

    # Bytes from outside that neither UTF-8 nor XML allow (D4, D13): an outside program's stderr
    # (and so its cell's detail) with a stray byte, U+FFFE, U+FFFF and a control. The run ends
    # with its verdict (the program fails where the reference scores: an error, exit 2), and
    # every report is written and well-formed, the bytes shown as U+FFFD.
    def reports_well_formed(tmp):
        import xml.etree.ElementTree as ET
        r = os.path.join(tmp, "r")
        try:
            summary = json.load(open(os.path.join(r, "summary.json"), encoding="utf-8"))
            ET.parse(os.path.join(r, "junit.xml"))
            for name in ("results.jsonl", "summary.md", "report.html"):
                open(os.path.join(r, name), encoding="utf-8").read()
            for line in open(os.path.join(r, "results.jsonl"), encoding="utf-8"):
                json.loads(line)
        except Exception as e:  # noqa: BLE001 - any failure to read a report back is the finding
            return f"a report is not well-formed: {e}"
        if summary["exit_code"] != 2 or "\ufffd" not in open(os.path.join(r, "results.jsonl"), encoding="utf-8").read():
            return f"summary says exit {summary['exit_code']}, or the bytes are not shown as U+FFFD"
        return None
    bytes_twin = {"schema": 1, "twins": [{
        "name": "bytes", "features": ["float_motion"], "summary": "prints bytes no report may hold", "executable": {"program": "sh"},
        "command": ["{exe}", "-c", "printf 'bad \\200 \\357\\277\\276 \\357\\277\\277 \\001 end\\n' >&2; exit 3", "sh", "{input}", "{output}"],
        "output": {"format": "csv"}}]}
    add(Case("exec twin whose stderr is neither UTF-8 nor XML", ["gate", "--quiet", "--twins", "{tmp}/t.json", "--matrix", "{tmp}/m.json",
                                                                "--calibration", "{tmp}/c.json", "--report-dir", "{tmp}/r"], 2, "bad",
             files={"t.json": json.dumps(bytes_twin), "c.json": table([dict(CALIBRATION_ROW, twin="bytes")]),
                    "m.json": matrix(axes={"twin": ["bytes"], "vector": ["flash64"], "bitdepth": ["native"], "chroma": ["native"],
                                           "options": ["default"]})},
             check=reports_well_formed))

    # 8. One run per report folder.
    add(Case("second gate into a locked report folder", GATE + ["--report-dir", "{tmp}/r"], 2, "pid 4242",
             setup=lock_held("r")))
    add(Case("report on a folder a gate is writing", ["report", "{tmp}/r"], 2, "another twinproof run",
             files={"r/results.jsonl": record_line() + "\n"}, setup=lock_held("r")))
    add(Case("merge into a folder a gate is writing", ["merge", "{tmp}/s", "--matrix", "{tmp}/m.json", "--out", "{tmp}/r"], 2,
             "another twinproof run", files={"s/results.jsonl": record_line() + "\n", "m.json": matrix()}, setup=lock_held("r")))

    # An interrupted gate writes its reports, and they say INCOMPLETE (issue: verdicts that must not lie).
    # Its summary.json states the exit status the process returned (128 + the signal).
    def incomplete_reports(rc):
        def check(tmp):
            with open(os.path.join(tmp, "r", "summary.json")) as f:
                summary = json.load(f)
            md = open(os.path.join(tmp, "r", "summary.md")).read()
            junit = open(os.path.join(tmp, "r", "junit.xml")).read()
            html = open(os.path.join(tmp, "r", "report.html")).read()
            if summary["verdict"] != "INCOMPLETE" or summary["complete"] or summary["exit_code"] != rc:
                return f"summary.json says {summary['verdict']}, complete {summary['complete']}, exit {summary['exit_code']}"
            if not md.startswith("## twinproof gate: INCOMPLETE") or "banner INCOMPLETE" not in html or "no-verdict" not in junit:
                return "a report does not say INCOMPLETE"
            if f"exit status {rc}" not in md:
                return f"summary.md does not give the exit status {rc}"
            return run_check(tmp, ["report", os.path.join(tmp, "r")], 2)
        return check
    interrupted = ["gate", "--quiet", "--matrix", "{sweep}", "--filter", "float_motion/cpu*", "--report-dir", "{tmp}/r", "-j", "2"]
    for name, sig, rc in (("SIGINT", signal.SIGINT, 130), ("SIGTERM", signal.SIGTERM, 143), ("SIGHUP", signal.SIGHUP, 129)):
        add(Case(f"gate interrupted by {name}", interrupted, rc, "no-verdict (INCOMPLETE)",
                 signal_after=[(1.5, sig)], check=incomplete_reports(rc)))
    # timeout(1) signals the process and then its process group: one stop arrives as two signals.
    add(Case("gate stopped by timeout(1): SIGTERM twice at once", interrupted, 143, "no-verdict (INCOMPLETE)",
             signal_after=[(1.5, signal.SIGTERM), (0, signal.SIGTERM)], check=incomplete_reports(143)))

    # 9. --require.
    for name, value in (("typo", "cuda-rowthred"), ("capitals", "CUDA"), ("space", " cuda"),
                        ("a feature", "float_motion"), ("a glob", "cuda*")):
        add(Case(f"--require {name}", GATE + ["--require", value], 2, "no such backend"))

    # 10. Waivers and dates.
    for today in ("0", "garbage", "2026-9-1", "2026-13-01", "2026-02-29", "2026-04-31", "20260901", "2026-09-01x", "-2026-09-01"):
        add(Case(f"--today {today!r}", GATE + ["--today", today], 2, "--today"))
    for expires in ("2027-13-45", "9999-99-99", "2027-02-30", "2027-1-1", "27-01-01", "2027/01/01", "", "tomorrow"):
        add(Case(f"waiver expires {expires!r}", GATE + ["--calibration", "{tmp}/t.json"], 2, "expires",
                 files={"t.json": table(waivers=[dict(WAIVER, expires=expires)])}))
    add(Case("waiver expires as a number", GATE + ["--calibration", "{tmp}/t.json"], 2, "expires",
             files={"t.json": table(waivers=[dict(WAIVER, expires=20270101)])}))
    for glob in ("*", "float_motion/*", "float_motion/cpu-simd/*", "*/cpu-simd/*", "float_motion/cpu-simd/*/*/*/*"):
        add(Case(f"waiver of every cell: {glob}", GATE + ["--calibration", "{tmp}/t.json"], 2, "waivers[0].cells",
                 files={"t.json": table(waivers=[dict(WAIVER, cells=glob)])}))
    add(Case("waiver matching more than its max_cells", GATE_FULL + ["--calibration", "{tmp}/t.json"], 2, "more than its max_cells 2",
             files={"t.json": table(waivers=[dict(WAIVER, cells="float_motion/cpu-simd/pan*/*", max_cells=2)])}))
    for bad in (0, -1, 1.5, "3", 10 ** 20):
        add(Case(f"waiver max_cells {bad!r}", GATE + ["--calibration", "{tmp}/t.json"], 2, "max_cells",
                 files={"t.json": table(waivers=[dict(WAIVER, max_cells=bad)])}))
    add(Case("expired waiver fails its cell", GATE_FULL + ["--calibration", "{tmp}/t.json", "--today", "2027-01-02"], 1,
             "0 passed, 1 failed", files={"t.json": table(waivers=[WAIVER])}))
    add(Case("live waiver on a passing cell passes", GATE_FULL + ["--calibration", "{tmp}/t.json", "--today", "2027-01-01"], 0,
             "1 passed, 0 failed", files={"t.json": table(waivers=[WAIVER])}))

    # 11. places.
    for places in (4294967300, 18446744073709551615, -1, 0, 16, -4294967292):
        add(Case(f"places {places}", GATE + ["--calibration", "{tmp}/t.json"], 2, f"'{places}': places must be in [1, 15]",
                 files={"t.json": table([dict(CALIBRATION_ROW, mode="places", places=places), MOTION_ROW])}))
    for places in (4.5, "4", None, True):
        add(Case(f"places {places!r}", GATE + ["--calibration", "{tmp}/t.json"], 2, "integer number of places",
                 files={"t.json": table([dict(CALIBRATION_ROW, mode="places", places=places), MOTION_ROW])}))

    # 12. Nothing checked is not a pass.
    add(Case("gate --list matching no cell", ["gate", "--list", "--filter", "nomatch*"], 2, "no cell"))
    add(Case("gate matching no cell", ["gate", "--filter", "nomatch*"], 2, "--allow-empty"))
    add(Case("gate matching no cell, --allow-empty", ["gate", "--list", "--filter", "nomatch*", "--allow-empty"], 0, ""))
    add(Case("goldens check --filter nomatch", ["goldens", "check", "--filter", "nomatch*"], 2, "no golden case"))
    add(Case("goldens check --feature motion --filter nomatch", ["goldens", "check", "--feature", "motion", "--filter", "zz*"], 2,
             "nothing was checked"))
    for sizes in ("", ",,,", ","):
        add(Case(f"bench --sizes {sizes!r}", ["bench", "--backends", "cpu", "--sizes", sizes], 2,
                 "names no size" if sizes else "--sizes: an empty value names nothing"))
    add(Case("bench --backends ,", ["bench", "--backends", ","], 2, "names no backend"))
    add(Case("report on an empty results.jsonl", ["report", "{tmp}/r"], 2, "holds no verdict", files={"r/results.jsonl": ""}))
    add(Case("report on a results.jsonl that is a folder", ["report", "{tmp}/r"], 2, "not a regular file",
             setup=lambda tmp: os.makedirs(os.path.join(tmp, "r", "results.jsonl"))))
    add(Case("report on a folder without results.jsonl", ["report", "{tmp}/r"], 2, "no such file",
             setup=lambda tmp: os.makedirs(os.path.join(tmp, "r"))))
    add(Case("report with a malformed complete last record", ["report", "{tmp}/r"], 2, "line 2",
             files={"r/results.jsonl": record_line() + "\n" + '{"id": 1}\n'}))
    add(Case("report with a malformed middle record", ["report", "{tmp}/r"], 2, "line 1",
             files={"r/results.jsonl": '{"id"\n' + record_line() + "\n"}))
    add(Case("report with an unknown status", ["report", "{tmp}/r"], 2, "unknown cell status",
             files={"r/results.jsonl": record_line(status="passed") + "\n"}))
    add(Case("report with an unknown kind", ["report", "{tmp}/r"], 2, "unknown cell kind",
             files={"r/results.jsonl": record_line(kind="both") + "\n"}))
    add(Case("report with a wrongly typed field", ["report", "{tmp}/r"], 2, "malformed record",
             files={"r/results.jsonl": record_line(bitdepth="8") + "\n"}))
    add(Case("report with a cut last record (interrupted) and a missing cell", ["report", "{tmp}/r"], 2, "without one",
             files={"r/results.jsonl": record_line() + "\n" + record_line()[:40],
                    "r/cells.txt": CELL + "\nfloat_motion/cpu-simd/flash64/8b/420/blend\n"}))
    add(Case("report with a cut last record renders", ["report", "{tmp}/r"], 0, "1 verdicts rendered",
             files={"r/results.jsonl": record_line() + "\n" + record_line()[:40], "r/cells.txt": CELL + "\n",
                    "r/selection.json": json.dumps({"schema_version": 1, "matrix": "m.json", "matrix_name": "corpus", "filters": [],
                                                    "shard": None, "cells": 1})}))
    add(Case("report on a folder whose run recorded no selection", ["report", "{tmp}/r"], 2, "INCOMPLETE: 1 cell: 1 pass",
             files={"r/results.jsonl": record_line() + "\n", "r/cells.txt": CELL + "\n"}))

    # 13. Strict parsing: keys, axes, numbers, Y4M tags.
    add(Case("exclude with a misspelt axis", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "twn",
             files={"m.json": matrix(exclude=[{"twn": "cuda*"}])}))
    add(Case("include with a misspelt axis", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "unknown key",
             files={"m.json": matrix(include=[{"vectr": "*"}])}))
    add(Case("rule value a number", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "glob",
             files={"m.json": matrix(exclude=[{"bitdepth": 8}])}))
    add(Case("rule that is a string", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "a rule is a non-empty object",
             files={"m.json": matrix(exclude=["cuda*"])}))
    add(Case("empty rule", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "a rule is a non-empty object",
             files={"m.json": matrix(exclude=[{}])}))
    add(Case("rules not an array", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "rules are an array",
             files={"m.json": matrix(include={"twin": "*"})}))
    add(Case("unknown top-level matrix key", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "unknown key",
             files={"m.json": matrix(axis={})}))
    add(Case("unknown axis", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "unknown key",
             files={"m.json": matrix(axes={"twin": ["cpu-simd"], "vector": ["flash64"], "bitdepth": ["native"],
                                          "chroma": ["native"], "options": ["default"], "colour": ["x"]})}))
    add(Case("unknown key in a feature block", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "features[0].exlude",
             files={"m.json": json.dumps({"name": "x", "features": [dict(json.loads(matrix()), exlude=[])]}).replace('"name": "corpus", ', "")}))
    add(Case("unknown key in the calibration table", GATE + ["--calibration", "{tmp}/t.json"], 2, "unknown key",
             files={"t.json": table(waiver=[])}))
    add(Case("unknown key in a calibration row", GATE + ["--calibration", "{tmp}/t.json"], 2, "rows[0].tolerance",
             files={"t.json": table([dict(CALIBRATION_ROW, tolerance="exact"), MOTION_ROW])}))
    add(Case("unknown key in a waiver", GATE + ["--calibration", "{tmp}/t.json"], 2, "waivers[0].expiry",
             files={"t.json": table(waivers=[dict(WAIVER, expiry="2027-01-01")])}))
    for flag, value, fragment in (("--width", "0x40", "plain whole number"), ("--width", " 64", "plain whole number"),
                                  ("--width", "64 ", "plain whole number"), ("--width", "+64", "plain whole number"),
                                  ("--width", "6.4e1", "plain whole number"), ("--width", "", "not a number"),
                                  ("--height", "-48", "plain whole number"), ("--bitdepth", "0b1000", "plain whole number")):
        add(Case(f"score {flag} {value!r}", ["score", "{tmp}/x.yuv", "--width", "64", "--height", "48", "--pixfmt", "420",
                                             "--bitdepth", "8", flag, value], 2, fragment, files={"x.yuv": b"\0" * 4608}))
    for value in (" 0", "0 ", "0x0", "-1", "1,,x", "0;1", "99999"):
        add(Case(f"--devices {value!r}", GATE + ["--devices", value], 2, "--devices"))
    for value in ("64x48junk", "64.9x48", "64x", "x48", "0x48", "64x-48", " 64x48", "64X48", "1e2x48", "9999999x1"):
        add(Case(f"bench --sizes {value!r}", ["bench", "--backends", "cpu", "--sizes", value], 2, "is not WxH"))
    for value in ("-5", "nan", "inf", "1e3", "0x10", "5s", "", "1..2"):
        add(Case(f"--cell-timeout {value!r}", GATE + ["--cell-timeout", value], 2, "--cell-timeout"))
    for value in ("1/0", "2/2", "a/b", "1", "-1/2", "1/2/3"):
        add(Case(f"--shard {value!r}", GATE + ["--shard", value], 2, "--shard"))
    for value in ("x", "-3", "2:1", "1:x"):
        add(Case(f"score --frames {value!r}", ["score", "vector:check_pan64x48", "--frames", value], 2, "--frames"))
    frame = 64 * 48 * 3 // 2
    for tags, fragment in ((b"W32 H48 W64", "appears twice"), (b"W64 H48 C444 C420jpeg", "appears twice"),
                           (b"W64 H48 H48", "appears twice"), (b"W64 H48 Ip Ip", "appears twice"),
                           (b"W64 H48 F25:1 F30:1", "appears twice"), (b"W64 H48 A1:1 A2:1", "appears twice")):
        add(Case(f"Y4M tags {tags.decode()}", ["score", "{tmp}/x.y4m"], 2, fragment,
                 files={"x.y4m": y4m(b"YUV4MPEG2 " + tags, frame)}))
    add(Case("Y4M repeated X tags are fine", ["score", "{tmp}/x.y4m"], 0, "float_motion",
             files={"x.y4m": y4m(b"YUV4MPEG2 W64 H48 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED", frame, 2)}))

    # Y4M headers and frames (the readers were solid; these keep them so).
    y4m_bad = [
        (b"", "empty input"), (b"YUV4MPEG", "not a YUV4MPEG2"), (b"YUV4MPEG3 W64 H48\n", "not a YUV4MPEG2"),
        (b"RIFF....WAVEfmt ", "not a YUV4MPEG2"), (b"YUV4MPEG2 H48\nFRAME\n", "no width"), (b"YUV4MPEG2 W64\nFRAME\n", "no height"),
        (b"YUV4MPEG2 W0 H48\nFRAME\n", "at least 1"), (b"YUV4MPEG2 W-64 H48\nFRAME\n", "at least 1"),
        (b"YUV4MPEG2 W64x H48\nFRAME\n", "not an integer"), (b"YUV4MPEG2 W H48\nFRAME\n", "not an integer"),
        (b"YUV4MPEG2 W99999999999999999999 H48\nFRAME\n", "not an integer"), (b"YUV4MPEG2 W40000 H48\nFRAME\n", "exceeds"),
        (b"YUV4MPEG2 W64 H48 It\nFRAME\n", "interlaced"), (b"YUV4MPEG2 W64 H48 Cfoo\nFRAME\n", "unknown colour space"),
        (b"YUV4MPEG2 W64 H48 C444alpha\nFRAME\n", "alpha"), (b"YUV4MPEG2 W64 H48 C420p14\nFRAME\n", "unknown colour space"),
        (b"YUV4MPEG2 W64 H48 C420jpeg", "truncated"), (b"YUV4MPEG2 W64 H48 C420jpeg\n", "no frame"),
        (b"YUV4MPEG2 W64 H48 C420jpeg\nFRAM", "too small"), (b"YUV4MPEG2 W64 H48 C420jpeg\nFRAME\n" + b"\0" * 100, "too small"),
        (b"YUV4MPEG2 W64 H48 C420jpeg\nFRAMEX\n" + b"\0" * frame, "expected 'FRAME'"),
        (b"YUV4MPEG2 W64 H48 C420jpeg\nframe\n" + b"\0" * frame, "expected 'FRAME'"),
        (b"YUV4MPEG2 W64 H48 C420jpeg\nFRAME\n" + b"\0" * frame + b"FRAME\n" + b"\0" * 10, "truncated frame"),
        (b"YUV4MPEG2 W64 H48 C420jpeg\nFRAME\n" + b"\0" * (frame + 3), "ends inside a header line"),
        (b"YUV4MPEG2 W1 H1 C420jpeg\nFRAME\n\0\0\0", "chroma"),
        (b"YUV4MPEG2 " + b"X" * 5000 + b"\n", "longer than"),
        (b"YUV4MPEG2 W64 H48 C420p10\nFRAME\n" + b"\xff" * (frame * 2), "exceeds the 10-bit maximum"),
        (b"YUV4MPEG2 W64 H48 C\x00420\nFRAME\n", "unknown colour space"),
        (b"YUV4MPEG2 W64\rH48\nFRAME\n", "not an integer"),
        (b"YUV4MPEG2 W64 H48\nFRAME\n" + b"\0" * (frame - 1), "too small for one"),
    ]
    for i, (data, fragment) in enumerate(y4m_bad):
        add(Case(f"Y4M #{i}: {fragment}", ["score", "{tmp}/x.y4m"], 2, fragment, files={"x.y4m": data}))
    raw_bad = [
        (["--width", "64", "--height", "48", "--pixfmt", "420", "--bitdepth", "8"], b"\0" * 100, "not a whole number"),
        (["--width", "64", "--height", "48", "--pixfmt", "420", "--bitdepth", "8"], b"", "empty"),
        (["--width", "64", "--height", "48", "--pixfmt", "420", "--bitdepth", "9"], b"\0" * 4608, "bit depth"),
        (["--width", "64", "--height", "48", "--pixfmt", "411", "--bitdepth", "8"], b"\0" * 4608, "pixfmt"),
        (["--width", "64", "--height", "48", "--pixfmt", "420", "--bitdepth", "10"], b"\xff" * 9216, "exceeds the 10-bit maximum"),
        (["--width", "64", "--pixfmt", "420", "--bitdepth", "8"], b"\0" * 4608, "height"),
        (["--width", "40000", "--height", "48", "--pixfmt", "420", "--bitdepth", "8"], b"\0" * 4608, "width"),
        (["--width", "0", "--height", "48", "--pixfmt", "420", "--bitdepth", "8"], b"\0" * 4608, "width"),
    ]
    for i, (flags, data, fragment) in enumerate(raw_bad):
        add(Case(f"raw #{i}: {fragment}", ["score", "{tmp}/x.yuv"] + flags, 2, fragment, files={"x.yuv": data}))
    add(Case("score a folder", ["score", "{tmp}"], 2, "is a directory"))
    add(Case("score a missing file", ["score", "{tmp}/nope.y4m"], 2, "nope.y4m"))
    add(Case("score a missing raw file", ["score", "{tmp}/nope.yuv"], 2, "--width"))
    add(Case("score vector:unknown", ["score", "vector:nope"], 2, "nope"))

    # 14. Repro bundles: tampering, validation, confinement.
    add(Case("bundle replays", ["repro", "--bundle", "{tmp}/b"], 0, "equal bit for bit",
             setup=lambda tmp: shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b"))))
    add(Case("bundle header W/H swapped", ["repro", "--bundle", "{tmp}/b"], 2, "modified after it was written",
             setup=replace_in_frames(b"W64 H36", b"W36 H64")))
    add(Case("bundle header W/H swapped, sums rewritten", ["repro", "--bundle", "{tmp}/b"], 2, "cell.json says 64x36",
             setup=replace_in_frames(b"W64 H36", b"W36 H64", resum=True)))
    add(Case("bundle sample flipped", ["repro", "--bundle", "{tmp}/b"], 2, "modified after it was written",
             setup=replace_in_frames(b"FRAME\n", b"FRAME\n\x01")))
    add(Case("bundle cell.json edited", ["repro", "--bundle", "{tmp}/b"], 2, "cell.json",
             setup=edit_bundle(set_field("first_label", 1), resum=False)))
    add(Case("bundle without SHA256SUMS", ["repro", "--bundle", "{tmp}/b"], 2, "SHA256SUMS",
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                os.remove(os.path.join(tmp, "b", "SHA256SUMS")))))
    add(Case("bundle SHA256SUMS garbage", ["repro", "--bundle", "{tmp}/b"], 2, "64 hex digits",
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                write(tmp, "b/SHA256SUMS", "nonsense\n"))))
    add(Case("bundle SHA256SUMS without frames", ["repro", "--bundle", "{tmp}/b"], 2, "frames.y4m",
             setup=lambda tmp: (shutil.copytree(os.path.join(ROOT_TMP, "bundle"), os.path.join(tmp, "b")),
                                write(tmp, "b/SHA256SUMS", open(os.path.join(tmp, "b", "SHA256SUMS")).read().splitlines()[0] + "\n"))))
    bundle_fields = [
        ("twin", "nope", "no such backend"), ("twin", 5, "must be a string"), ("reference", "cuda-nope", "no such backend"),
        ("feature", "float_vif", "no such feature"), ("feature", "../x", "no such feature"),
        ("chroma", "xyz", "chroma is"),
        ("bitdepth", 9, "bit depths"), ("bitdepth", "8", "whole number"), ("bitdepth", -8, "whole number"),
        ("kind", "both", "parity or regression"), ("kind", 1, "must be a string"),
        ("first_label", 1.5, "whole number"), ("first_label", -1, "whole number"), ("first_label", "0", "whole number"),
        ("first_label", 2 ** 40, "whole number"),
        ("frames", 0, "whole number"), ("frames", 2.0, "whole number"), ("frames", 99, "frames"),
        ("frames_sha256", "00", "64 lowercase hex"), ("frames_sha256", "0" * 64, "do not hash to the pinned"),
        ("width", 36, "cell.json says 36x36"), ("height", 0, "whole number"), ("width", "64", "whole number"),
        ("vector", "../../../../tmp/x", "plain name"), ("vector", "/etc/passwd", "plain name"), ("vector", ".hidden", "plain name"),
        ("vector", "", "plain name"), ("option_set", "a/b", "plain name"), ("option_set", "..", "plain name"),
        ("id", "float_motion/cpu-simd/other/8b/420/default", "does not match"), ("id", None, "must be a string"),
        ("options", [], "options must be an object"), ("options", {"motion_add_uv": True}, "option values are strings"),
        ("options", {"bogus_option": "1"}, "bogus_option"),
        ("with_mutants", "yes", "true or false"), ("extra", 1, "unknown key"),
        ("twin", DELETE, "(missing)"), ("golden", DELETE, "(missing)"), ("frames_sha256", DELETE, "(missing)"),
    ]
    for key, value, fragment in bundle_fields:
        add(Case(f"bundle {key}={value if value is not DELETE else 'deleted'!r}", ["repro", "--bundle", "{tmp}/b"], 2, fragment,
                 setup=edit_bundle(set_field(key, value))))
    add(Case("bundle chroma unlike its frames", ["repro", "--bundle", "{tmp}/b"], 2, "cell.json says 64x36 8-bit 4:4:4",
             setup=edit_bundle(lambda c, t: c.update(chroma="444", id=CELL.replace("/420/", "/444/")))))
    add(Case("bundle bit depth unlike its frames", ["repro", "--bundle", "{tmp}/b"], 2, "cell.json says 64x36 12-bit",
             setup=edit_bundle(lambda c, t: c.update(bitdepth=12, id=CELL.replace("/8b/", "/12b/")))))
    add(Case("bundle regression cell with a golden outside its vector", ["repro", "--bundle", "{tmp}/b"], 2, "golden",
             setup=edit_bundle(lambda c, t: c.update(kind="regression", twin="cpu", golden="../x/default",
                                                     id="float_motion/cpu/flash64/8b/420/default"))))
    add(Case("bundle cell.json not an object", ["repro", "--bundle", "{tmp}/b"], 2, "a JSON object",
             setup=edit_bundle(lambda c, t: "[1, 2]")))
    add(Case("bundle cell.json not JSON", ["repro", "--bundle", "{tmp}/b"], 2, "not valid JSON",
             setup=edit_bundle(lambda c, t: "{'id': 1}")))
    add(Case("bundle that is a file", ["repro", "--bundle", "{tmp}/f"], 2, "not a folder", files={"f": "x"}))
    add(Case("bundle that is missing", ["repro", "--bundle", "{tmp}/nope"], 2, "not a folder"))
    add(Case("repro of a regression cell writes its bundle", ["repro", "float_motion/cpu/flash64/8b/420/default", "--bundle",
                                                              "{tmp}/rb"], 0, "bundle:",
             check=lambda tmp: None if os.path.isfile(os.path.join(tmp, "rb", "SHA256SUMS")) else "no bundle written"))
    add(Case("repro --bundle onto a file", ["repro", CELL, "--bundle", "{tmp}/f"], 2, "not a folder", files={"f": "x"}))

    # 15. Messages: library text never leaks, control bytes are escaped.
    add(Case("matrix that is an array", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "a matrix is a JSON object",
             files={"m.json": "[1, 2, 3]"}))
    add(Case("matrix name a number", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "m.json: json",
             files={"m.json": matrix(name=123)}))
    add(Case("matrix feature a number", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "m.json",
             files={"m.json": matrix(feature=5)}))
    add(Case("matrix axes a string", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "axes is an object",
             files={"m.json": matrix(axes="all")}))
    add(Case("matrix option_sets an array", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "option_sets is an object",
             files={"m.json": matrix(option_sets=[])}))
    add(Case("matrix option set name with a newline", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "\\x0a",
             files={"m.json": matrix(option_sets={"a\nb": {}}, axes={"twin": ["cpu-simd"], "vector": ["flash64"], "bitdepth": ["native"],
                                                                     "chroma": ["native"], "options": ["a\nb"]})}))
    add(Case("matrix name with a carriage return", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "\\x0d",
             files={"m.json": matrix(name="a\rb")}))
    add(Case("matrix not JSON", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "not valid JSON", files={"m.json": "{name: x}"}))
    add(Case("matrix empty file", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "not valid JSON", files={"m.json": ""}))
    add(Case("matrix unknown feature", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "no such feature",
             files={"m.json": matrix(feature="float_vif")}))
    add(Case("matrix unknown vector", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "nope",
             files={"m.json": matrix(axes={"twin": ["cpu-simd"], "vector": ["nope"], "bitdepth": ["native"],
                                          "chroma": ["native"], "options": ["default"]})}))
    add(Case("matrix bit depth 9", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "bit depths are",
             files={"m.json": matrix(axes={"twin": ["cpu-simd"], "vector": ["flash64"], "bitdepth": ["9"],
                                          "chroma": ["native"], "options": ["default"]})}))
    add(Case("matrix option value a number", ["gate", "--list", "--matrix", "{tmp}/m.json"], 2, "option values are strings",
             files={"m.json": matrix(option_sets={"default": {"motion_add_uv": 1}})}))
    add(Case("calibration that is a folder", GATE + ["--calibration", "{tmp}"], 2, "is a directory"))
    add(Case("calibration missing", GATE + ["--calibration", "{tmp}/nope.json"], 2, "no such file"))
    add(Case("calibration that is an array", GATE + ["--calibration", "{tmp}/t.json"], 2, "a JSON object", files={"t.json": "[]"}))
    add(Case("calibration rows empty", GATE + ["--calibration", "{tmp}/t.json"], 2, "non-empty array", files={"t.json": table([])}))
    add(Case("calibration row a number", GATE + ["--calibration", "{tmp}/t.json"], 2, "a row is an object",
             files={"t.json": table([5])}))
    add(Case("calibration row without reason", GATE + ["--calibration", "{tmp}/t.json"], 2, "reason",
             files={"t.json": table([{k: v for k, v in CALIBRATION_ROW.items() if k != "reason"}, MOTION_ROW])}))
    add(Case("calibration row mode fuzzy", GATE + ["--calibration", "{tmp}/t.json"], 2, "mode is",
             files={"t.json": table([dict(CALIBRATION_ROW, mode="fuzzy"), MOTION_ROW])}))
    add(Case("calibration duplicate key", GATE + ["--calibration", "{tmp}/t.json"], 2, "same key as rows[0]",
             files={"t.json": table([CALIBRATION_ROW, CALIBRATION_ROW, MOTION_ROW])}))
    add(Case("calibration without the twin's row", GATE + ["--calibration", "{tmp}/t.json"], 2, "fails closed",
             files={"t.json": table([MOTION_ROW])}))
    add(Case("calibration waivers an object", GATE + ["--calibration", "{tmp}/t.json"], 2, "waivers is an array",
             files={"t.json": table(waivers={})}))
    add(Case("calibration under /proc", GATE + ["--calibration", "/proc/self/status"], 2, "not valid JSON"))
    add(Case("--report-dir that is a file", GATE + ["--report-dir", "{tmp}/f"], 2, "not a folder", files={"f": "x"}))
    add(Case("--report-dir under /proc", GATE + ["--report-dir", "/proc/self/x"], 2, "cannot create the folder"))
    add(Case("merge --out that is a file", ["merge", "{tmp}/s", "--matrix", "{tmp}/m.json", "--out", "{tmp}/f"], 2, "not a folder",
             files={"s/results.jsonl": record_line() + "\n", "m.json": matrix(), "f": "x"}))
    add(Case("file name with a newline", ["score", "{tmp}/a\nb.y4m"], 2, "a\\x0ab.y4m"))
    add(Case("file name with an escape sequence", ["score", "{tmp}/\x1b[31mred.y4m"], 2, "\\x1b[31mred"))
    add(Case("Y4M header with an escape sequence", ["score", "{tmp}/x.y4m"], 2, "\\x1b",
             files={"x.y4m": b"YUV4MPEG2 W64 H48 C\x1b[2J\nFRAME\n"}))
    add(Case("filter with control bytes", ["gate", "--list", "--filter", "a\rb"], 2, "a\\x0db"))
    add(Case("score --feature float_vif", ["score", "vector:check_pan64x48", "--feature", "float_vif"], 2, "known: float_motion"))
    add(Case("score --backend nope", ["score", "vector:check_pan64x48", "--backend", "nope"], 2, "known: cpu"))
    add(Case("score --option without =", ["score", "vector:check_pan64x48", "--option", "motion_add_uv"], 2, "NAME=VALUE"))
    add(Case("score unknown option", ["score", "vector:check_pan64x48", "--option", "x=1"], 2, "x"))
    add(Case("unknown subcommand", ["frobnicate"], 2, "unknown command 'frobnicate'"))
    add(Case("unknown subcommand lists the real ones", ["gat"], 2, "gate"))
    add(Case("golden not an object", ["goldens", "check", "--feature", "float_motion"], 2, "a golden file is a JSON object",
             data_root=True, setup=lambda tmp: write(tmp, "data/goldens/float_motion/tiny2.json", "[]")))
    add(Case("golden column of the wrong length", ["goldens", "check", "--feature", "float_motion"], 2, "expected 1 values",
             data_root=True, setup=lambda tmp: write(tmp, "data/goldens/float_motion/tiny2.json", json.dumps(
                 {"feature": "float_motion", "vector": "tiny2", "provenance": {"kind": "x"},
                  "cases": [{"id": "tiny2/default", "options": {}, "frames": 1, "motion2": [5]}]}))))
    # Found by fuzz_golden: a frame count that is no integer reached the integer reader's fault,
    # which escaped as a library error instead of a refusal naming the file and the field.
    for frames in (1e86, -1, 0.5):
        add(Case(f"golden frames {frames}", ["goldens", "check", "--feature", "float_motion"], 2,
                 "tiny2/default.frames", data_root=True,
                 setup=lambda tmp, frames=frames: write(tmp, "data/goldens/float_motion/tiny2.json", json.dumps(
                     {"feature": "float_motion", "vector": "tiny2", "provenance": {"kind": "x"},
                      "cases": [{"id": "tiny2/default", "options": {}, "frames": frames}]}))))
    add(Case("golden cases a string", ["goldens", "check", "--feature", "float_motion"], 2, "tiny2.json",
             data_root=True, setup=lambda tmp: write(tmp, "data/goldens/float_motion/tiny2.json", json.dumps(
                 {"feature": "float_motion", "vector": "tiny2", "provenance": {"kind": "x"}, "cases": "all"}))))

    # 16. Shards, merges, cache.
    add(Case("merge into one of its shards", ["merge", "{tmp}/s", "--matrix", "{tmp}/m.json", "--out", "{tmp}/s"], 2,
             "is one of the shards", files={"s/results.jsonl": record_line() + "\n", "m.json": matrix()}))
    add(Case("merge with a missing cell names every shard", ["merge", "{tmp}/s0", "{tmp}/s1", "--matrix", "{tmp}/m.json",
                                                            "--out", "{tmp}/o"], 2, "s0, ",
             files={"s0/results.jsonl": record_line() + "\n", "s1/results.jsonl": "",
                    "m.json": matrix(option_sets={"default": {}, "uv": {"motion_add_uv": "true"}},
                                     axes={"twin": ["cpu-simd"], "vector": ["flash64"], "bitdepth": ["native"],
                                           "chroma": ["native"], "options": ["default", "uv"]})}))
    add(Case("merge with a duplicated cell", ["merge", "{tmp}/s0", "{tmp}/s1", "--matrix", "{tmp}/m.json", "--out", "{tmp}/o"], 2,
             "duplicated", files={"s0/results.jsonl": record_line() + "\n", "s1/results.jsonl": record_line() + "\n",
                                  "m.json": matrix()}))
    add(Case("merge then report on the merged folder", ["merge", "{tmp}/s", "--matrix", "{tmp}/m.json", "--out", "{tmp}/o"], 0,
             "merged 1 cell: 1 pass", files={"s/results.jsonl": record_line() + "\n", "m.json": matrix()},
             check=lambda tmp: run_check(tmp, ["report", os.path.join(tmp, "o")], 0)))
    add(Case("bench --backends cuda without a device", ["bench", "--backends", "cuda", "--sizes", "32x16"], 2, "'cuda'",
             unless=lambda: "this machine has an NVIDIA device" if os.path.exists("/dev/nvidia0") else None))
    add(Case("corrupt cached vector is named", ["score", "vector:city720x405"], 2, "city720x405",
             env={"TWINPROOF_CACHE": "{tmp}/cache"},
             setup=lambda tmp: write(tmp, "cache/vectors/city720x405.yuv", b"\0" * (720 * 405 * 3 // 2) * 2)))

    # 17. Plugins and records from outside: a library that is none, counts that are not integers.
    add(Case("--plugin that does not exist", ["--plugin", "{tmp}/none.so", "backends"], 2, "none.so: no such file"))
    add(Case("--plugin that is a text file", ["--plugin", "{tmp}/p.so", "backends"], 2, "cannot be loaded", files={"p.so": "not ELF\n"}))
    add(Case("TWINPROOF_PLUGINS naming a folder", ["backends"], 2, "not a regular file", env={"TWINPROOF_PLUGINS": "{tmp}"}))
    # bench --compare reads an earlier run's report before timing anything.
    bench = ["bench", "--feature", "motion", "--backends", "cpu", "--sizes", "64x48", "--frames", "2", "--reps", "1"]
    add(Case("bench --compare of a missing report", bench + ["--compare", "{tmp}/none.json"], 2, "none.json"))
    add(Case("bench --compare of a report without its setup", bench + ["--compare", "{tmp}/b.json"], 2, "setup",
             files={"b.json": json.dumps({"sizes": []})}))
    add(Case("bench --compare of a report with a negative time", bench + ["--compare", "{tmp}/b.json"], 2,
             "sizes[0].backends[0].ms_per_frame", files={"b.json": json.dumps(
                 {"setup": {"feature": "motion", "bitdepth": 8, "chroma": "420", "frames": 2, "host_memory": "pinned",
                            "options": {}, "threads": 1},
                  "sizes": [{"size": "64x48", "reps": 3, "backends": [
                      {"backend": "cpu", "ms_per_frame": -1, "spread": 0, "device_ms_per_frame": None}]}]})}))
    # --threads: a count up to 1024, or 0 for every hardware thread.
    add(Case("score --threads 100000", ["score", "vector:check_pan64x48", "--threads", "100000"], 2, "--threads 100000: at most 1024"))
    add(Case("bench --threads 2000", bench + ["--threads", "2000"], 2, "--threads 2000: at most 1024"))
    add(Case("score --threads -1", ["score", "vector:check_pan64x48", "--threads", "-1"], 2, "'-1' is not a plain whole number"))
    # Found by fuzz_results: a float count converted by an undefined cast.
    for field, value in (("values", 1e300), ("mismatches", -1), ("max_ulp", 0.5), ("bitdepth", 1e19)):
        add(Case(f"results record {field} = {value}", ["report", "{tmp}/r"], 2, f"line 1: {field} '",
                 files={"r/results.jsonl": record_line(**{field: value}) + "\n"}))
    # 18. Model files (score -m path=FILE, vmaf's model option): each refusal names the file, the
    # field and the value; a model is never half read.
    pair = ["score", "vector:odd175_420~noise4", "-q"]
    svm = "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv {n}\nrho 1\nSV\n{sv}"
    def model(n=1, sv="1 1:0.5\n", **over):
        d = {"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale", "feature_names": ["VMAF_integer_feature_adm2_score"],
             "slopes": [1, 1], "intercepts": [0, 0], "model": svm.format(n=n, sv=sv)}
        d.update(over)
        return json.dumps({"model_dict": d})
    add(Case("-m path= a model that is not JSON", pair + ["-m", "path={tmp}/m.json"], 2, "m.json: (file) = byte 2: not JSON there", files={"m.json": "{model"}))
    add(Case("-m path= a folder", pair + ["-m", "path={tmp}"], 2, "nor a readable model file"))
    add(Case("-m path= total_sv of a million", pair + ["-m", "path={tmp}/m.json"], 2, "fewer support vectors than total_sv",
             files={"m.json": model(n=1000000)}))
    add(Case("-m path= a support vector of NaN", pair + ["-m", "path={tmp}/m.json"], 2, "SV 0 value = nan: is not finite",
             files={"m.json": model(sv="1 1:nan\n")}))
    add(Case("-m path= a slope of 1e999", pair + ["-m", "path={tmp}/m.json"], 2, ": 1e999: out of a double's range",
             files={"m.json": model(slopes="[1e999, 1]").replace('"[1e999, 1]"', "[1e999, 1]")}))
    add(Case("-m path= an index past the features", pair + ["-m", "path={tmp}/m.json"], 2, "SV 0 = 7:0.5: the model has 1 features",
             files={"m.json": model(sv="1 7:0.5\n")}))
    add(Case("-m path= a feature option of the wrong type", pair + ["-m", "path={tmp}/m.json"], 2, "option adm_enhn_gain_limit",
             files={"m.json": model(feature_opts_dicts=[{"adm_enhn_gain_limit": "lots"}])}))

    # 19. Verdicts that must not lie (every verdict true): reports of an earlier run never outlive
    # the start of a new one; a plugin cannot end a run as a pass; a score given twice or for a
    # frame past the clip is refused; a crash is no refusal; one tally in every output.
    def stale_pass(tmp):
        os.makedirs(os.path.join(tmp, "r"), exist_ok=True)
        write(tmp, "r/summary.json", json.dumps({"verdict": "PASS", "complete": True, "exit_code": 0, "stale": True}))
        write(tmp, "r/summary.md", "## twinproof gate: PASS\n")
        write(tmp, "r/junit.xml", '<testsuites name="stale-fixture" tests="1" failures="0" errors="0"/>\n')
        write(tmp, "r/report.html", '<div class="banner PASS">PASS</div>')
    def no_stale_pass(tmp):
        r = os.path.join(tmp, "r")
        said = {}
        for name in ("summary.json", "summary.md", "junit.xml", "report.html"):
            path = os.path.join(r, name)
            if os.path.isfile(path):
                said[name] = open(path, encoding="utf-8", errors="replace").read()
        if "summary.json" in said and json.loads(said["summary.json"])["verdict"] == "PASS":
            return "summary.json still says PASS"
        if said.get("summary.md", "").startswith("## twinproof gate: PASS"):
            return "summary.md still says PASS"
        if "stale-fixture" in said.get("junit.xml", "") or "banner PASS" in said.get("report.html", ""):
            return "junit.xml or report.html is the earlier run's"
        return None
    def recorded(tmp):
        path = os.path.join(tmp, "r", "results.jsonl")
        return os.path.isfile(path) and os.path.getsize(path) > 0
    for name, sig in (("SIGKILL", signal.SIGKILL), ("SIGUSR1", signal.SIGUSR1), ("SIGALRM", signal.SIGALRM)):
        add(Case(f"gate killed by {name} over an earlier run's PASS reports", interrupted, None, "", setup=stale_pass,
                 signal_after=[(recorded, sig)], killed_by=sig, check=no_stale_pass))
    add(Case("junit.xml that cannot be written: no report says PASS", GATE + ["--report-dir", "{tmp}/r"], 2, "junit.xml",
             setup=lambda tmp: (stale_pass(tmp), os.remove(os.path.join(tmp, "r", "junit.xml")),
                                os.makedirs(os.path.join(tmp, "r", "junit.xml"))), check=no_stale_pass))

    # Plugins run in the process: exit() inside one, and scores for frames it was never handed.
    plugin = os.environ.get("TWINPROOF_BROKEN_PLUGIN", "")
    no_plugin = (lambda: None if plugin and os.path.isfile(plugin) else "TWINPROOF_BROKEN_PLUGIN names no built broken plugin")
    broken_gate = ["--plugin", plugin, "gate", "--quiet", "--matrix", "{tmp}/m.json", "--calibration", "{tmp}/c.json",
                   "--report-dir", "{tmp}/r"]
    broken_files = {"m.json": matrix(axes={"twin": ["broken-plugin"], "vector": ["flash64"], "bitdepth": ["native"],
                                           "chroma": ["native"], "options": ["default"]}),
                    "c.json": table([dict(CALIBRATION_ROW, twin="broken-plugin")])}
    def says_incomplete(tmp):
        summary = json.load(open(os.path.join(tmp, "r", "summary.json")))
        return None if summary["verdict"] == "INCOMPLETE" and summary["exit_code"] == 2 else f"summary.json says {summary['verdict']}"
    for moment in ("create", "init", "extract", "flush"):
        add(Case(f"plugin calling exit(0) in {moment}", broken_gate, 2, f"plugin twin broken-plugin ({plugin}) in {moment} called exit()",
                 files=broken_files, env={"TWINPROOF_BROKEN_CASE": f"exit-{moment}"}, unless=no_plugin, setup=stale_pass,
                 check=lambda tmp: no_stale_pass(tmp) or says_incomplete(tmp)))
    add(Case("plugin calling exit(0) while loaded", broken_gate, 2, "(loading it) called exit()", files=broken_files,
             env={"TWINPROOF_BROKEN_CASE": "exit-load"}, unless=no_plugin))
    add(Case("plugin scoring frame 100000000", broken_gate, 2, "emitted motion2 for frame 100000000, past frame 0", files=broken_files,
             env={"TWINPROOF_BROKEN_CASE": "future"}, unless=no_plugin, timeout=20))

    # A metric given twice for one frame, in every score format; a key given twice in a config file.
    one_frame = {"json": '{"frames": [{"frameNum": 0, "metrics": {"motion2": 1.0, "motion2": 2.0}}]}',
                 "xml": '<VMAF><frames><frame frameNum="0" motion2="1.0" motion2="2.0"/></frames></VMAF>',
                 "csv": "Frame,motion2,motion2,\n0,1.0,2.0,\n",
                 "vmafmotion": "n:1 motion2:1.0 motion2:2.0\n"}
    good = {"json": '{"frames": [{"frameNum": 0, "metrics": {"motion2": 1.0}}]}',
            "xml": '<VMAF><frames><frame frameNum="0" motion2="1.0"/></frames></VMAF>', "csv": "Frame,motion2,\n0,1.0,\n",
            "vmafmotion": "n:1 motion2:1.0\n"}
    for fmt, text in one_frame.items():
        message = {"json": "given twice", "xml": "metric given twice for frame 0", "csv": "a column named twice",
                   "vmafmotion": "metric given twice for frame 1"}[fmt]
        add(Case(f"compare: a metric given twice for one frame ({fmt})", ["compare", "{tmp}/a." + fmt, "{tmp}/b." + fmt], 2, message,
                 files={"a." + fmt: good[fmt], "b." + fmt: text}))
    add(Case("waiver with two expires", GATE + ["--calibration", "{tmp}/t.json"], 2, "waivers[0].expires",
             files={"t.json": table(waivers=[WAIVER]).replace('"expires": "2027-01-01"', '"expires": "2020-01-01", "expires": "2027-01-01"')}))
    add(Case("calibration row with two twin keys", GATE + ["--calibration", "{tmp}/t.json"], 2, "rows[0].twin",
             files={"t.json": table().replace('"twin": "cpu-simd"', '"twin": "cpu-simd", "twin": "cuda"', 1)}))

    # Outside programs: a crash where the reference refuses is an error, never a refusal; a program
    # that scores what the reference refuses fails, whatever keys it wrote; repro shows the command.
    def sh_twins(name, script):
        return json.dumps({"schema": 1, "twins": [{
            "name": name, "features": ["float_motion"], "summary": "corpus", "executable": {"program": "sh"},
            "command": ["{exe}", "-c", script, "sh", "{input}", "{output}"], "options": ["--option", "{name}={value}"],
            "output": {"format": "csv"}, "metrics": {"motion2": "motion2"}}]})
    def refused_cell(name):
        return {"m.json": matrix(option_sets={"refused": {"motion_filter_size": "10"}},
                                 axes={"twin": [name], "vector": ["flash64"], "bitdepth": ["native"], "chroma": ["native"],
                                       "options": ["refused"]}),
                "c.json": table([dict(CALIBRATION_ROW, twin=name)])}
    outside = ["--twins", "{tmp}/t.json", "gate", "--quiet", "--matrix", "{tmp}/m.json", "--calibration", "{tmp}/c.json",
               "--report-dir", "{tmp}/r"]
    segv = ("Segmentation fault",)  # the program's death, as the gate names it
    add(Case("exec twin that crashes where the reference refuses", outside, 2, "a crash and never a refusal",
             files=dict(refused_cell("crasher"), **{"t.json": sh_twins("crasher", "kill -SEGV $$")}), allowed_marks=segv))
    add(Case("exec twin that scores what the reference refuses, under other keys", outside, 1, "but the twin scores",
             files=dict(refused_cell("taker"), **{"t.json": sh_twins("taker", 'echo Frame,motion2, > "$2"; for i in 0 1 2 3 4 5 6 7; do echo "$i,," >> "$2"; done')})))
    add(Case("exec twin that exits 0 and writes nothing where the reference refuses", outside, 2, "scores.csv",
             files=dict(refused_cell("mute"), **{"t.json": sh_twins("mute", "true")})))
    add(Case("repro of a crashing exec twin prints its command", ["--twins", "{tmp}/t.json", "repro", "--matrix", "{tmp}/m.json",
                                                                 "float_motion/crasher/flash64/8b/420/refused"], 2,
             "crasher ran as:", files=dict(refused_cell("crasher"), **{"t.json": sh_twins("crasher", "kill -SEGV $$")}),
             allowed_marks=segv))

    # One tally in every output: a required twin that cannot run here, and a run that judged nothing.
    absent = json.dumps({"schema": 1, "twins": [{
        "name": "absent", "features": ["float_motion"], "summary": "corpus", "executable": {"program": "no-such-program-anywhere"},
        "command": ["{exe}", "{input}", "{output}"], "output": {"format": "csv"}}]})
    absent_files = {"t.json": absent, "c.json": table([CALIBRATION_ROW, dict(CALIBRATION_ROW, twin="absent")]),
                    "m.json": matrix(axes={"twin": ["cpu-simd", "absent"], "vector": ["flash64"], "bitdepth": ["native"],
                                           "chroma": ["native"], "options": ["default"]})}
    def tally_says(verdict, code, counts, junit_errors):
        def check(tmp):
            summary = json.load(open(os.path.join(tmp, "r", "summary.json")))
            if summary["verdict"] != verdict or summary["exit_code"] != code:
                return f"summary.json says {summary['verdict']} / {summary['exit_code']}"
            for k, v in counts.items():
                if summary["counts"][k] != v:
                    return f"summary.json counts {k} = {summary['counts'][k]}, not {v}"
            import xml.etree.ElementTree as ET
            root = ET.parse(os.path.join(tmp, "r", "junit.xml")).getroot()
            if int(root.get("errors")) != junit_errors or int(root.get("tests")) != sum(summary["counts"].values()):
                return f"junit.xml counts {root.get('errors')} errors of {root.get('tests')}"
            if not open(os.path.join(tmp, "r", "summary.md")).read().startswith(f"## twinproof gate: {verdict}"):
                return "summary.md has another headline"
            return None
        return check
    add(Case("--require a twin that cannot run here", ["--twins", "{tmp}/t.json", "gate", "--quiet", "--matrix", "{tmp}/m.json",
                                                       "--calibration", "{tmp}/c.json", "--report-dir", "{tmp}/r", "--require", "absent"],
             1, "2 cells: 1 pass, 1 required-not-supported", files=absent_files,
             check=tally_says("FAIL", 1, {"pass": 1, "required-not-supported": 1, "not-supported": 0}, 1)))
    add(Case("every selected cell not supported", ["--twins", "{tmp}/t.json", "gate", "--quiet", "--matrix", "{tmp}/m.json",
                                                   "--calibration", "{tmp}/c.json", "--report-dir", "{tmp}/r", "--filter", "*/absent/*"],
             2, "ERROR: 0 passed, 0 failed, 0 error(s), 1 skipped", files=absent_files,
             check=tally_says("ERROR", 2, {"not-supported": 1}, 0)))

    # The files tests/schemas/ holds, which ci/schemas/ must refuse (scripts/lint-ci.sh): twinproof refuses each.
    refused_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")
    for name in sorted(n for n in os.listdir(refused_dir) if n.endswith(".json")):
        path = os.path.join(refused_dir, name)
        kind = name.split(".")[0]
        text = open(path, encoding="utf-8").read()
        args = {"calibration": GATE + ["--calibration", "{tmp}/f.json"], "matrix": ["gate", "--list", "--matrix", "{tmp}/f.json"],
                "twins": ["--twins", "{tmp}/f.json", "backends"]}[kind]
        add(Case(f"tests/schemas/{name}", args, 2, "f.json: ", files={"f.json": text}))

    # Values that name nothing or ask for the impossible are refused by name, never taken as a default.
    for args, flag in ((GATE + ["--require", ""], "--require"), (GATE + ["--report-dir", ""], "--report-dir"),
                       (["gate", "--list", "--matrix", ""], "--matrix"), (["score", "vector:flash64", "-o", ""], "--output"),
                       (["merge", "{tmp}/s", "--out", ""], "--out"), (["repro", CELL, "--bundle", ""], "--bundle")):
        add(Case(f"{flag} given empty", args, 2, f"{flag}: an empty value names nothing"))
    add(Case("--max-failures past any count", GATE + ["--max-failures", "99999999999999999999"], 2, "--max-failures: Value"))
    add(Case("repro --repeat of a hundred million", ["repro", CELL, "--repeat", "100000000"], 2, "--repeat: Value 100000000 not in range"))
    add(Case("bench --reps of a billion", ["bench", "--reps", "1000000000", "--sizes", "32x16"], 2, "--reps: Value 1000000000 not in range"))
    add(Case("--matrix naming neither a file nor a shipped matrix", ["gate", "--list", "--matrix", "gaet"], 2,
             "--matrix 'gaet' is neither a file nor a shipped matrix (shipped: "))
    def bracket_safe(tmp):
        script = open(os.path.join(tmp, "out", "gate.cmake")).read()
        return None if "[==[" in script and "]=]x" in script else "the script does not quote a path holding ]=]"
    add(Case("--ctest-script of a matrix whose path holds ]=]", ["gate", "--matrix", "{tmp}/a]=]x/m.json", "--ctest-script",
                                                                "{tmp}/out/gate.cmake"], 0, "gate tests from 1 cells",
             files={"a]=]x/m.json": matrix(), "out/.keep": ""}, check=bracket_safe))

    # 20. Round three (issue 54): what the second attack left open (D7-D14) and the third attack's
    # twelve findings, each refused or handled with one line.
    # D7: worker threads the system refuses end score and bench with an error, never a hang.
    add(Case("score --threads 200 where threads cannot start", ["score", "vector:check_pan64x48", "--backend", "cpu-simd",
                                                                 "--threads", "200", "-q"], 2, "cannot start worker thread",
             address_space=1 << 30, unless=sanitizer_build, timeout=30))
    add(Case("bench --threads 200 where threads cannot start", ["bench", "--feature", "motion", "--backends", "cpu-simd", "--sizes",
                                                                 "64x48", "--frames", "2", "--reps", "1", "--threads", "200"], 2,
             "cannot start worker thread", address_space=1 << 30, unless=sanitizer_build, timeout=30))
    # D14 (and the class: inputs are regular files, or a stream named '-' once).
    raw64 = ["--width", "64", "--height", "48", "--pixfmt", "420", "--bitdepth", "8"]
    add(Case("score /dev/zero as a raw clip", ["score", "/dev/zero"] + raw64, 2, "is not a regular file", timeout=20))
    add(Case("score a FIFO as the distorted clip", ["score", "{tmp}/x.yuv", "-d", "{tmp}/fifo", "--feature", "psnr"] + raw64, 2,
             "fifo: file", files={"x.yuv": b"\0" * 4608}, setup=lambda tmp: os.mkfifo(os.path.join(tmp, "fifo")), timeout=20))
    add(Case("score -r - -d -", ["score", "-r", "-", "-d", "-", "--feature", "psnr"] + raw64, 2, "both name standard input",
             stdin=b"\0" * 4608 * 2))
    add(Case("score - with two features", ["score", "-", "--feature", "psnr", "--feature", "motion"] + raw64, 2,
             "standard input is read once", stdin=b"\0" * 4608))
    # D10: the calibration table in force is never written by calibrate, by any path to it.
    live = lambda tmp: open(os.path.join(SOURCE, "ci", "calibration.json"), "rb").read()
    for name, target in (("the live table", "{tmp}/data/ci/calibration.json"),
                         ("the live table through ..", "{tmp}/data/ci/../ci/calibration.json")):
        add(Case(f"calibrate --output onto {name}", ["calibrate", "{tmp}/r", "--output", target], 2, "is the calibration table in force",
                 data_root=True, files={"r/results.jsonl": record_line() + "\n"},
                 check=lambda tmp: untouched(tmp, "data/ci/calibration.json", live(tmp))))
    add(Case("calibrate --output onto the --calibration it read", ["calibrate", "{tmp}/r", "--calibration", "{tmp}/t.json",
                                                                     "--output", "{tmp}/t.json"], 2, "this run reads",
             files={"r/results.jsonl": record_line() + "\n", "t.json": table()},
             check=lambda tmp: untouched(tmp, "t.json", table().encode())))
    # D8, D9: an exec twin's program is stopped at the cell's limit, with every process it started.
    def pid_gone(tmp):
        path = os.path.join(tmp, "pid")
        if not os.path.exists(path):
            return "the program never wrote its child's pid"
        pid = int(open(path).read().split()[0])
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().split(") ")[-1].startswith("Z"):
                        return None  # a zombie waiting for its reaper: ended
            except FileNotFoundError:
                return None
            time.sleep(0.05)
        return f"the program's child {pid} outlived the run"
    def timed(name, script):
        return dict(refused_cell(name), **{"m.json": matrix(axes={"twin": [name], "vector": ["flash64"], "bitdepth": ["native"],
                                                                   "chroma": ["native"], "options": ["default"]}),
                                           "t.json": lambda tmp: sh_twins(name, script.replace("PIDFILE", os.path.join(tmp, "pid")))})
    add(Case("exec twin past --cell-timeout 3 (it sleeps 8 s)", outside + ["--cell-timeout", "3"], 2, "stopped at the cell's time limit",
             files=timed("sleeper", "sleep 8; exit 0"), timeout=7))
    add(Case("exec twin's child ends with the twin's timeout", outside + ["--cell-timeout", "2"], 2, "stopped at the cell's time limit",
             files=timed("spawner", "sleep 60 & echo $! > PIDFILE; sleep 30"), timeout=7, check=pid_gone))
    add(Case("exec twin's background child ends with the twin", outside, 2, "scores.csv",
             files=timed("leaver", "sleep 60 & echo $! > PIDFILE; exit 0"), timeout=20, check=pid_gone))
    # D12: a FIFO planted at a report's name is replaced, never opened (it would wait for a reader).
    for name in ("junit.xml", "results.jsonl"):
        add(Case(f"gate over a FIFO at {name}", GATE + ["--report-dir", "{tmp}/r"], 0, "1 passed, 0 failed", timeout=20,
                 setup=lambda tmp, name=name: (os.makedirs(os.path.join(tmp, "r")), os.mkfifo(os.path.join(tmp, "r", name))),
                 check=lambda tmp, name=name: regular(tmp, "r/" + name)))
    # 1: models nested past any model's depth, through every door that names a model.
    deep_model = {"m.json": '{"model_dict": ' + nested(100000) + "}"}
    for door, args in (("score -m path=", pair + ["-m", "path={tmp}/m.json"]),
                       ("--feature vmaf=model=", ["score", "vector:odd175_420~noise4", "-q", "--feature", "vmaf=model={tmp}/m.json"]),
                       ("bench --option model=", ["bench", "--feature", "vmaf", "--backends", "cpu", "--sizes", "64x48",
                                                  "--frames", "2", "--reps", "1", "--option", "model={tmp}/m.json"]),
                       ("features --libvmaf-keys", ["features", "--libvmaf-keys", "vmaf", "--option", "model={tmp}/m.json"])):
        add(Case(f"model nested 100000 deep ({door})", args, 2, "nested deeper than 64", files=deep_model))
    # Through a gate's option set: the reference and the twin refuse it alike, one line in the cell.
    deep_cell = lambda tmp: json.dumps({
        "name": "deep", "feature": "vmaf", "reference": "cpu", "option_sets": {"deep": {"model": os.path.join(tmp, "m.json")}},
        "axes": {"twin": ["cpu-simd"], "vector": ["odd175_420"], "distortion": ["noise4"], "bitdepth": ["native"],
                 "chroma": ["native"], "options": ["deep"]}})
    add(Case("model nested 100000 deep (a gate option set)", ["gate", "--quiet", "--matrix", "{tmp}/g.json", "--report-dir", "{tmp}/r"],
             0, "1 passed", files=dict(deep_model, **{"g.json": deep_cell}),
             check=lambda tmp: None if "both refuse: model" in open(os.path.join(tmp, "r", "results.jsonl")).read()
             else "the cell is not judged as both refusing the model"))
    # 2, 3: an output never lands on an input of its run, nor follows a link planted beside it.
    raw3 = {"x.yuv": b"\1" * 4608 * 3, "y.yuv": b"\2" * 4608 * 3}
    def inputs_untouched(tmp):
        return untouched(tmp, "x.yuv", raw3["x.yuv"]) or untouched(tmp, "y.yuv", raw3["y.yuv"])
    score_pair = ["score", "-r", "{tmp}/x.yuv", "-d", "{tmp}/y.yuv", "--feature", "psnr", "-q"] + raw64
    for what, target in (("the reference", "{tmp}/x.yuv"), ("the distorted clip", "{tmp}/y.yuv"),
                         ("a link to the reference", "{tmp}/l.xml")):
        add(Case(f"score -o naming {what}", score_pair + ["-o", target], 2, "an input of this run", files=raw3,
                 setup=lambda tmp: os.symlink(os.path.join(tmp, "x.yuv"), os.path.join(tmp, "l.xml")), check=inputs_untouched))
    model_text = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "extractors", "vmaf", "models",
                                   "vmaf_v0.6.1.json"), "rb").read()
    add(Case("score -o naming the model file", pair + ["-m", "path={tmp}/m.json", "-o", "{tmp}/m.json"], 2, "an input of this run",
             files={"m.json": model_text}, check=lambda tmp: untouched(tmp, "m.json", model_text)))
    add(Case("bench --json naming the distorted clip", ["bench", "--from-file", "{tmp}/x.yuv", "--distorted", "{tmp}/y.yuv",
                                                        "--sizes", "64x48", "--bitdepth", "8", "--chroma", "420", "--feature", "psnr",
                                                        "--backends", "cpu", "--reps", "1", "--json", "{tmp}/y.yuv"], 2,
             "this run reads", files=raw3, check=inputs_untouched))
    add(Case("score -o with a link planted at its old .part name", ["score", "vector:check_pan64x48", "--json", "{tmp}/o.json"], 0, "",
             setup=lambda tmp: (write(tmp, "outside.txt", "keep\n"),
                                os.symlink(os.path.join(tmp, "outside.txt"), os.path.join(tmp, "o.json.part"))),
             check=lambda tmp: untouched(tmp, "outside.txt", b"keep\n") or regular(tmp, "o.json")))
    add(Case("gate with a link planted at summary.json.part", GATE + ["--report-dir", "{tmp}/r"], 0, "1 passed, 0 failed",
             setup=lambda tmp: (os.makedirs(os.path.join(tmp, "r")), write(tmp, "outside.txt", "keep\n"),
                                os.symlink(os.path.join(tmp, "outside.txt"), os.path.join(tmp, "r", "summary.json.part"))),
             check=lambda tmp: untouched(tmp, "outside.txt", b"keep\n") or regular(tmp, "r/summary.json")))
    # 4: models whose numbers give nan or inf: refused before a frame, or at the frame, never exit 0.
    add(Case("model with gamma -1000", pair + ["-m", "path={tmp}/m.json"], 2, "must not be negative",
             files={"m.json": model().replace("gamma 0.04", "gamma -1000")}))
    add(Case("model with knots at +-1e308", pair + ["-m", "path={tmp}/m.json"], 2, "further apart than a double holds",
             files={"m.json": model(score_transform={"enabled": True, "knots": [[-1e308, 0], [1e308, 100]]})}))
    add(Case("model whose prediction overflows", pair + ["-m", "path={tmp}/m.json"], 2, "the vmaf of frame 0 is inf",
             files={"m.json": model(sv="1e308 1:0.5\n").replace("rho 1", "rho -1e308")}))
    # 6, 7: a feature listed six times; a model file of 500 MB refused before it is read.
    adm2 = "VMAF_integer_feature_adm2_score"
    add(Case("model listing one feature six times", pair + ["-m", "path={tmp}/m.json"], 2, "listed twice",
             files={"m.json": model(feature_names=[adm2] * 6, slopes=[1] * 7, intercepts=[0] * 7)}))
    add(Case("model file of 500 MB", pair + ["-m", "path={tmp}/m.json"], 2, "larger than the 67108864 bytes allowed",
             setup=lambda tmp: sparse(tmp, "m.json", 500 << 20), timeout=10))
    # 8: what was silently wrong.
    add(Case("vector:pan576~ (no distortion named)", ["score", "vector:pan576~", "-q"], 2, "a pair is VECTOR~DISTORTION"))
    add(Case("vector:~noise4 (no vector named)", ["score", "vector:~noise4", "-q"], 2, "a pair is VECTOR~DISTORTION"))
    add(Case("--no_prediction --feature vmaf", ["score", "vector:flash64~noise4", "--no_prediction", "--feature", "vmaf", "-q"], 2,
             "contradict each other"))
    def provenance_has_pair(tmp):
        doc = json.load(open(os.path.join(tmp, "o.json")))
        got = doc["twinproof"].get("distorted")
        return None if got == "flash64~noise4" else f"the document's provenance names the distorted clip {got!r}"
    add(Case("a vector pair's provenance names its distorted clip", ["score", "vector:flash64~noise4", "--feature", "psnr",
                                                                      "--json", "{tmp}/o.json", "-q"], 0, "", check=provenance_has_pair))
    # 9: concurrent runs onto one output each write it whole, none fails for another's temporary file.
    def concurrent_outputs(tmp):
        procs = [subprocess.Popen([BIN, "score", "vector:check_pan64x48", "--json", os.path.join(tmp, "o.json"), "-q"], env=ENV,
                                  cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in range(16)]
        failed = [p.communicate(timeout=120)[1].decode(errors="replace") for p in procs if p.wait(timeout=120) != 0]
        if failed:
            return f"{len(failed)} of 16 concurrent runs failed: {failed[0][-300:]}"
        json.load(open(os.path.join(tmp, "o.json")))
        leftovers = [n for n in os.listdir(tmp) if n.startswith(".o.json")]
        return f"temporary files left: {leftovers}" if leftovers else None
    add(Case("16 concurrent score runs onto one -o", ["score", "vector:check_pan64x48", "--json", "{tmp}/o.json", "-q"], 0, "",
             check=concurrent_outputs, timeout=120))
    # 10: exec-self runs its program in a folder of its own: a relative model path still names the file.
    add(Case("score --backend exec-self with a relative -m path=", ["score", "vector:odd175_420~noise4", "-q", "--backend", "exec-self",
                                                                    "-m", "path=m.json"], 0, "",
             files={"m.json": model_text}, timeout=120))
    # 11: control bytes in file names are escaped in score's and bench's headers.
    y4m_64 = b"YUV4MPEG2 W64 H48 F25:1 C420jpeg\n" + (b"FRAME\n" + b"\x10" * 4608) * 3
    add(Case("score header with an escape in the file name", ["score", "{tmp}/a\x1b[2Jb.y4m", "--feature", "psnr"], 0, "\\x1b[2Jb",
             files={"a\x1b[2Jb.y4m": y4m_64}, absent="\x1b"))
    # Round four (this milestone's surfaces: models, feature options through models, twins files):
    # what it found, each answered with one line.
    def shipped_model(**over):
        d = json.loads(model_text)
        d["model_dict"].update(over)
        return json.dumps(d)
    add(Case("model whose pooled mean overflows (score_clip at 1.7e308)", pair + ["-m", "path={tmp}/m.json"], 2,
             "the vmaf_mean of frame 1 is inf", files={"m.json": shipped_model(score_clip=[1.7e308, 1.7e308])}))
    add(Case("model feature option out of range names the model's field", pair + ["-m", "path={tmp}/m.json"], 2,
             "m.json: model_dict.feature_opts_dicts[0].adm_enhn_gain_limit = -1: ",
             files={"m.json": shipped_model(feature_opts_dicts=[{"adm_enhn_gain_limit": "-1"}, {}, {}, {}, {}, {}])},
             absent="odd175_420"))
    add(Case("model refusal names the model, not the clip", pair + ["-m", "path={tmp}/m.json"], 2,
             "m.json: model_dict.score_clip[0] = \"nan\": expected a number",
             files={"m.json": shipped_model(score_clip=["nan", 100])}, absent="odd175_420"))
    nan_twin = {"schema": 1, "twins": [{
        "name": "nan-twin", "features": ["float_motion"], "summary": "s", "executable": {"program": "sh"},
        "command": ["{exe}", "-c", "printf 'Frame,motion,motion2,motion3,\\n0,nan,nan,nan,\\n1,nan,nan,nan,\\n2,nan,nan,nan,\\n' > \"$1\"", "{input}", "{output}"],
        "options": "none", "input": "y4m", "output": {"format": "csv", "from": "file"}, "metrics": "twinproof", "timeout_s": 20}]}
    add(Case("score --backend of an exec twin that prints nan", ["--twins", "{tmp}/t.json", "score", "vector:check_pan64x48",
                                                                  "--feature", "float_motion", "--backend", "nan-twin", "-q", "--json",
                                                                  "{tmp}/o.json"], 2, "not a finite number: nothing is written",
             files={"t.json": json.dumps(nan_twin)}, check=no_file("o.json")))
    ctl_twin = json.loads(json.dumps(nan_twin))
    ctl_twin["twins"][0].update(name="ctl-twin", summary="x\u001b[31mRED\u0007")
    add(Case("backends prints a twin's summary with its control bytes escaped", ["--twins", "{tmp}/t.json", "backends"], 0,
             "x\\x1b[31mRED\\x07", files={"t.json": json.dumps(ctl_twin)}, absent="\x1b"))
    folder_twin = json.loads(json.dumps(nan_twin))
    folder_twin["twins"][0].update(name="folder-twin", executable={"program": "/tmp"})
    add(Case("an exec twin whose program is a folder is not available", ["--twins", "{tmp}/t.json", "backends"], 0,
             "/tmp: not an executable file", files={"t.json": json.dumps(folder_twin)}))
    dup_twin = json.loads(json.dumps(nan_twin))
    dup_twin["twins"][0].update(name="dup-twin", features=["float_motion", "float_motion"])
    add(Case("a twin listing a feature twice", ["--twins", "{tmp}/t.json", "backends"], 2, "twins[0].features[1] '\"float_motion\"': listed twice",
             files={"t.json": json.dumps(dup_twin)}))
    add(Case("bench header with an escape in the file name", ["bench", "--from-file", "{tmp}/a\x1b[2Jb.y4m", "--feature", "psnr",
                                                              "--backends", "cpu", "--reps", "1"], 0, "\\x1b[2Jb",
             files={"a\x1b[2Jb.y4m": y4m_64}, absent="\x1b", timeout=120))
    return out


def sanitizer_build():
    """AddressSanitizer reserves terabytes of address space: an RLIMIT_AS case cannot run under it."""
    libs = subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout
    return "a sanitizer build" if "libasan" in libs or "libubsan" in libs else None


def write(tmp, rel, data):
    path = os.path.join(tmp, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def sparse(tmp, rel, size):
    with open(os.path.join(tmp, rel), "wb") as f:
        f.truncate(size)


def run_check(tmp, args, rc):
    p = subprocess.run([BIN] + args, capture_output=True, timeout=60, env=ENV, cwd=tmp)
    return None if p.returncode == rc else f"{' '.join(args)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}"


# ---------------------------------------------------------------------------------------------

def run_case(case, tmp):
    for rel, data in case.files.items():
        write(tmp, rel, data(tmp) if callable(data) else data)
    if case.setup:
        case.setup(tmp)
    env = dict(ENV)
    if case.data_root:
        data = os.path.join(tmp, "data")
        for part in ("ci", "goldens", "vectors"):
            if not os.path.exists(os.path.join(data, part)):
                shutil.copytree(os.path.join(SOURCE, part), os.path.join(data, part), dirs_exist_ok=True)
        env["TWINPROOF_DATA"] = data
    for k, v in case.env.items():
        env[k] = v.replace("{tmp}", tmp)
    args = [BIN] + [a.replace("{tmp}", tmp).replace("{sweep}", os.path.join(SOURCE, "ci", "matrices", "sweep.json"))
                    .replace("{small}", os.path.join(ROOT_TMP, "small-matrix.json"))
                    for a in case.args]
    stdout = subprocess.PIPE
    close_fds = ()
    if case.stdout == "closed":
        stdout = subprocess.DEVNULL  # replaced below: the child's fd 1 is closed before exec
    elif case.stdout:
        stdout = open(case.stdout, "wb")
    def preexec():
        if case.stdout == "closed":
            os.close(1)
        if case.address_space:
            resource.setrlimit(resource.RLIMIT_AS, (case.address_space, case.address_space))
    start = time.monotonic()
    try:
        if case.signal_after:
            proc = subprocess.Popen(args, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env,
                                    preexec_fn=preexec, cwd=tmp)
            for delay, sig in case.signal_after:
                if callable(delay):  # a condition on the case's folder, polled until it holds
                    deadline = time.monotonic() + case.timeout
                    while not delay(tmp) and proc.poll() is None and time.monotonic() < deadline:
                        time.sleep(0.05)
                else:
                    time.sleep(delay)
                proc.send_signal(sig)
            o, e = proc.communicate(timeout=case.timeout)
            p = subprocess.CompletedProcess(args, proc.returncode, o, e)
        else:
            p = subprocess.run(args, stdout=stdout, stderr=subprocess.PIPE, timeout=case.timeout, env=env, preexec_fn=preexec, cwd=tmp,
                               **({"input": case.stdin} if case.stdin is not None else {"stdin": subprocess.DEVNULL}))
    except subprocess.TimeoutExpired:
        return f"hung: no answer within {case.timeout}s"
    finally:
        for fd in HELD:
            os.close(fd)
        HELD.clear()
    seconds = time.monotonic() - start
    out = (p.stdout or b"").decode(errors="replace") if stdout == subprocess.PIPE else ""
    err = p.stderr.decode(errors="replace")
    text = out + err
    if case.killed_by is not None:
        if p.returncode != -case.killed_by:
            return f"exit {p.returncode}, expected death by signal {case.killed_by}: {text[-400:]}"
        return case.check(tmp) if case.check else None
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}: {err[-400:]}"
    for mark in CRASH_MARKS:
        if mark in text and mark not in case.allowed_marks:
            return f"crash marker {mark!r}: {text[-600:]}"
    if p.returncode != case.rc:
        return f"exit {p.returncode}, expected {case.rc}: {text[-600:]}"
    if case.message.replace("{tmp}", tmp) not in text:
        return f"message lacks {case.message!r}: {text[-600:]}"
    if case.absent is not None and case.absent in text:
        return f"the output holds {case.absent!r}: {text[-600:]}"
    if case.check:
        problem = case.check(tmp)
        if problem:
            return problem
    return None


def main():
    global BIN, SOURCE, ENV, ROOT_TMP
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    BIN, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = sys.argv[sys.argv.index("--filter") + 1] if "--filter" in sys.argv else None
    all_cases = cases()
    if "--list" in sys.argv:
        for c in all_cases:
            print(c.name.replace("\n", "\\n"))
        return 0
    ENV = {k: v for k, v in os.environ.items() if k not in ("TWINPROOF_DATA", "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS")}
    ENV["TWINPROOF_DATA"] = SOURCE
    ENV.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    root = tempfile.mkdtemp(prefix="twinproof-corpus-")
    ROOT_TMP = root
    failures = []
    try:
        with open(os.path.join(root, "small-matrix.json"), "w") as f:
            f.write(matrix(name="small"))
        # The reference bundle every bundle case starts from.
        bundle = os.path.join(root, "bundle")
        p = subprocess.run([BIN, "repro", CELL, "--bundle", bundle], capture_output=True, env=ENV, timeout=120, cwd=root)
        if p.returncode != 0:
            print(f"corpus: cannot write the reference bundle: {p.stderr.decode(errors='replace')}", file=sys.stderr)
            return 1
        ran = 0
        for i, case in enumerate(all_cases):
            if only and only not in case.name:
                continue
            reason = case.unless() if case.unless else None
            if reason:
                print(f"skip {case.name}: {reason}")
                continue
            tmp = os.path.join(root, f"case{i}")
            os.makedirs(tmp)
            began = time.monotonic()
            problem = run_case(case, tmp)
            took = time.monotonic() - began
            ran += 1
            name = case.name.replace("\n", "\\n").replace("\r", "\\r").replace("\x1b", "\\x1b")
            if problem:
                failures.append(name)
                print(f"FAIL {name} ({took:.1f}s): {problem}")
            else:
                print(f"ok   {name} ({took:.1f}s)")
            shutil.rmtree(tmp, ignore_errors=True)
        print(f"corpus: {ran} cases, {ran - len(failures)} answered as expected, {len(failures)} not")
        if ran == 0:
            print("corpus: no case ran", file=sys.stderr)
            return 2
        return 1 if failures else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
