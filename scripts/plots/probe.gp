# probe.gp - each volume's write speed (solid) and read speed (dashed) against file size,
# log-log: medians over the repetitions with min-max bars (probe.dat). Small files can
# look fast when they fit a drive's cache; the speed at the largest size is the
# sustained speed the verdicts use.
load plotsdir.'/common.gp'

set title "Volume speed by file size\nmedian over repetitions, bars min to max; writes timed through fsync, reads after dropping the cache"
set xlabel 'file size (MB, 10^6 bytes)'
set ylabel 'speed (MB/s)'
set logscale x 10
set logscale y 10
@log_tics_x
@log_tics_y
set autoscale xfix
set autoscale yfix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set key vertical maxrows n_probe_write_title Left reverse
key_rows = n_probe_write_title
@key_below

plot for [k=1:n_probe_write_title] datadir.'/probe.dat' index 2*(k-1) using 1:2:3:4 \
         with yerrorlines lt k title (probe_has_write[k] ? probe_write_title[k] : ''), \
     for [k=1:n_probe_write_title] datadir.'/probe.dat' index 2*(k-1)+1 using 1:2:3:4 \
         with yerrorlines lt k dt 2 pt 6 title (probe_has_read[k] ? probe_read_title[k] : '')
