#!/usr/bin/env bash
# Prints a JDK25_HOME under which Fray 0.9.2's prepare-fray can link its instrumented JDK from a
# JDK 25 that has no jmods/ (Temurin 25: "Linking from run-time image enabled", JEP 493).
#
# Fray runs `$JDK25_HOME/bin/jlink --module-path=$JDK25_HOME/jmods --add-modules=ALL-MODULE-PATH
# ... --fray-instrumentation`. Without jmods/ that fails ("No module found in module path
# '.../jmods' with --add-modules ALL-MODULE-PATH"). The directory made here is the real JDK
# (symlinks) with an empty jmods/ and a bin/jlink that names the run-time image's modules
# instead of ALL-MODULE-PATH, less jdk.jlink and jdk.jpackage, which a run-time-image link may
# not contain ("This JDK does not contain packaged modules and cannot be used to create another
# image with the jdk.jlink module"). Usage:
#   JDK25_HOME=$(conformance/tools/jdk25-for-fray.sh) mvn -pl ozone test -Pfray
set -euo pipefail
jdk=${1:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=${2:-$(cd "$(dirname "$0")/.." && pwd)/target/jdk25-for-fray}
[ -x "$jdk/bin/jlink" ] || { echo "no jlink in $jdk" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/bin" "$out/jmods"
for f in "$jdk"/*; do
  [ "$(basename "$f")" = bin ] || ln -s "$f" "$out/$(basename "$f")"
done
for f in "$jdk"/bin/*; do
  [ "$(basename "$f")" = jlink ] || ln -s "$f" "$out/bin/$(basename "$f")"
done
# Fray instruments every class of the modules linked (about 25 CPU-seconds for all of them, on
# every machine the gate runs on): the JDK's development tools, which no test JVM loads (the
# compiler, javadoc, jshell, jdeps, jconsole, the debugger and the serviceability agent, their
# console library, the locale data beyond java.base's, the incubating vector API), are a quarter
# of the JDK's classes and are left out.
tools='jdk.jlink|jdk.jpackage|jdk.compiler|jdk.javadoc|jdk.jshell|jdk.jdeps|jdk.jconsole|jdk.jdi|jdk.hotspot.agent|jdk.internal.le|jdk.internal.md|jdk.localedata|jdk.incubator.vector'
mods=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -Evx "$tools" | paste -sd, -)
cat > "$out/bin/jlink" <<WRAPPER
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  if [ "\$a" = --add-modules=ALL-MODULE-PATH ]; then
    args+=("--add-modules=$mods")
  else
    args+=("\$a")
  fi
done
exec "$jdk/bin/jlink" "\${args[@]}"
WRAPPER
chmod +x "$out/bin/jlink"
echo "$out"
