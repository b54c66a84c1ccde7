#!/bin/bash
# Guest step: runs every test class tagged softroce in the payload's test jars (test-jars/, one per module
# with such tests) with the JUnit console launcher, the project's jars ($MDGATE_LIB) and the tests' own
# class path on the JVM's class path, and writes the JUnit XML reports to $MDGATE_RESULTS.
# The class path is the system class path (java -cp), not the launcher's --class-path: tests that start
# child JVMs with java.class.path (rdma-egress's ChildJvm) then hand them everything.
# Exit code: the launcher's (0 all passed, 1 a test failed); a run that found no softroce test fails (2).
# JUNIT_INCLUDE_CLASSNAME (settings.env): a class-name regexp to run only some of them, while working on one.
set -uo pipefail

: "${MDGATE_RESULTS:?} ${MDGATE_PAYLOAD:?} ${MDGATE_LIB:?}"
[[ -f settings.env ]] && source ./settings.env
test_timeout=${JUNIT_TEST_TIMEOUT:-10 m}

launcher=$MDGATE_PAYLOAD/junit-platform-console-standalone.jar
[[ -f $launcher ]] || { echo "junit: FAILED: $launcher is missing (stage.sh copies it from a module's target/softroce)"; exit 1; }
mapfile -t test_jars < <(find "$MDGATE_PAYLOAD/test-jars" -maxdepth 1 -name '*.jar' -type f 2>/dev/null | sort)
if ((${#test_jars[@]} == 0)); then
    echo "junit: FAILED: no test jar in $MDGATE_PAYLOAD/test-jars: no module staged tests tagged softroce"
    exit 2
fi
mapfile -t lib_jars < <(find "$MDGATE_LIB" -maxdepth 1 -name '*.jar' -type f | sort)
classpath=$(printf '%s\n' "$launcher" "${test_jars[@]}" "${lib_jars[@]}" | paste -sd:)
roots=$(printf '%s\n' "${test_jars[@]}" | paste -sd:)

read -ra jvm_flags <<<"${MDGATE_JVM_FLAGS:-} ${JUNIT_JVM_ARGS:-}"
echo "junit: scanning $(printf '%s ' "${test_jars[@]##*/}")for tests tagged softroce (${#lib_jars[@]} jars on the class path, test timeout $test_timeout)"
started=$SECONDS
# A JVM that dies of a fatal error (a native crash) leaves its hs_err file with the results, not in the
# guest's /tmp, which vanishes with it; child JVMs started with this JVM's input arguments do the same.
java "${jvm_flags[@]}" -Djava.library.path="${MDGATE_NATIVE:-}" -Djava.io.tmpdir=/tmp \
    -XX:ErrorFile="$MDGATE_RESULTS/hs_err_pid%p.log" -cp "$classpath" \
    org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --disable-ansi-colors --details=tree --details-theme=ascii \
    --scan-class-path="$roots" --include-tag=softroce --fail-if-no-tests \
    ${JUNIT_INCLUDE_CLASSNAME:+--include-classname="$JUNIT_INCLUDE_CLASSNAME"} \
    --reports-dir="$MDGATE_RESULTS" \
    --config="junit.jupiter.execution.timeout.default=$test_timeout" \
    --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD
rc=$?

# The console launcher says "0 tests found" and exits 2 with --fail-if-no-tests; say it in plain words too,
# and never let a run without tests pass, whatever the exit code.
found=$(cat "$MDGATE_RESULTS"/TEST-*.xml 2>/dev/null \
    | grep -o '<testsuite [^>]*tests="[0-9]*"' | grep -o 'tests="[0-9]*"' | tr -dc '0-9\n' | awk '{ s += $1 } END { print s + 0 }')
if ((rc > 2)); then
    # 0, 1 and 2 are the launcher's own answers; anything else is the JVM dying under it (134: a fatal error).
    echo "junit: FAILED: the test JVM died with exit code $rc after $((SECONDS - started)) s, before the launcher" \
        "finished ($found tests in the reports it left)"
    for err in "$MDGATE_RESULTS"/hs_err_pid*.log; do
        [[ -f $err ]] && { echo "junit: fatal error report ${err##*/}:"; head -n 20 "$err"; }
    done
    exit "$rc"
fi
if ((found == 0)); then
    echo "junit: FAILED: zero tests tagged softroce found in $(printf '%s ' "${test_jars[@]##*/}")(launcher exit $rc)"
    exit 2
fi
echo "junit: $found tests tagged softroce ran in $((SECONDS - started)) s, launcher exit $rc"
exit "$rc"
