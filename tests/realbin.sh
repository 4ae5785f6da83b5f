# SPDX-License-Identifier: MIT
# Sourced by tests/tap_lib.sh and tests/card_lib.sh.
# tap_real VAR...: each VAR naming a libtool wrapper script of the build
# tree is set to the program it runs (DIR/.libs/NAME, an absolute path),
# with the build's libraries ($top_builddir/.libs) in LD_LIBRARY_PATH: the
# same program without a shell script and a relink check before every call
# (a test that calls a tool hundreds of times spends most of its time there
# otherwise). Other programs (static, installed) are kept as they are.
tap_real() {
    for _rb_v in "$@"; do
        eval "_rb_p=\$$_rb_v"
        _rb_d=$(cd "$(dirname "$_rb_p")" 2>/dev/null && pwd) || continue
        _rb_b=$(basename "$_rb_p")
        _rb_l=$(cd "${top_builddir:-.}/.libs" 2>/dev/null && pwd) || continue
        if [ -x "$_rb_d/.libs/$_rb_b" ] && grep -q 'libtool' "$_rb_p" 2>/dev/null; then
            eval "$_rb_v=\$_rb_d/.libs/\$_rb_b"
            case ":${LD_LIBRARY_PATH:-}:" in *":$_rb_l:"*) ;; *)
                LD_LIBRARY_PATH=$_rb_l${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
                export LD_LIBRARY_PATH ;; esac
        fi
    done
}
