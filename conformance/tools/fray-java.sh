#!/usr/bin/env bash
# Fray's instrumented JDK, linked once per machine. prepare-fray links <module>/target/fray/fray-java
# from JDK25_HOME, every JDK class instrumented (about 21 s of CPU), unless that directory's
# fray-version file already names its Fray version (FrayWorkspaceInitializer in Fray 0.9.2), so
# every clean clone linked it again. This keeps one link in the tool cache (ci/tools/tool-cache.sh),
# named after the Fray version, the JDK's release file and the modules linked, and points each module's
# target/fray/fray-java (ozone's, hdfs's) at it. Usage (MAVEN OPTIONS: those of the Maven run
# that links, when none is cached, e.g. -o):
#   JDK25_HOME=$(conformance/tools/jdk25-for-fray.sh) && conformance/tools/fray-java.sh "$JDK25_HOME" [MAVEN OPTIONS...]
set -euo pipefail
conformance=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ -f "$1/release" ] || { echo "usage: $0 JDK25_HOME [MAVEN OPTIONS...]" >&2; exit 2; }
jdk25=$1
shift
fray=$(sed -n 's:.*<fray.version>\(.*\)</fray.version>.*:\1:p' "$conformance/ozone/pom.xml" | head -1)
[ -n "$fray" ] || { echo "$conformance/ozone/pom.xml: no <fray.version>" >&2; exit 1; }
. "$conformance/../ci/tools/tool-cache.sh"
# the JDK, and the modules jdk25-for-fray.sh links (its jlink wrapper names them)
cached=$tool_cache/fray-java-$fray-$(cat "$jdk25/release" "$jdk25/bin/jlink" | sha256sum | cut -c1-16)
target=$conformance/ozone/target/fray/fray-java
link_once() {
  # a link to an earlier cache goes first: prepare-fray empties fray-java when it links
  rm -rf "$target"
  JDK25_HOME=$jdk25 mvn -B -q -ntp "$@" -f "$conformance/pom.xml" -pl ozone -Pfray initialize >&2
  cp -a "$target/." "$cached/"
}
install_once "$cached" link_once "$@"
# every module with a fray profile points at the one link (prepare-fray keeps a linked JDK whose
# fray-version file names its Fray version)
for module in ozone hdfs; do
  link=$conformance/$module/target/fray/fray-java
  rm -rf "$link"
  mkdir -p "$(dirname "$link")"
  ln -s "$cached" "$link"
done
