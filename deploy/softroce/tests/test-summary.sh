#!/usr/bin/env bash
# The closing summary of `make test`: the host suite's tests (surefire's XML reports of every module, written
# by the `mvn verify` that just ran) and the Soft-RoCE guest run's (its summary.txt), then both together.
# Usage: deploy/softroce/tests/test-summary.sh GUEST_OUT_DIR [GUEST_EXIT_CODE]
#   GUEST_OUT_DIR    run.sh's results directory (make uses target/softroce/latest)
#   GUEST_EXIT_CODE  run.sh's exit code, to say why a guest run without a summary failed
# Exit code: 0 when both parts ran tests and none failed, else 1.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)
guest_out=${1:?usage: test-summary.sh GUEST_OUT_DIR [GUEST_EXIT_CODE]}
guest_rc=${2:-}

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

g_tests=0 g_passed=0 g_failed=0 g_skipped=0 g_note=
summary="$guest_out/summary.txt"
if [[ -f $summary ]] && grep -q '^softroce: [0-9]* tests run$' "$summary"; then
    g_tests=$(sed -n 's/^softroce: \([0-9]*\) tests run$/\1/p' "$summary" | tail -n 1)
    read -r g_passed g_failed g_skipped < <(sed -n 's/^softroce: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$summary" | tail -n 1)
else
    g_tests=1 g_failed=1
    g_note=" (no guest summary in $guest_out${guest_rc:+, run.sh exit $guest_rc})"
fi
if [[ -n $guest_rc && $guest_rc != 0 && $g_failed == 0 ]]; then
    g_tests=$((g_tests + 1)) g_failed=1 g_note=" (run.sh exit $guest_rc)"
fi

printf 'test: host suite (mvn verify, %d report files): %d tests, %d passed, %d failed, %d skipped\n' \
    "${#reports[@]}" "$h_tests" "$((h_tests - h_failed - h_skipped))" "$h_failed" "$h_skipped"
printf 'test: Soft-RoCE guest (tests tagged softroce, benchmark checks): %d tests, %d passed, %d failed, %d skipped%s\n' \
    "$g_tests" "$g_passed" "$g_failed" "$g_skipped" "$g_note"
tests=$((h_tests + g_tests))
failed=$((h_failed + g_failed))
skipped=$((h_skipped + g_skipped))
echo "test: $tests tests run"
echo "test: $((tests - failed - skipped)) passed, $failed failed, $skipped skipped"
((h_tests > 0 && g_tests > 0 && failed == 0))
