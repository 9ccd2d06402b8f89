# history_restore.gp - chokepoint history: the decompression rate of each study of one
# host, as history_rate.gp draws compression (rates in restored bytes per second).
load plotsdir.'/common.gp'
load plotsdir.'/history_common.gp'

set title sprintf("Decompression rate, study by study, on %s", host)
set ylabel 'rate (MB/s restored, 1 MB = 10^6 bytes)'
eval history_key(n_restore_line)

plot for [k=1:n_restore_line] datadir.'/rates.dat' index restore_line[k]-1 using 1:2:3:4 \
         with yerrorlines lt line_colour[k] pt line_marker[k] dt line_dash[k] \
         title line_title[restore_line[k]]
