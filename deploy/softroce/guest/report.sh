# shellcheck shell=bash
# Sourced by shell steps in the guest: records checks as a JUnit-style XML report (the format surefire and
# the JUnit console launcher write), so the host counts them exactly like the project's JUnit tests.
#   source "$MDGATE_BED/report.sh"
#   report_begin SUITE          report goes to $MDGATE_RESULTS/TEST-SUITE.xml
#   check NAME COMMAND [ARG...] one test case: passes when COMMAND exits 0; its output is kept on failure
#   skip NAME REASON            one skipped test case, the reason printed and recorded
#   report_end                  writes the report; returns 1 when a check failed
# Checks run one after another; output of each goes to $MDGATE_RESULTS/NAME.log as well.

report_suite=
report_cases=()
report_tests=0
report_failures=0
report_skipped=0
report_started=0

report_now() { date +%s.%N; }
report_elapsed() { awk -v a="$1" -v b="$(report_now)" 'BEGIN { printf "%.3f", b - a }'; }
report_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' | tr -d '\000-\010\013\014\016-\037'; }

report_begin()
{
    report_suite=$1
    report_cases=()
    report_tests=0
    report_failures=0
    report_skipped=0
    report_started=$(report_now)
    mkdir -p "$MDGATE_RESULTS"
}

check()
{
    local name=$1 started rc seconds log
    shift
    log="$MDGATE_RESULTS/$name.log"
    started=$(report_now)
    "$@" >"$log" 2>&1
    rc=$?
    seconds=$(report_elapsed "$started")
    report_tests=$((report_tests + 1))
    if ((rc == 0)); then
        echo "  PASS $name (${seconds} s)"
        report_cases+=("<testcase classname=\"$report_suite\" name=\"$name\" time=\"$seconds\"/>")
        return 0
    fi
    report_failures=$((report_failures + 1))
    echo "  FAIL $name (exit $rc after ${seconds} s); last lines:"
    tail -n 15 "$log" | sed 's/^/    | /'
    report_cases+=("<testcase classname=\"$report_suite\" name=\"$name\" time=\"$seconds\"><failure message=\"exit code $rc\" type=\"exit\">$(tail -c 16000 "$log" | report_escape)</failure></testcase>")
    return 1
}

skip()
{
    local name=$1 reason=$2
    report_tests=$((report_tests + 1))
    report_skipped=$((report_skipped + 1))
    echo "  SKIP $name: $reason"
    report_cases+=("<testcase classname=\"$report_suite\" name=\"$name\" time=\"0\"><skipped message=\"$(printf '%s' "$reason" | report_escape)\"/></testcase>")
}

report_end()
{
    local file="$MDGATE_RESULTS/TEST-$report_suite.xml"
    {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo "<testsuite name=\"$report_suite\" tests=\"$report_tests\" failures=\"$report_failures\" errors=\"0\" skipped=\"$report_skipped\" time=\"$(report_elapsed "$report_started")\" hostname=\"$(hostname)\">"
        printf '%s\n' "${report_cases[@]}"
        echo '</testsuite>'
    } >"$file"
    echo "  $report_suite: $report_tests tests, $report_failures failed, $report_skipped skipped"
    ((report_failures == 0))
}
