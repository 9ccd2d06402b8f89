# compare_time.gp - chokepoint compare: wall time against threads, log-log, one colour per
# study (A, B, ...), one point shape per target: medians with min-max bars (points.dat) and
# each series' power law t = a / T^b (time_fit.dat, dashed), its equation in the key.
load plotsdir.'/common.gp'

array shapes[6] = [7, 5, 9, 11, 13, 15]
set title "Compression time against threads, study against study"
set xlabel 'threads (T)'
set ylabel 'wall time (s)'
set logscale x 2
set logscale y 10
set format y '%g'
@set_thread_tics
set xrange [threads_min / 1.2 : threads_max * 1.2]
set key vertical maxrows n_line_title Left reverse width 3
key_rows = n_line_title
@key_below

stats datadir.'/points.dat' using 3 nooutput name 'LO'
stats datadir.'/points.dat' using 4 nooutput name 'HI'
set yrange [LO_min / 1.25 : HI_max * 1.25]
if (HI_max / LO_min < 8) { log_mantissas = '1 1.5 2 3 4 5 6 8' }
@log_tics_y

plot for [i=1:n_line_title] datadir.'/points.dat' index i-1 using 1:2:3:4 \
         with yerrorbars lt line_study[i] pt shapes[(line_series[i] - 1) % 6 + 1] title line_title[i], \
     for [i=1:n_line_title] datadir.'/time_fit.dat' index i-1 using 1:2 \
         with lines lt line_study[i] dt 2 title power_eq[i]
