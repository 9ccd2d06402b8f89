# time_split.gp - where the time went: one stacked bar per target and thread count
# (time_split.dat): the wall time of its median run along its critical path, each moment
# counted once by what the job as a whole waited for - the codec on a core, a core, the
# reader or writer on a core, a read blocked on the disk, a write blocked on the disk
# (write-back throttling, an emulated cap and the final flush included), none.
# With several codecs, one panel per codec (time_split.dat index c-1), each on its own
# scale: an xz run takes a hundred times a zstd run's seconds.
load plotsdir.'/common.gp'

title_text = 'Where the time went'
set ylabel 'seconds of the run, by what the job waited for'
set xlabel ''
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set yrange [0:*]
set grid noxtics
# Labels turned by 30 degrees and ending under their bar, so the last is not cut off.
set xtics rotate by 30 right
set key horizontal maxcols 3 Left reverse
key_rows = 2
panel = 1

plot_panel = "plot datadir.'/time_split.dat' index panel-1 using 1:xtic(ts_label[ts_first[panel] + int($0)]) lc rgb '#0072B2' title 'the codec', \
     '' index panel-1 using 2 lc rgb '#E69F00' title 'a core', \
     '' index panel-1 using 3 lc rgb '#009E73' title 'reader or writer on a core', \
     '' index panel-1 using 4 lc rgb '#56B4E9' title 'reads (the disk)', \
     '' index panel-1 using 5 lc rgb '#D55E00' title 'writes (the disk)', \
     '' index panel-1 using 6 lc rgb '#CCCCCC' title 'none (start, stop)'"

# Only the codecs with a split take a panel.
panels = sum [c=1:n_ts_count] (ts_count[c] > 0 ? 1 : 0)
if (panels > 1) {
    canvas_h = panels * 420 + 80
    eval canvas
    set multiplot layout panels, 1 title sprintf("%s\n%s", title_text, measured_nobars) font ',13'
    set ylabel 'seconds of the run'
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
