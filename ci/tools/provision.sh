#!/usr/bin/env bash
# What the gate's later phases download or install, started by .ci/run at its beginning, beside
# the Rust build, which is CPU-bound where these mostly wait on the network and the disk:
#   provision.sh conformance   Debian's eatmydata, Maven's jars and both modules' test classes
#                              (mvn test-compile), Fray's instrumented JDK 25 (linked once per
#                              machine)
#   provision.sh report        Chromium, and the npm and PyPI tools of report.md's render and of
#                              the JIRA round trip (each installed once per machine)
# Each is what the phase itself would do first; a phase that runs without it does it itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
  conformance)
    # fsync made a no-op for the test JVMs (conformance/pom.xml, racelab.preload)
    if [ ! -e /usr/lib/x86_64-linux-gnu/libeatmydata.so ] && command -v apt-get >/dev/null; then
      echo "installing Debian's eatmydata (once)"
      . ci/tools/tool-cache.sh
      apt_install eatmydata
    fi
    (cd conformance && mvn -q -B -ntp -Dstyle.color=never -T 2 test-compile)
    conformance/tools/fray-java.sh "$(conformance/tools/jdk25-for-fray.sh)"
    ;;
  report)
    ci/tools/render-report.sh --install
    ci/tools/jira-roundtrip.sh --install
    ;;
  *)
    echo "usage: $0 conformance|report" >&2
    exit 2
    ;;
esac
