#!/usr/bin/env bash
# Builds the .deb (CPack, ci preset), then proves it on its own: lintian must find no error in it
# (Debian policy: copyright, changelog, manual page, a stripped binary), it is unpacked into a fresh
# root folder, every package it depends on must be installed here, and the installed binary runs
# from there, away from the source tree: it must find its data in ROOT/usr/share/twinproof, take a
# shipped matrix by its bare name and pass `goldens check` of two features. Prints the package's
# path last.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
build=$(bash scripts/build.sh ci)
rm -rf "$build/package"
cpack --config "$build/CPackConfig.cmake" -B "$build/package" >&2
deb=$(ls "$build"/package/twinproof_*.deb)
# Errors fail the package; warnings are printed (lintian exits 0 for them). Run as root here: say so.
lintian --allow-root --fail-on error "$deb" >&2 || { echo "package.sh: lintian found errors in $deb" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
echo "package.sh: $deb: $(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" >&2
# Depends comes from dpkg-shlibdeps: each must be installed on this machine, as apt would ensure.
deps=$(dpkg-deb -f "$deb" Depends)
[[ -n $deps ]] || { echo "package.sh: $deb declares no Depends" >&2; exit 1; }
for dep in $(tr ',' '\n' <<<"$deps" | sed 's/[ (].*//; s/^ *//'); do
  dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q "install ok installed" ||
    { echo "package.sh: Depends names $dep, which is not installed" >&2; exit 1; }
done
for f in usr/bin/twinproof usr/share/twinproof/vectors/manifest.json usr/share/twinproof/ci/calibration.json \
         usr/share/twinproof/ci/matrices/gate.json usr/share/twinproof/goldens/motion/pan576.json; do
  [[ -e $root/$f ]] || { echo "package.sh: the package lacks /$f" >&2; exit 1; }
done
# Run it from an empty folder with no hint of where the data is.
cd "$root"
env -u TWINPROOF_DATA "$root/usr/bin/twinproof" --version >&2
env -u TWINPROOF_DATA "$root/usr/bin/twinproof" features >/dev/null
env -u TWINPROOF_DATA "$root/usr/bin/twinproof" gate --list >/dev/null
# A shipped matrix by its bare name, found in the installed data (not the source tree).
exec_cells=$(env -u TWINPROOF_DATA "$root/usr/bin/twinproof" gate --matrix exec --list)
grep -q '^float_motion/ffmpeg-vmafmotion/' <<<"$exec_cells" ||
  { echo "package.sh: the installed twinproof does not find the matrix 'exec' by its name" >&2; exit 1; }
[[ -s $root/usr/share/man/man1/twinproof.1.gz ]] || { echo "package.sh: the package has no manual page" >&2; exit 1; }
# Two features' goldens prove the installed layout (manifest, vectors, goldens); main.sh checks every
# golden with the build itself.
env -u TWINPROOF_DATA "$root/usr/bin/twinproof" goldens check --feature motion --feature psnr >"$root/goldens.log" ||
  { tail -20 "$root/goldens.log" >&2; echo "package.sh: the installed twinproof failed goldens check" >&2; exit 1; }
echo "package.sh: installed into $root and ran from there: $(tail -1 "$root/goldens.log")" >&2
echo "$deb"
