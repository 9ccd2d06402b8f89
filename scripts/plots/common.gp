# common.gp - the look shared by chokepoint's plots; every template loads it first.
#
# chokepoint runs each template as
#   gnuplot -e "datadir='/dev/fd/3'; plotsdir='...'; outfile='/dev/fd/4'; fmt='png'" NAME.gp
# datadir holds the data files and vars.gp (see docs/formats.md, "plot-data/"), handed
# over as the directory chokepoint opened; outfile is where to draw, the file chokepoint
# created (run by hand, give both as names); fmt is 'png' or 'svg'. Edit these files (or copy them to a
# directory named by CHOKEPOINT_PLOTS_DIR) to restyle the plots.

set encoding utf8
# @canvas sets the terminal to canvas_w x canvas_h pixels; a template with several panels
# sets a taller canvas and calls it again.
canvas_w = 1000
canvas_h = 650
canvas = "if (fmt eq 'svg') { set terminal svg size canvas_w,canvas_h dynamic noenhanced font 'Sans,12' background rgb 'white' } else { set terminal pngcairo size canvas_w,canvas_h noenhanced font 'Sans,11' background rgb 'white' }; set output outfile"
@canvas

# Counts, titles and equations computed by chokepoint, as gnuplot arrays.
load datadir.'/vars.gp'

set border 3 lc rgb '#555555'
set tics nomirror
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1 dt 1
set key box lc rgb '#bbbbbb' opaque samplen 3 spacing 1.15 width 1
set title font ',13'
set datafile missing 'NaN'

# One colour per series (Okabe-Ito, readable with colour blindness), same in every plot.
set linetype 1 lc rgb '#0072B2' lw 2 pt 7 ps 1.1
set linetype 2 lc rgb '#D55E00' lw 2 pt 5 ps 1.1
set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 1.3
set linetype 4 lc rgb '#CC79A7' lw 2 pt 11 ps 1.3
set linetype 5 lc rgb '#E69F00' lw 2 pt 13 ps 1.3
set linetype 6 lc rgb '#56B4E9' lw 2 pt 15 ps 1.3
set linetype 7 lc rgb '#000000' lw 2 pt 7 ps 1.1
set linetype 8 lc rgb '#999999' lw 2 pt 5 ps 1.1
set linetype cycle 8

# The key goes below the plot, in key_rows rows (set by the template before @key_below);
# the bottom margin is made to fit it under the x label.
key_below = "set key at screen 0.5, screen 0.015 center bottom; set bmargin key_rows * 1.25 + 4.5"

# Log axes: tics at 1, 2, 5 x 10^n; log_mantissas can be set finer for a narrow range.
log_mantissas = '1 2 5'
log_tics_x = "set xtics (); do for [e=-3:7] { do for [m in log_mantissas] { v = real(m) * 10.0**e; set xtics add (sprintf('%g', v) v) } }"
log_tics_y = "set ytics (); do for [e=-3:7] { do for [m in log_mantissas] { v = real(m) * 10.0**e; set ytics add (sprintf('%g', v) v) } }"

# Tics at the thread counts that were measured.
set_thread_tics = "set xtics (); do for [i=1:n_threads_list] { set xtics add (sprintf('%d', threads_list[i]) threads_list[i]) }"
