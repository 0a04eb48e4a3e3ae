#!/usr/bin/env bash
# SEBO Explorer — set up, build, and run. Debian 12, as root or with sudo.
#
#   ./run.sh gui    install what is missing, build, open the GUI on the bundled example
#   ./run.sh test   install what is missing, build (warnings as errors), run the whole test suite
#   ./run.sh build  install what is missing and build only
#
# Environment: BUILD_DIR (default: build), JOBS (default: number of cores).
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-}
case "$mode" in
  gui|test|build) shift ;;
  *) echo "usage: ./run.sh gui|test|build" >&2; exit 2 ;;
esac

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
PACKAGES=(g++ cmake ninja-build qt6-base-dev libqt6opengl6-dev qt6-charts-dev libeigen3-dev libboost-dev
          liblbfgspp-dev nlohmann-json3-dev qt6-svg-dev libnlopt-cxx-dev libsqlite3-dev)
[ "$mode" = gui ] && PACKAGES+=(fonts-dejavu-core)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  # The test command builds with warnings as errors (as CI does); the other modes keep whatever
  # the build folder was configured with, so switching between them does not rebuild everything.
  local flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  [ "$mode" = test ] && flags+=(-DSEBO_WERROR=ON)
  # Rebuilds of other checkouts are much faster with ccache, when it is installed (not required).
  command -v ccache >/dev/null && flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$BUILD_DIR" -G Ninja "${flags[@]}"
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

started=$SECONDS
install_missing
build
built=$SECONDS

case "$mode" in
  test)
    export QT_QPA_PLATFORM=offscreen
    status=0
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" "$@" || status=$?
    echo "== ./run.sh test: set-up and build $((built - started)) s, tests $((SECONDS - built)) s, $((SECONDS - started)) s in all"
    exit "$status"
    ;;
  gui)
    example=resources/examples/branin-50d.sebo.json
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open here." >&2
      echo "Options:" >&2
      echo "  - run this on a desktop session, or over 'ssh -X';" >&2
      echo "  - use a virtual display:  apt-get install xvfb && xvfb-run -s '-screen 0 1600x1000x24' $BUILD_DIR/app/sebo-explorer $example" >&2
      echo "  - render a screenshot:    QT_QPA_PLATFORM=offscreen $BUILD_DIR/app/sebo-explorer --screenshot out.png $example" >&2
      echo "  - or use the command line: $BUILD_DIR/app/sebo frontier $example" >&2
      exit 1
    fi
    exec "$BUILD_DIR/app/sebo-explorer" "$example" "$@"
    ;;
esac
