#!/usr/bin/env bash
# The real-code checks need a JDK 17 and Maven (conformance/). The machine image has them; a
# machine without them gets Debian's packages here, so that a missing JVM is installed, not
# skipped (under CI=true the gate fails without one).
set -euo pipefail
if command -v java >/dev/null && command -v mvn >/dev/null; then
  exit 0
fi
echo "ensure-jvm: installing openjdk-17-jdk-headless and maven (Debian's packages)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq openjdk-17-jdk-headless maven >/dev/null
java -version
mvn -v | head -1
