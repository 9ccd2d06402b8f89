# history_rate.gp - chokepoint history: the compression rate of each study of one host
# against the study's start time, one line per (target, codec, threads) (rates.dat: the
# median with bars from the slowest to the fastest repetition), so a slowdown shows as a
# step down at the study that brought it.
load plotsdir.'/common.gp'

set title sprintf("Compression rate over time on %s", host)
set xdata time
set timefmt '%s'
set format x "%Y-%m-%d\n%H:%M"
set xlabel 'study start (UTC)'
set ylabel 'rate (MB/s of input, 1 MB = 10^6 bytes)'
pad = (time_max - time_min) * 0.06 + 3600
set xrange [time_min - pad : time_max + pad]
set yrange [0:*]
set key vertical maxrows (n_line_title < 12 ? n_line_title : 12) Left reverse width 2
key_rows = n_line_title < 12 ? n_line_title : 12
@key_below
# Two-line time tics need a line more than key_below gives.
set bmargin key_rows * 1.25 + 6

plot for [i=1:n_line_title] datadir.'/rates.dat' index i-1 using 1:2:3:4 \
         with yerrorlines lt i title line_title[i]
