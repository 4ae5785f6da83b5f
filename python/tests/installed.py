# SPDX-License-Identifier: MIT
"""The package as pip installed it (run by tests/test_python.sh with the
virtual environment's python, outside the source tree): imported from the
environment, its metadata's version the library's, and the wheel's files
(py.typed, the licence) in place. Argument: the tree's LICENSE."""
import importlib.metadata as md
import sys

import libtts

with open(sys.argv[1], "rb") as f:
    licence = f.read()
dist = md.distribution("libtts")
files = {str(f): f for f in dist.files or []}
problems = []
if not libtts.__file__.startswith(sys.prefix):
    problems.append("libtts imported from %s, not from %s" % (libtts.__file__, sys.prefix))
if dist.version != libtts.__version__:
    problems.append("installed as %s, library %s" % (dist.version, libtts.__version__))
if "libtts/py.typed" not in files:
    problems.append("no libtts/py.typed")
lic = [f for name, f in files.items() if ".dist-info/" in name and "LICENSE" in name]
if not lic or lic[0].read_binary() != licence:
    problems.append("no LICENSE equal to the tree's in the dist-info (%s)" % sorted(files))
p = libtts.params("TTS(20,28)")
pk, sk = libtts.keypair(p)
if not libtts.verify(p, pk, b"m", libtts.sign(p, sk, b"m")):
    problems.append("a signature made by the installed package does not verify")
print("\n".join(problems))
sys.exit(1 if problems else 0)
