# bottleneck.gp - the bottleneck picture. Black: the CPU ceiling (the mem target, or
# the fastest target when there is none) measured and its best fitted model (cpu.dat,
# cpu_fit.dat). Coloured dashed lines: each volume's write ceiling, its write speed (the
# drain rate, or an emulated cap) divided by the output ratio (ceilings.dat); dotted: a
# read ceiling that limits. Thin coloured lines: what the target measured; circles: what
# the model predicts for its measured points (points.dat column 9); dotted: the model
# along the CPU curve (model_rate.dat). A crossover (crossovers.dat): the thread count
# from which the model says the volume limits the job (its time within the tolerance of
# the compression's, or its flush adding more), at the model's rate there, on that dotted
# curve, labelled with the term that takes over. The title (bottleneck_title) names the
# disk only where a crossover is the disk's. With several codecs, one panel per codec
# (their rates differ by orders of magnitude), each on its own scale and with its own key
# at its right.
load plotsdir.'/common.gp'

set xlabel 'threads (T)'
set ylabel 'rate (MB/s of input)'
if (bottleneck_xmax <= 24) { set xtics 1 } else { set xtics autofreq }
set xrange [1 : bottleneck_xmax]
title_text = bottleneck_title

# in_panel(k): ceiling k belongs to the panel's codec (every ceiling without panels).
panel = 0
in_panel(k) = panel == 0 || series_codec[ceiling_series[k]] == panel
cross_in_panel(s) = panel == 0 || (s > 0 && series_codec[int(s)] == panel)
# A crossover label near the right edge goes to the left of its point, inside the plot.
label_left(x) = x > 1 + 0.7 * (bottleneck_xmax - 1)

plot_panel = "plot for [i=1:n_cpu_title] datadir.'/cpu_fit.dat' index i-1 using 1:((panel == 0 || i == panel) ? $2 : NaN) \
         with lines lt 7 lw 3 dt 1 + (i - 1) * (panel == 0) title ((panel == 0 || i == panel) ? cpu_title[i] : ''), \
     for [i=1:n_cpu_title] datadir.'/cpu.dat' index i-1 using 1:((panel == 0 || i == panel) ? $2 : NaN) \
         with points lt 7 pt 7 ps 1.2 notitle, \
     for [k=1:n_ceiling_title] datadir.'/ceilings.dat' index k-1 using 1:(in_panel(k) ? $2 : NaN) \
         with lines lt series_colour[ceiling_series[k]] lw 2.5 dt 2+ceiling_is_read[k] title (in_panel(k) ? ceiling_title[k] : ''), \
     for [k=1:n_ceiling_title] datadir.'/points.dat' index ceiling_series[k]-1 \
         using 1:(ceiling_is_read[k] || !in_panel(k) ? NaN : $5) with linespoints lt series_colour[ceiling_series[k]] lw 1 \
         title (ceiling_is_read[k] || !in_panel(k) ? '' : series_name[ceiling_series[k]].' measured'), \
     for [k=1:n_ceiling_title] datadir.'/points.dat' index ceiling_series[k]-1 \
         using 1:(ceiling_is_read[k] || !in_panel(k) ? NaN : $9) with points lt series_colour[ceiling_series[k]] \
         pt 6 notitle, \
     for [k=1:n_ceiling_title] datadir.'/model_rate.dat' index ceiling_series[k]-1 \
         using 1:(ceiling_is_read[k] || !in_panel(k) ? NaN : $2) with lines lt series_colour[ceiling_series[k]] lw 1.5 \
         dt 3 title (ceiling_is_read[k] || !in_panel(k) ? '' : series_name[ceiling_series[k]].' predicted'), \
     datadir.'/crossovers.dat' using 1:(cross_in_panel($3) ? $2 : NaN) with impulses lc rgb '#666666' lw 1 dt 3 notitle, \
     datadir.'/crossovers.dat' using 1:(cross_in_panel($3) && !label_left($1) ? $2 : NaN):(n_cross_label > 0 ? cross_label[int($0) + 1] : '') \
         with labels point pt 6 ps 2.2 lc rgb '#222222' left offset char 1.2,1.1 notitle, \
     datadir.'/crossovers.dat' using 1:(cross_in_panel($3) && label_left($1) ? $2 : NaN):(n_cross_label > 0 ? cross_label[int($0) + 1] : '') \
         with labels point pt 6 ps 2.2 lc rgb '#222222' right offset char -1.2,1.1 notitle"

if (n_cpu_title > 1) {
    # Each panel's key lists its CPU line and, per target, a ceiling, its measured and its
    # predicted line; the panel is tall enough for it, the canvas for every panel.
    most = 0
    do for [c=1:n_cpu_title] {
        entries = 1 + 3 * sum [k=1:n_ceiling_title] (series_codec[ceiling_series[k]] == c ? 1 : 0)
        most = entries > most ? entries : most
    }
    panel_h = most * 20 + 150 > 380 ? most * 20 + 150 : 380
    canvas_w = 1300
    canvas_h = n_cpu_title * panel_h + 70
    eval canvas
    set multiplot layout n_cpu_title, 1 title sprintf("%s\n%s", title_text, measured_nobars) font ',13'
    # The plot takes the left half, its key the right (gnuplot's own estimate of a key's
    # width is too wide for cairo fonts, so the margin is set, not estimated).
    set rmargin at screen 0.53
    set key at screen 0.545, graph 1.0 left top vertical Left reverse width 1
    do for [c=1:n_cpu_title] {
        panel = c
        set title codec_name[c] font ',12'
        set yrange [0 : panel_ymax[c]]
        eval plot_panel
    }
    unset multiplot
} else {
    set title sprintf("%s%s\n%s", title_text, codec ne '' ? ' ('.codec.')' : '', measured_nobars)
    set yrange [0 : bottleneck_ymax]
    key_entries = n_cpu_title + 3 * n_ceiling_title
    # One column while it fits; two beyond that (gnuplot overestimates the text width of
    # cairo fonts, hence the negative width so two long columns stay on the canvas).
    key_rows = key_entries > 5 ? ceil(key_entries / 2.0) : key_entries
    set key vertical maxrows key_rows Left reverse width (key_entries > 5 ? -10 : 0)
    @key_below
    eval plot_panel
}
