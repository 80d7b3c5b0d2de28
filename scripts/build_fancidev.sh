#!/bin/sh
# Build fancidev/mastermind's optimal solver (its 2012 code, commit 2b52289, MIT licence)
# for side-by-side timing in benchmarks/run.py's optimal group. Nothing of it is copied
# into keypeg: it is built outside the repository and only timed.
#
#   sh scripts/build_fancidev.sh [DIR]        # default DIR: /tmp/fancidev
#   KEYPEG_FANCIDEV=DIR/build/src/mmstrat python benchmarks/run.py optimal
#
# The 2012 sources need three adjustments for a current g++ (none touches the search):
# missing standard headers (passed with -include), no top-level CMakeLists.txt (one is
# written), and one pointer-to-zero comparison in the tree printer (StrategyTree.cpp),
# which g++ 14 rejects; it is rewritten as a comparison with the tree's root. Built with
# -O3 -march=native, its fastest flags here (with its own -msse2 only it is about 1.4x slower).
set -e
DIR=${1:-/tmp/fancidev}
if [ ! -d "$DIR/.git" ]; then
    git clone https://github.com/fancidev/mastermind "$DIR"
fi
cd "$DIR"
git checkout -q 2b52289
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.5)
project(mastermind CXX)
set(CMAKE_CXX_STANDARD 11)
add_subdirectory(lib)
add_subdirectory(src)
CMAKE
sed -i 's/(root > 0)/(root != tree.root())/' lib/StrategyTree.cpp
mkdir -p build
cd build
cmake .. -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="-include limits -include cstdint -include cstring -include algorithm -march=native" >/dev/null
make mmstrat -j2 >/dev/null
echo "built $DIR/build/src/mmstrat"
