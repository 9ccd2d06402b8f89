# rate_vs_threads.gp - compression rate (input MB per second) against threads, one
# colour per target: medians with min-max bars (points.dat), the linear fit (dashed)
# and the USL curve (solid) from rate_fit.dat.
load plotsdir.'/common.gp'

set title sprintf("Compression rate against threads%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured)
set xlabel 'threads (T)'
set ylabel 'rate (MB/s of input, 1 MB = 10^6 bytes)'
@set_thread_tics
set xrange [threads_min - 0.3 : threads_max + 0.3]
set yrange [0:*]
set key vertical maxrows n_series_title Left reverse width 2
key_rows = n_series_title
@key_below

plot for [i=1:n_series_title] datadir.'/points.dat' index i-1 using 1:5:6:7 \
         with yerrorbars lt i title series_title[i], \
     for [i=1:n_series_title] datadir.'/rate_fit.dat' index i-1 using 1:2 \
         with lines lt i dt 2 lw 1.5 title linear_eq[i], \
     for [i=1:n_series_title] datadir.'/rate_fit.dat' index i-1 using 1:3 \
         with lines lt i lw 1.5 title usl_short[i]
