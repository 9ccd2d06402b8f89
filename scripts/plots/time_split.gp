# time_split.gp - where the time went: one stacked bar per target and thread count
# (time_split.dat): the wall time of its median run along its critical path, each moment
# counted once by what the job as a whole waited for - the codec on a core, a core, the
# reader or writer on a core, a read blocked on the disk, a write blocked on the disk
# (write-back throttling, an emulated cap and the final flush included), none.
load plotsdir.'/common.gp'

set title sprintf("Where the time went%s\n%s", codec ne '' ? ' ('.codec.')' : '', measured)
set ylabel 'seconds of the run, by what the job waited for'
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

plot datadir.'/time_split.dat' using 1:xtic(ts_label[int($0) + 1]) lc rgb '#0072B2' title 'the codec', \
     '' using 2 lc rgb '#E69F00' title 'a core', \
     '' using 3 lc rgb '#009E73' title 'reader or writer on a core', \
     '' using 4 lc rgb '#56B4E9' title 'reads (the disk)', \
     '' using 5 lc rgb '#D55E00' title 'writes (the disk)', \
     '' using 6 lc rgb '#CCCCCC' title 'none (start, stop)'
