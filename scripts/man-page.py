#!/usr/bin/env python3
"""Writes twinproof's manual page (roff) from the binary's own --help pages, so that the page
says what the program does and cannot drift from it: the summary, the global options, every
command (and the commands under it) with its options, and the exit status every help page
states. The build runs it on the binary it made; the package installs the page.

usage: man-page.py TWINPROOF OUT.1 VERSION
"""
import re
import subprocess
import sys

ENVIRONMENT = [
    ("TWINPROOF_DATA", "The folder holding vectors/, goldens/ and ci/ (default: found beside the binary, or PREFIX/share/twinproof)."),
    ("TWINPROOF_CACHE", "Where decoded real-content vectors are kept (default: $XDG_CACHE_HOME/twinproof or ~/.cache/twinproof)."),
    ("TWINPROOF_VMAF", "The vmaf tool the vmaf exec twins run (as --vmaf)."),
    ("TWINPROOF_VMAF_CUDA", "A vmaf tool built with CUDA, for the vmaf-cuda exec twin (as --vmaf-cuda)."),
    ("TWINPROOF_LIBVMAF_DRIVER", "twinproof's libvmaf driver, for the libvmaf exec twins (as --libvmaf-driver)."),
    ("TWINPROOF_PLUGINS", "Plugin twin libraries to load, separated by ':' (as --plugin)."),
]


def roff(text):
    """Text as roff: backslashes escaped, hyphens as \\-, no line starting with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def help_of(binary, words):
    p = subprocess.run([binary] + words + ["--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"man-page.py: {' '.join(words)} --help exited {p.returncode}: {p.stderr}")
    return p.stdout


def sections(text):
    """(summary, {section title: [lines]}, footer) of a CLI11 help page."""
    lines = text.rstrip("\n").split("\n")
    summary = lines[0]
    found, current, footer = {}, None, ""
    for line in lines[1:]:
        if line.startswith("Exit status:"):
            footer = line
            current = None
        elif re.match(r"^[A-Z][a-z]+:$", line):
            current = line[:-1]
            found[current] = []
        elif current is not None and line.strip():
            found[current].append(line)
    return summary, found, footer


def items(lines):
    """Option or command lines as (name, description): a description may continue on deeper lines."""
    out = []
    for line in lines:
        m = re.match(r"^  (\S.*?)(?: {2,}(\S.*))?$", line)
        if line.startswith("    ") and out:
            name, desc = out[-1]
            out[-1] = (name, (desc + " " + line.strip()).strip())
        elif m:
            out.append((m.group(1).strip(), (m.group(2) or "").strip()))
    return [(n, d) for n, d in out if n not in ("-h,--help", "--help")]


def describe(binary, words, page, depth):
    summary, found, _ = sections(help_of(binary, words))
    page.append(f".SS {roff(' '.join(words))}" if depth == 1 else f".TP\n.B {roff(' '.join(words))}")
    page.append(roff(summary))
    for title in ("Positionals", "Options"):
        for name, desc in items(found.get(title, [])):
            page += [".TP", f".B {roff(name)}", roff(desc)]
    for name, _ in items(found.get("Subcommands", [])):
        describe(binary, words + [name], page, depth + 1)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, out, version = sys.argv[1:]
    summary, found, footer = sections(help_of(binary, []))
    page = [f'.TH TWINPROOF 1 "" "twinproof {roff(version)}" "User Commands"',
            ".SH NAME", f"twinproof \\- {roff(summary.split(': ', 1)[-1])}",
            ".SH SYNOPSIS", ".B twinproof", "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]",
            ".SH DESCRIPTION", roff("twinproof " + summary.split(": ", 1)[-1] + "."),
            "Each command below lists its options; \\fBtwinproof\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints the same.",
            ".SH OPTIONS"]
    for name, desc in items(found.get("Options", [])):
        page += [".TP", f".B {roff(name)}", roff(desc)]
    page.append(".SH COMMANDS")
    for name, _ in items(found.get("Subcommands", [])):
        describe(binary, [name], page, 1)
    page += [".SH EXIT STATUS", roff(footer.removeprefix("Exit status: ")), ".SH ENVIRONMENT"]
    for name, desc in ENVIRONMENT:
        page += [".TP", f".B {name}", roff(desc)]
    page += [".SH FILES", ".TP", ".I /usr/share/twinproof",
             roff("The shipped matrices, calibration table, twins files, goldens and vector manifest."),
             ".SH SEE ALSO", roff("/usr/share/doc/twinproof/README.md with each feature's contract beside it, and one page per topic in /usr/share/doc/twinproof/docs/.")]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
