# history_common.gp - what the history plots share: one column per study, labelled with
# its start time, and a key of up to three columns below the plot.
set xlabel 'study (oldest first; its start, UTC)'
set xrange [0.5 : n_studies + 0.5]
set xtics () rotate by -30
do for [j=1:n_studies] { set xtics add (study_label[j] j) }
set yrange [0:*]
# eval history_key(N): a key of N entries in up to three columns, below the plot (the
# rotated study labels need a few lines more than key_below gives).
history_key(n) = sprintf("set key horizontal maxcols %d Left reverse width 1; key_rows = %d; %s; set bmargin %d", \
    n < 3 ? (n < 1 ? 1 : n) : 3, (n + 2) / 3, key_below, int(((n + 2) / 3) * 1.25 + 9))
