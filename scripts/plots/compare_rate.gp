# compare_rate.gp - chokepoint compare: compression rate against threads, one colour per
# study, one point shape per target: medians with min-max bars (points.dat) and each
# series' linear fit rate = c + d T (rate_fit.dat, dashed), its equation in the key.
load plotsdir.'/common.gp'

array shapes[6] = [7, 5, 9, 11, 13, 15]
set title "Compression rate against threads, study against study"
set xlabel 'threads (T)'
set ylabel 'rate (MB/s of input, 1 MB = 10^6 bytes)'
@set_thread_tics
set xrange [threads_min - 0.3 : threads_max + 0.3]
set yrange [0:*]
set key vertical maxrows n_line_title Left reverse width 2
key_rows = n_line_title
@key_below

plot for [i=1:n_line_title] datadir.'/points.dat' index i-1 using 1:5:6:7 \
         with yerrorbars lt line_study[i] pt shapes[(line_series[i] - 1) % 6 + 1] title line_title[i], \
     for [i=1:n_line_title] datadir.'/rate_fit.dat' index i-1 using 1:2 \
         with lines lt line_study[i] dt 2 lw 1.5 title linear_eq[i]
