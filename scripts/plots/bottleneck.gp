# bottleneck.gp - the bottleneck picture. Black: the CPU ceiling (the mem target, or
# the fastest target when there is none) measured and its best fitted model (cpu.dat,
# cpu_fit.dat). Coloured dashed lines: each volume's write ceiling, its write speed (the
# drain rate, or an emulated cap) divided by the output ratio (ceilings.dat); dotted: a
# read ceiling that limits. Thin coloured lines: what the target measured; dotted beside
# them: what the model predicts for it (points.dat column 9). A crossover
# (crossovers.dat): the thread count from which the model says the volume limits the job
# (its time within the tolerance of the compression's, or its flush adding more), at
# the model's rate there.
load plotsdir.'/common.gp'

set title sprintf("Where the disk takes over: CPU rate against each volume's ceiling%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured)
set xlabel 'threads (T)'
set ylabel 'rate (MB/s of input)'
if (bottleneck_xmax <= 24) { set xtics 1 } else { set xtics autofreq }
set xrange [1 : bottleneck_xmax]
set yrange [0 : bottleneck_ymax]
key_entries = n_cpu_title + 3 * n_ceiling_title
# One column while it fits; two beyond that (gnuplot overestimates the text width of
# cairo fonts, hence the negative width so two long columns stay on the canvas).
key_rows = key_entries > 5 ? ceil(key_entries / 2.0) : key_entries
set key vertical maxrows key_rows Left reverse width (key_entries > 5 ? -10 : 0)
@key_below

plot for [i=1:n_cpu_title] datadir.'/cpu_fit.dat' index i-1 using 1:2 \
         with lines lt 7 lw 3 dt i title cpu_title[i], \
     for [i=1:n_cpu_title] datadir.'/cpu.dat' index i-1 using 1:2 \
         with points lt 7 pt 7 ps 1.2 notitle, \
     for [k=1:n_ceiling_title] datadir.'/ceilings.dat' index k-1 using 1:2 \
         with lines lt ceiling_series[k] lw 2.5 dt 2+ceiling_is_read[k] title ceiling_title[k], \
     for [k=1:n_ceiling_title] datadir.'/points.dat' index ceiling_series[k]-1 \
         using 1:(ceiling_is_read[k] ? NaN : $5) with linespoints lt ceiling_series[k] lw 1 \
         title (ceiling_is_read[k] ? '' : series_name[ceiling_series[k]].' measured'), \
     for [k=1:n_ceiling_title] datadir.'/points.dat' index ceiling_series[k]-1 \
         using 1:(ceiling_is_read[k] ? NaN : $9) with linespoints lt ceiling_series[k] lw 1.5 \
         dt 3 pt 6 title (ceiling_is_read[k] ? '' : series_name[ceiling_series[k]].' predicted'), \
     datadir.'/crossovers.dat' using 1:2 with impulses lc rgb '#666666' lw 1 dt 3 notitle, \
     datadir.'/crossovers.dat' using 1:2:(n_cross_label > 0 ? cross_label[int($0) + 1] : '') \
         with labels point pt 6 ps 2.2 lc rgb '#222222' left offset char 1.2,1.1 notitle
