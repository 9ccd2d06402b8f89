# rate_vs_write.gp - one point per volume: compression rate at the largest thread count
# against the volume's write speed (rate_vs_write.dat): the one figure every table and
# sentence gives for it (its drain rate, page cache out of the way, or an emulated cap), log-log.
# Dashed: the write ceiling, write speed / output ratio; a point on it is held back by
# the disk. Black: the CPU ceiling; a point near it is held back by the cores.
load plotsdir.'/common.gp'

stats datadir.'/rate_vs_write.dat' using 1 nooutput name 'W'
stats datadir.'/rate_vs_write.dat' using 2 nooutput name 'R'
ymax = (rvw_cpu == rvw_cpu && rvw_cpu > R_max) ? rvw_cpu : R_max
wmin = W_min < R_min * rvw_ratio ? W_min : R_min * rvw_ratio
set title sprintf("Compression rate against the volume's write speed%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured_nobars)
set xlabel "volume's write speed: drain rate from the probe, or its emulated cap (MB/s of output)"
set ylabel (rvw_threads == rvw_threads ? sprintf('rate at %d threads (MB/s of input)', rvw_threads) : 'rate at the largest thread count (MB/s of input)')
set logscale x 10
set logscale y 10
@log_tics_x
@log_tics_y
set xrange [wmin / 2 : W_max * 3]
set yrange [wmin / rvw_ratio / 2 : ymax * 2]
set key horizontal maxcols 2 Left reverse
key_rows = 2
@key_below

write_ceiling(w) = w / rvw_ratio
plot write_ceiling(x) with lines lc rgb '#888888' lw 1.5 dt 2 \
         title sprintf('write ceiling: write speed / output ratio %.2f', rvw_ratio), \
     (rvw_cpu == rvw_cpu ? rvw_cpu : NaN) with lines lt 7 lw 2 \
         title (rvw_cpu == rvw_cpu ? sprintf('CPU ceiling at %d threads: %.0f MB/s', rvw_threads, rvw_cpu) : ''), \
     datadir.'/rate_vs_write.dat' using 1:2 with points lt 1 pt 7 ps 1.8 title 'targets', \
     datadir.'/rate_vs_write.dat' using 1:2:(rvw_label[int($0) + 1]) \
         with labels left offset char 1.3,0 notitle
