# time_vs_threads.gp - wall time of one compression against threads, one colour per
# target, log-log so a power law t = a / T^b is a straight line. Points are medians with
# min-max bars (points.dat); dashed lines are the fitted power laws (time_fit.dat), their
# equations in the second column of the key; a grey ring marks a point measured with more
# threads than CPUs online (oversubscribed, points.dat column 10).
load plotsdir.'/common.gp'

set title sprintf("Compression time against threads%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured)
set xlabel 'threads (T)'
set ylabel 'wall time from opening the input to the output closed (s)'
set logscale x 2
set logscale y 10
set format y '%g'
@set_thread_tics
set xrange [threads_min / 1.2 : threads_max * 1.2]
set key vertical maxrows n_series_title Left reverse width 3
key_rows = n_series_title
@key_below

# Fit the y range to the data rather than to whole decades.
stats datadir.'/points.dat' using 3 nooutput name 'LO'
stats datadir.'/points.dat' using 4 nooutput name 'HI'
set yrange [LO_min / 1.25 : HI_max * 1.25]
if (HI_max / LO_min < 8) { log_mantissas = '1 1.5 2 3 4 5 6 8' }
@log_tics_y

if (n_oversubscribed > 0) {
    set label 99 'grey rings: more threads than CPUs (oversubscribed)' at graph 0.99, graph 0.97 \
        right font ',9' textcolor rgb '#666666'
}

plot for [i=1:n_series_title] datadir.'/points.dat' index i-1 using 1:2:3:4 \
         with yerrorbars lt i title series_title[i], \
     for [i=1:n_series_title] datadir.'/time_fit.dat' index i-1 using 1:2 \
         with lines lt i dt 2 title power_eq[i], \
     for [i=1:n_series_title] datadir.'/points.dat' index i-1 using 1:($10 > 0 ? $2 : NaN) \
         with points pt 6 ps 2.6 lc rgb '#888888' notitle
