#!/usr/bin/env bash
# Host side of the project's Soft-RoCE payload: assembles, from a built tree (mvn package), one staging
# directory that run.sh boots the guest with:
#   STAGE/payload/  this directory's steps.list and step scripts, the smoke's checks.sh (its perftest step),
#                   settings.env, the JUnit console launcher, test-jars/ (one per module with softroce tests)
#   STAGE/lib/      gateway-app.jar and its lib/, each such module's jar and its tests' class path
#   STAGE/native/   every module's target/native/*.so* (JNI libraries)
# A module with tests tagged softroce is one whose build left target/softroce/ (rdma-egress/pom.xml shows the
# three plugin executions that make it: test jar, test class path, console launcher).
# Usage: deploy/softroce/tests/stage.sh [STAGE_DIR]   (default target/softroce-tests; emptied first)
# Environment (written into settings.env for the guest): MDGATE_SOFTROCE_TEST_TIMEOUT (JUnit's default
#   timeout of one test in the guest, "10 m"), MDGATE_SOFTROCE_TEST_JVM_ARGS (extra JVM arguments of the
#   test JVM, which child JVMs started with its input arguments inherit; empty), MDGATE_SOFTROCE_BENCH_SECONDS
#   (VerbsBenchmark --seconds, 10).
set -euo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(cd "$here/../../.." && pwd)
stage=${1:-$root/target/softroce-tests}
test_timeout=${MDGATE_SOFTROCE_TEST_TIMEOUT:-10 m}
bench_seconds=${MDGATE_SOFTROCE_BENCH_SECONDS:-10}

die() { echo "stage: $*" >&2; exit 1; }
[[ $test_timeout =~ ^[1-9][0-9]*\ ?(ms|s|m|h|d)$ ]] || die "MDGATE_SOFTROCE_TEST_TIMEOUT must read like '10 m' or '600 s' (got '$test_timeout')"
[[ $bench_seconds =~ ^[1-9][0-9]*$ ]] || die "MDGATE_SOFTROCE_BENCH_SECONDS must be a positive whole number (got '$bench_seconds')"

app="$root/gateway-app/target"
[[ -f $app/gateway-app.jar && -d $app/lib ]] \
    || die "gateway-app/target/gateway-app.jar or its lib/ is missing: build first (mvn -DskipTests package)"
shopt -s nullglob
modules=()
for dir in "$root"/*/target/softroce; do
    modules+=("$(basename "$(dirname "$(dirname "$dir")")")")
done
((${#modules[@]} > 0)) \
    || die "no module has target/softroce/ (test jar, console launcher, test class path): build first (mvn -DskipTests package)"

rm -rf "$stage"
mkdir -p "$stage/payload/test-jars" "$stage/lib" "$stage/native"
install -m 0644 "$here/steps.list" "$stage/payload/steps.list"
install -m 0755 "$here/junit.sh" "$here/verbs-bench.sh" "$here/ratios.sh" "$stage/payload/"
install -m 0755 "$here/../smoke/checks.sh" "$stage/payload/smoke-checks.sh"
{
    echo "# written by stage.sh on the host"
    printf 'JUNIT_TEST_TIMEOUT=%q\n' "$test_timeout"
    printf 'JUNIT_JVM_ARGS=%q\n' "${MDGATE_SOFTROCE_TEST_JVM_ARGS:-}"
    printf 'VERBS_BENCH_SECONDS=%q\n' "$bench_seconds"
} >"$stage/payload/settings.env"

cp "$app/gateway-app.jar" "$app"/lib/*.jar "$stage/lib/"
for module in "${modules[@]}"; do
    target="$root/$module/target"
    tests=("$target/$module"-*-tests.jar)
    ((${#tests[@]} == 1)) || die "$module: expected one test jar $module/target/$module-*-tests.jar, found ${#tests[@]}"
    [[ -f $target/softroce/junit-platform-console-standalone.jar ]] \
        || die "$module: target/softroce/junit-platform-console-standalone.jar is missing"
    cp "${tests[0]}" "$stage/payload/test-jars/"
    cp "$target/softroce/junit-platform-console-standalone.jar" "$stage/payload/"
    for jar in "$target/$module"-*.jar; do
        [[ $jar == *-tests.jar || $jar == *-sources.jar ]] || cp "$jar" "$stage/lib/"
    done
    cp "$target"/softroce/lib/*.jar "$stage/lib/"
done
for lib in "$root"/*/target/native/*.so*; do
    cp "$lib" "$stage/native/"
done
echo "stage: $stage: test jars of ${modules[*]}, $(find "$stage/lib" -name '*.jar' | wc -l) jars," \
    "$(find "$stage/native" -type f | wc -l) native libraries"
