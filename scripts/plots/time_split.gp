# time_split.gp - where the time went: one stacked bar per target and thread count
# (time_split.dat): its median seconds split over the pipeline's T + 2 threads by the
# kernel's accounting - on a core, waiting for a core, blocked reading the input, blocked
# writing (write-back throttling and the final flush included), waiting for another stage.
load plotsdir.'/common.gp'

set title sprintf("Where the time went%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured)
set ylabel 'seconds (per thread, averaged over the T + 2 threads)'
set xlabel ''
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set yrange [0:*]
set xtics rotate by -20 left
set grid noxtics
set key horizontal maxcols 3 Left reverse
key_rows = 2
@key_below

plot datadir.'/time_split.dat' using 1:xtic(ts_label[int($0) + 1]) lc rgb '#0072B2' title 'on a core', \
     '' using 2 lc rgb '#E69F00' title 'waiting for a core', \
     '' using 3 lc rgb '#56B4E9' title 'blocked reading', \
     '' using 4 lc rgb '#D55E00' title 'blocked writing', \
     '' using 5 lc rgb '#CCCCCC' title 'waiting for another stage'
