# rate_vs_threads.gp - compression rate (input MB per second) against threads, one
# colour per target: medians with min-max bars (points.dat), the linear fit (dashed)
# and the USL curve (solid) from rate_fit.dat; a grey ring marks a point measured with more
# threads than CPUs online (oversubscribed, points.dat column 10).
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

if (n_oversubscribed > 0) {
    set label 99 'grey rings: more threads than CPUs (oversubscribed)' at graph 0.99, graph 0.97 \
        right font ',9' textcolor rgb '#666666'
}

plot for [i=1:n_series_title] datadir.'/points.dat' index i-1 using 1:5:6:7 \
         with yerrorbars lt i title series_title[i], \
     for [i=1:n_series_title] datadir.'/rate_fit.dat' index i-1 using 1:2 \
         with lines lt i dt 2 lw 1.5 title linear_eq[i], \
     for [i=1:n_series_title] datadir.'/rate_fit.dat' index i-1 using 1:3 \
         with lines lt i lw 1.5 title usl_short[i], \
     for [i=1:n_series_title] datadir.'/points.dat' index i-1 using 1:($10 > 0 ? $5 : NaN) \
         with points pt 6 ps 2.6 lc rgb '#888888' notitle
