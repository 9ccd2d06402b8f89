# probe_sustained.gp - one long write per volume (probe --sustained): the write speed
# over each half-second interval against time (probe_sustained.dat). A drop part-way
# shows a write cache filling up or a drive throttling.
load plotsdir.'/common.gp'

set title "Write speed during one long write\nMB/s over each sampling interval"
set xlabel sustained_xlabel
set ylabel 'write speed (MB/s)'
set yrange [0:*]
set key horizontal maxcols 3 Left reverse
key_rows = ceil(n_sustained_title / 3.0)
@key_below

plot for [k=1:n_sustained_title] datadir.'/probe_sustained.dat' index k-1 using 1:2 \
         with linespoints lt k ps 0.6 title sustained_title[k]
