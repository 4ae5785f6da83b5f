#!/bin/sh
# SPDX-License-Identifier: MIT
# Comments and documents that point somewhere point to a file that exists:
# every path of the tree's own folders (docs/SPEC.md, common/fileio.h, ...)
# named in a source, build file, test or document is there in the source
# tree. A system header (<avr/io.h>) or a path inside another tree
# ($root/common/...) is not one of ours and is left alone; a file the
# build generates is looked for in the build folder.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
. "$srcdir/tests/tap_lib.sh"
tap_abs srcdir top_builddir
cd "$srcdir" || exit 99
dirs="docs|tools|tests|ref|opt|bench|challenge|8051|avr|cortexm|include|kat|fuzz|python|build-aux|common|man|examples|host"
exts="c|h|md|sh|py|am|S|1|3|json|txt|def|ld|cff|toml|yml"
# the files to read: git's list in a clone, else every regular text file
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    files=$(git ls-files)
else
    files=$(find . -type f \( -name '*.[chS13]' -o -name '*.md' -o -name '*.sh' -o -name '*.am' \
        -o -name '*.py' -o -name '*.ac' \) ! -path './pqclean*' ! -path './_build/*' |
        sed 's|^\./||')
fi
targets=$(find . -name '*.am' ! -path './pqclean*' ! -path './_build/*' -exec \
    sed -n 's/^\([A-Za-z0-9_./-]*\):.*/\1/p' {} + | sort -u)
missing=""
n=0
for f in $files; do
    case $f in kat/PQC*|fuzz/corpus/*|docs/calibration*|*.png|*.svg|*.pdf) continue ;; esac
    [ -f "$f" ] || continue
    refs=$(grep -ohE "(^|[^A-Za-z0-9_/<>\$.-])($dirs)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.($exts)\b" "$f" 2>/dev/null |
        sed -E 's/^[^A-Za-z0-9]//' | sort -u)
    for r in $refs; do
        case $r in *-M-N*|*MN*|*NAME*) continue ;; esac # a pattern, not a file
        n=$((n + 1))
        # a file of the sources, or one the build makes (8051/card_tables.h:
        # a rule's target in the .am files, whether or not this build
        # configured it)
        [ -e "$r" ] || [ -e "$top_builddir/$r" ] || printf '%s\n' "$targets" | grep -qxF "$r" ||
            missing="$missing $f:$r"
    done
done
[ -z "$missing" ]
check $? "the $n paths of the tree named in its files exist${missing:+ (missing:$missing)}"
tap_end
