#!/bin/sh
# SPDX-License-Identifier: MIT
# build-aux/pqclean.sh: fetch never removes or writes an existing DEST (a
# folder, a file, a link to a folder), refuses one that is not the package
# as fetched before it calls npm, and takes nothing on trust: verify checks
# a tree's files against the recorded digest, and a folder holding two empty
# files with the right names is refused. npm is replaced by a stub that
# records its calls and makes a tarball of the wrong bytes, so nothing here
# needs the network; the fetched tree itself, where the build has one, is
# verified and a copy with one byte changed refused.
set -u
: "${top_builddir:=.}" "${srcdir:=.}"
. "$srcdir/tests/tap_lib.sh"
tap_abs srcdir top_builddir
P=$srcdir/build-aux/pqclean.sh
tap_enter
mkdir bin
cat >bin/npm <<'EOT'
#!/bin/sh
echo "$*" >>"$NPM_LOG"
mkdir -p p/package && echo junk >p/package/x && tar -czf pqclean-0.8.1.tgz -C p package
EOT
chmod +x bin/npm
export NPM_LOG="$(pwd)/npm.log"
: >"$NPM_LOG"
fetch() { PATH="$(pwd)/bin:$PATH" sh "$P" fetch "$@"; }
npm_called() { [ -s "$NPM_LOG" ]; }

mkdir src && echo mine >src/notes.txt
run 2 "fetch into an existing folder of other files: refused (exit 2)" fetch src
[ "$(cat src/notes.txt 2>/dev/null)" = mine ] && ! npm_called
check $? "... the folder and its file kept, npm not called"
grep -q "nothing was changed" err
check $? "... the refusal says nothing was changed"

echo data >afile
run 2 "fetch onto an existing file: refused" fetch afile
[ "$(cat afile)" = data ]
check $? "... the file kept"

mkdir target && echo kept >target/f && ln -s target link
run 2 "fetch link/ (a link to a folder): refused" fetch link/
[ "$(cat target/f 2>/dev/null)" = kept ] && [ -L link ]
check $? "... the folder the link points to and the link kept"

mkdir -p fake/deps/PQClean/crypto_sign/ml-dsa-44/clean fake/deps/PQClean/common
: >fake/deps/PQClean/crypto_sign/ml-dsa-44/clean/api.h
: >fake/deps/PQClean/common/fips202.c
run 2 "a folder of two empty files with the right names is not taken as the package" fetch fake
grep -q "not pqclean" err
check $? "... and the refusal says so"
run 1 "verify refuses that folder" sh "$P" verify fake
! npm_called
check $? "npm was called by none of the refusals"

run 1 "fetch into a new folder: a tarball of other bytes is refused (SHA-512)" fetch new
grep -q "SHA-512" err && [ ! -e new ]
check $? "... and nothing is left at DEST"
run 2 "fetch with two folders: usage error" fetch a b
run 2 "no subcommand: usage error" sh "$P"

real=""
for d in "$top_builddir/pqclean-0.8.1" "$srcdir/pqclean-0.8.1"; do
    [ -d "$d" ] && { real=$d; break; }
done
if [ -n "$real" ] && sh "$P" root "$real" >/dev/null 2>&1; then
    run 0 "verify: the fetched tree equals the recorded digest" sh "$P" verify "$real"
    : >"$NPM_LOG"
    run 0 "fetch onto the fetched tree: kept, its files checked" fetch "$real"
    ! npm_called
    check $? "... without npm"
    r=$(sh "$P" root "$real")
    mkdir copy && cp -R "$r" copy/PQClean
    c=copy/PQClean/crypto_sign/ml-dsa-44/clean/sign.c
    run 0 "verify: a copy of the tree is equal" sh "$P" verify copy/PQClean
    flip "$c" 100
    run 1 "verify: the copy with one byte of sign.c changed is refused" sh "$P" verify copy/PQClean
    flip "$c" 100
    echo "int x;" >copy/PQClean/common/extra.c
    run 1 "verify: the copy with a file added to common/ is refused" sh "$P" verify copy/PQClean
else
    skip "verify on the fetched tree" "no pqclean-0.8.1 here (sh build-aux/pqclean.sh fetch)"
fi
echo "1..$t"
exit $fail
