# time_split.gp - where the time went: one stacked bar per target and thread count
# (time_split.dat): its median seconds split over the pipeline's T + 2 threads by the
# kernel's accounting - on a core, waiting for a core, blocked reading the input, blocked
# writing (write-back throttling and the final flush included), waiting for another stage.
# With several codecs, one panel per codec (time_split.dat index c-1), each on its own
# scale: an xz run takes a hundred times a zstd run's seconds.
load plotsdir.'/common.gp'

title_text = 'Where the time went'
set ylabel 'seconds (per thread, averaged over the T + 2 threads)'
set xlabel ''
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set yrange [0:*]
set grid noxtics
# Labels turned by 30 degrees and ending under their bar, so the last is not cut off.
set xtics rotate by 30 right
set key horizontal maxcols 5 Left reverse
key_rows = 1
panel = 1

plot_panel = "plot datadir.'/time_split.dat' index panel-1 using 1:xtic(ts_label[ts_first[panel] + int($0)]) lc rgb '#0072B2' title 'on a core', \
     '' index panel-1 using 2 lc rgb '#E69F00' title 'waiting for a core', \
     '' index panel-1 using 3 lc rgb '#56B4E9' title 'blocked reading', \
     '' index panel-1 using 4 lc rgb '#D55E00' title 'blocked writing', \
     '' index panel-1 using 5 lc rgb '#CCCCCC' title 'waiting for another stage'"

# Only the codecs with a split take a panel.
panels = sum [c=1:n_ts_count] (ts_count[c] > 0 ? 1 : 0)
if (panels > 1) {
    canvas_h = panels * 420 + 80
    eval canvas
    set multiplot layout panels, 1 title sprintf("%s\n%s", title_text, measured_nobars) font ',13'
    set ylabel 'seconds per thread'
    set bmargin 6
    set key at screen 0.5, screen 0.01 center bottom
    do for [c=1:n_ts_count] {
        if (ts_count[c] > 0) {
            panel = c
            set title codec_name[c] font ',12'
            eval plot_panel
            unset key
        }
    }
    unset multiplot
} else {
    do for [c=1:n_ts_count] { if (ts_count[c] > 0) { panel = c } }
    set title sprintf("%s%s\n%s", title_text, codec ne '' ? ' ('.codec.')' : '', measured_nobars)
    @key_below
    set bmargin 9
    eval plot_panel
}
