# compare_ratio.gp - chokepoint compare: B/A (the ratio of the median rates) per thread
# count, one colour per pair, with its bootstrap interval as error bars (ratio.dat; a point
# without repetitions has none), the +-threshold band in grey around 1, and the
# --fail-on-regression limit as a red dashed line when one was given.
load plotsdir.'/common.gp'

set title sprintf("Rate of B over A per thread count (threshold +-%g%%)", threshold * 100)
set xlabel 'threads (T)'
set ylabel 'rate ratio B / A'
set logscale x 2
@set_thread_tics
set xrange [threads_min / 1.2 : threads_max * 1.2]
set key vertical maxrows n_pair_title Left reverse width 2
key_rows = n_pair_title
@key_below

stats datadir.'/ratio.dat' using 3 nooutput name 'LO'
stats datadir.'/ratio.dat' using 4 nooutput name 'HI'
ylo = LO_min < 1 - threshold ? LO_min : 1 - threshold
yhi = HI_max > 1 + threshold ? HI_max : 1 + threshold
if (fail_threshold > 0 && 1 - fail_threshold < ylo) { ylo = 1 - fail_threshold }
pad = (yhi - ylo) * 0.15 + 0.005
set yrange [ylo - pad : yhi + pad]
set object 1 rect from graph 0, first 1 - threshold to graph 1, first 1 + threshold \
    behind fc rgb '#e8e8e8' fs solid 1.0 noborder
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#777777' lw 1
if (fail_threshold > 0) {
    set arrow 2 from graph 0, first 1 - fail_threshold to graph 1, first 1 - fail_threshold \
        nohead lc rgb '#cc0000' dt 2 lw 1.5
}

plot for [i=1:n_pair_title] datadir.'/ratio.dat' index i-1 using 1:2:3:4 \
         with yerrorlines lt i title pair_title[i]
