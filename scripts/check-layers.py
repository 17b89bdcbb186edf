#!/usr/bin/env python3
"""The layers of the source tree, checked from its includes: a room includes only rooms on a floor
below its own (or itself). Fails, naming the file, its include and both floors, on any include that
runs upward or sideways between rooms of one floor, and on an include of a file that does not exist.

usage: check-layers.py SOURCE_DIR
"""
import os
import re
import sys

# Floors from the bottom up; the rooms of one floor do not include each other. extractors/ is the
# library the harness is built on; every harness room may include it, and it includes no harness
# room.
FLOORS = [
    ["extractors"],
    ["harness/support"],
    ["harness/io"],
    ["harness/vectors"],
    ["harness/calibration"],
    ["harness/scoring"],
    ["harness/goldens"],
    ["harness/report"],
    ["harness/exec", "harness/plugins"],
    ["harness/gate"],
    ["harness/bench"],
    ["harness/cli"],
]
FLOOR_OF = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}
INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:extractors|harness)/[^"]+)"')
SOURCES = (".cpp", ".hpp", ".h", ".c", ".inc", ".cu")


def room_of(path):
    parts = path.split("/")
    if parts[0] == "harness" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0] if parts[0] in ("extractors",) else None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    top = sys.argv[1]
    problems, checked = [], 0
    for base in ("extractors", "harness"):
        for folder, _, files in os.walk(os.path.join(top, base)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), top)
                room = room_of(rel)
                if room is None:
                    continue  # harness/CMakeLists.txt's neighbours: no room
                if room not in FLOOR_OF:
                    problems.append(f"{rel}: room {room} is on no floor of scripts/check-layers.py")
                    continue
                for number, line in enumerate(open(os.path.join(top, rel), errors="replace"), 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    checked += 1
                    target = m.group(1)
                    if not os.path.isfile(os.path.join(top, target)):
                        problems.append(f"{rel}:{number}: includes {target}, which does not exist")
                        continue
                    other = room_of(target)
                    if other is None or other == room:
                        continue
                    if other not in FLOOR_OF:
                        problems.append(f"{rel}:{number}: includes {target} of room {other}, which is on no floor")
                    elif FLOOR_OF[other] >= FLOOR_OF[room]:
                        how = "sideways" if FLOOR_OF[other] == FLOOR_OF[room] else "upward"
                        problems.append(f"{rel}:{number}: includes {target}: {how}, from {room} (floor {FLOOR_OF[room]}) "
                                        f"to {other} (floor {FLOOR_OF[other]})")
    for p in problems:
        print(p)
    print(f"layers: {checked} includes checked, {len(problems)} against the floors")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
