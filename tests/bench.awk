# bench.awk: the summary of `make bench`.  Its input is the output of
# several rounds, each one run of the C program's `attention bench
# --repeat 1` followed by one run of `tests/reference.py bench ... 1`.
# Both halves of a round ran one after the other on the same core, so the
# ratio within a round is fair even when the machine's load drifts between
# rounds; the summary gives the median of each figure and of the rounds'
# ratios.
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)                  # insertion sort: n is small
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "c_ms_per_step"        { c[++nc] = $2; steps = $8 }
$1 == "c_seconds_to_perfect" { p[++np] = $2; at = $6 + 0 }
$1 == "c_gflops"             { g[++ng] = $2; mflop = substr($3, 2) }
$1 == "torch_ms_per_step"    { t[++nt] = $2; r[nt] = $2 / c[nc] }
END {
    if (nc == 0 || nc != nt) { print "bench.awk: incomplete rounds" > "/dev/stderr"; exit 1 }
    lo = hi = r[1]
    for (i = 2; i <= nt; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
    printf "c_ms_per_step %.3f   (median of %d rounds of %d steps, batch 32)\n", median(c, nc), nc, steps
    printf "c_seconds_to_perfect %.3f   (100/100 at step %d)\n", median(p, np), at
    printf "c_gflops %.2f   (%s MFLOP per step)\n", median(g, ng), mflop
    printf "torch_ms_per_step %.3f   (median of %d rounds, 1 thread)\n", median(t, nt), nt
    printf "ratio %.1f   (median over the rounds of PyTorch ms / C ms; from %.1f to %.1f)\n", median(r, nt), lo, hi
}
