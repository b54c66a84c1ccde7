#!/usr/bin/env bash
# Prints the summary of a Soft-RoCE run from its results directory (run.sh's --out): every step with its
# exit code, the tests counted from the JUnit-style XML reports the steps wrote (TEST-*.xml, as surefire and
# the JUnit console launcher write them), each step's report.txt (benchmark numbers), then the totals.
# A step without an XML report counts as one test, passed when it exited 0; a step that failed without a
# failing test case in its reports counts one failure more; a step of steps.list that never ran (the guest
# died or hit the time limit) or never finished counts as failed. Exit code: 0 when tests ran and none failed, else 1.
# Usage: deploy/softroce/summarize.sh OUT_DIR
set -euo pipefail

out=${1:?usage: summarize.sh OUT_DIR}
guest="$out/guest"
[[ -d $guest ]] || { echo "summarize: no guest results in $out" >&2; exit 1; }

# "tests failures errors skipped" summed over every <testsuite> start tag of the XML files given.
count_xml()
{
    awk '
        function attr(tag, name,   v) {
            if (match(tag, "[ \t]" name "=\"[0-9]+\"")) { v = substr(tag, RSTART + length(name) + 3); return v + 0 }
            return 0
        }
        {
            line = $0
            while (match(line, /<testsuite[ \t][^>]*>/)) {
                tag = substr(line, RSTART, RLENGTH)
                t += attr(tag, "tests"); f += attr(tag, "failures"); e += attr(tag, "errors"); s += attr(tag, "skipped")
                line = substr(line, RSTART + RLENGTH)
            }
        }
        END { printf "%d %d %d %d\n", t, f, e, s }' "$@" </dev/null
}

declare -A step_rc=() step_seconds=()
if [[ -f $guest/steps.tsv ]]; then
    while IFS=$'\t' read -r name rc seconds; do
        [[ $name == step ]] && continue
        step_rc[$name]=$rc
        step_seconds[$name]=$seconds
    done <"$guest/steps.tsv"
fi
steps=()
if [[ -f $out/steps.list ]]; then
    while read -r name _; do
        [[ -z $name || $name == \#* ]] && continue
        steps+=("$name")
    done <"$out/steps.list"
else
    steps=("${!step_rc[@]}")
fi

tests=0 passed=0 failed=0 skipped=0
printf 'softroce: %-14s %6s %9s %6s %6s %6s %7s\n' step exit seconds tests passed failed skipped
for name in "${steps[@]}"; do
    rc=${step_rc[$name]:-}
    mapfile -t reports < <(find "$guest/$name" -name 'TEST-*.xml' -type f 2>/dev/null | sort)
    if [[ -z $rc ]]; then
        t=1 f=1 s=0
        rc="-"
    elif ((${#reports[@]} > 0)); then
        read -r t f e s < <(count_xml "${reports[@]}")
        f=$((f + e))
        if ((rc != 0 && f == 0)); then
            t=$((t + 1))
            f=1
        fi
    else
        t=1 s=0
        f=$((rc != 0 ? 1 : 0))
    fi
    tests=$((tests + t))
    failed=$((failed + f))
    skipped=$((skipped + s))
    note=
    [[ $rc == "-" ]] && note="  (did not run)"
    [[ $rc == "-" && -d $guest/$name ]] && note="  (started, did not finish)"
    [[ $rc == 124 || $rc == 137 ]] && note="  (hit its time limit)"
    printf 'softroce: %-14s %6s %9s %6d %6d %6d %7d%s\n' "$name" "$rc" "${step_seconds[$name]:--}" "$t" "$((t - f - s))" "$f" "$s" "$note"
done
passed=$((tests - failed - skipped))

for name in "${steps[@]}"; do
    if [[ -s $guest/$name/report.txt ]]; then
        echo "softroce: --- $name/report.txt"
        sed 's/^/softroce:   /' "$guest/$name/report.txt"
    fi
done
[[ -s $guest/guest-status ]] && echo "softroce: guest status: $(<"$guest/guest-status")"
echo "softroce: $tests tests run"
echo "softroce: $passed passed, $failed failed, $skipped skipped"
((tests > 0 && failed == 0))
