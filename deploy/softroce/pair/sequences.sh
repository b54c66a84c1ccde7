#!/bin/bash
# The two-host bed's checker: sequences.sh EXPECTED FILE... reads the JSON lines of `mdgate consume` in FILE order
# (the runs of one consumer, a killed one's first) and passes when their gateway sequences are 1..EXPECTED, each
# once, in order. A duplicate, a gap, a reordering or a missing tail each fail, the first five breaks printed.
set -u
(($# >= 2)) && [[ $1 =~ ^[0-9]+$ ]] || { echo "sequences.sh: usage: sequences.sh EXPECTED_LAST_SEQUENCE FILE..., got '$*'" >&2; exit 2; }
expected=$1
shift
cat -- "$@" | grep -o '"gatewaySequence": [0-9]*' | grep -o '[0-9]*$' | awk -v want="$expected" -v runs=$# '
    $1 != prev + 1 { bad++; if (bad <= 5) printf "after %d came %d\n", prev, $1 }
    { prev = $1; n++ }
    END { printf "%d ticks in %d run(s), last sequence %d of %d, %d breaks\n", n, runs, prev, want, bad;
          exit !(bad == 0 && prev == want && n == want) }'
