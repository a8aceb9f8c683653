#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Packs what the GPU checks need into one folder for a GPU machine that has neither a JDK nor Maven
# (docs/gpu.md): a jlink-ed Java runtime (compressed, without the CDS archives, libjvm stripped:
# about 43 MB), jccl's jars, core's test classes and the JUnit console launcher. Run `mvn -B package
# -DskipTests` and `mvn -B test-compile` first; then copy the folder over and run bench/gpu/checks.sh
# (copied into it) there.
#   bench/gpu/bundle.sh [OUTPUT]        (default: target/gpu-bundle)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/target/gpu-bundle}"
version=0.1.0-SNAPSHOT
junit=1.11.4
assertj=3.27.3

jdk=""
for j in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [[ -n "$j" && -x "$j/bin/jlink" ]] || continue
    v="$("$j/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
    if [[ "${v%%.*}" =~ ^[0-9]+$ && "${v%%.*}" -ge 22 ]]; then jdk="$j"; break; fi
done
[[ -n "$jdk" ]] || { echo "bundle.sh: no JDK >= 22 with jlink found (set JAVA_HOME)" >&2; exit 1; }
for f in bindings/target/jccl-bindings-$version.jar kernels-ptx/target/jccl-kernels-$version.jar \
         core/target/jccl-core-$version.jar bench/target/jccl-bench-$version.jar core/target/test-classes; do
    [[ -e "$root/$f" ]] || { echo "bundle.sh: $f is missing: run mvn -B package -DskipTests && mvn -B test-compile" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/lib"
"$jdk/bin/jlink" --add-modules java.base,java.logging,java.xml,java.management,java.instrument,jdk.unsupported,jdk.management \
    --strip-debug --compress=zip-9 --no-header-files --no-man-pages --output "$out/jdk"
rm -f "$out"/jdk/lib/server/*.jsa
strip --strip-unneeded "$out/jdk/lib/server/libjvm.so" 2>/dev/null || true
cp "$root"/{bindings/target/jccl-bindings,kernels-ptx/target/jccl-kernels,core/target/jccl-core,bench/target/jccl-bench}-$version.jar "$out/lib/"
(cd "$root/core/target/test-classes" && zip -q -r "$out/lib/core-tests.zip" .)
(cd "$root" && mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$junit \
    -DoutputDirectory="$out/lib" && mvn -B -q dependency:copy -Dartifact=org.assertj:assertj-core:$assertj -DoutputDirectory="$out/lib")
cp "$root/bench/gpu/checks.sh" "$out/"
du -sh "$out"
