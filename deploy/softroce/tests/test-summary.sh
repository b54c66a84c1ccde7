#!/usr/bin/env bash
# The closing summary of `make test`: the host suite's tests (surefire's XML reports of every module, written
# by the `mvn verify` that just ran), the Soft-RoCE guest run's (its summary.txt) and, when given, the
# two-host run's (run-pair.sh's summary.txt), then all together.
# Usage: deploy/softroce/tests/test-summary.sh GUEST_OUT_DIR [GUEST_EXIT_CODE [PAIR_OUT_DIR PAIR_EXIT_CODE]]
#   GUEST_OUT_DIR    run.sh's results directory (make uses target/softroce/latest)
#   GUEST_EXIT_CODE  run.sh's exit code, to say why a guest run without a summary failed
#   PAIR_OUT_DIR, PAIR_EXIT_CODE  the same of run-pair.sh
# Exit code: 0 when every part ran tests and none failed, else 1.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)
guest_out=${1:?usage: test-summary.sh GUEST_OUT_DIR [GUEST_EXIT_CODE]}
guest_rc=${2:-}
pair_out=${3:-}
pair_rc=${4:-}

shopt -s nullglob
reports=("$root"/*/target/surefire-reports/TEST-*.xml)
read -r h_tests h_failed h_skipped < <(awk '
    function attr(tag, name) {
        if (match(tag, "[ \t]" name "=\"[0-9]+\"")) return substr(tag, RSTART + length(name) + 3) + 0
        return 0
    }
    {
        line = $0
        while (match(line, /<testsuite[ \t][^>]*>/)) {
            tag = substr(line, RSTART, RLENGTH)
            t += attr(tag, "tests"); f += attr(tag, "failures") + attr(tag, "errors"); s += attr(tag, "skipped")
            line = substr(line, RSTART + RLENGTH)
        }
    }
    END { printf "%d %d %d\n", t, f, s }' "${reports[@]}" </dev/null)

# guest_totals OUT_DIR EXIT_CODE PREFIX SCRIPT: "tests passed failed skipped note" from a run's summary.txt; a run
# without one counts one failure, and a failed exit code with no failing test one more.
guest_totals()
{
    local out=$1 rc=$2 prefix=$3 script=$4 summary="$1/summary.txt" t=0 p=0 f=0 s=0 note=
    if [[ -f $summary ]] && grep -q "^$prefix: [0-9]* tests run\$" "$summary"; then
        t=$(sed -n "s/^$prefix: \([0-9]*\) tests run\$/\1/p" "$summary" | tail -n 1)
        read -r p f s < <(sed -n "s/^$prefix: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped\$/\1 \2 \3/p" "$summary" | tail -n 1)
    else
        t=1 f=1
        note=" (no guest summary in $out${rc:+, $script exit $rc})"
    fi
    if [[ -n $rc && $rc != 0 && $f == 0 ]]; then
        t=$((t + 1)) f=1 note=" ($script exit $rc)"
    fi
    echo "$t $p $f $s $note"
}
read -r g_tests g_passed g_failed g_skipped g_note < <(guest_totals "$guest_out" "$guest_rc" softroce run.sh)
g_note=${g_note:+ $g_note}
p_tests=0 p_passed=0 p_failed=0 p_skipped=0 p_note=
if [[ -n $pair_out ]]; then
    read -r p_tests p_passed p_failed p_skipped p_note < <(guest_totals "$pair_out" "$pair_rc" softroce-pair run-pair.sh)
    p_note=${p_note:+ $p_note}
fi

printf 'test: host suite (mvn verify, %d report files): %d tests, %d passed, %d failed, %d skipped\n' \
    "${#reports[@]}" "$h_tests" "$((h_tests - h_failed - h_skipped))" "$h_failed" "$h_skipped"
printf 'test: Soft-RoCE guest (tests tagged softroce, benchmark checks): %d tests, %d passed, %d failed, %d skipped%s\n' \
    "$g_tests" "$g_passed" "$g_failed" "$g_skipped" "$g_note"
if [[ -n $pair_out ]]; then
    printf 'test: Soft-RoCE two hosts (mdgate run over verbs, consumers on the other guest): %d tests, %d passed, %d failed, %d skipped%s\n' \
        "$p_tests" "$p_passed" "$p_failed" "$p_skipped" "$p_note"
fi
tests=$((h_tests + g_tests + p_tests))
failed=$((h_failed + g_failed + p_failed))
skipped=$((h_skipped + g_skipped + p_skipped))
echo "test: $tests tests run"
echo "test: $((tests - failed - skipped)) passed, $failed failed, $skipped skipped"
[[ $h_tests -gt 0 && $g_tests -gt 0 && ( -z $pair_out || $p_tests -gt 0 ) && $failed -eq 0 ]]
