# history_rate.gp - chokepoint history: the compression rate of each study of one host,
# one column per study (oldest first, labelled with its start), one line per (target,
# codec, threads) (rates.dat: the median with bars from the slowest to the fastest
# repetition), so a slowdown shows as a step down at the study that brought it.
# Decompressions have their own plot (history_restore.gp).
load plotsdir.'/common.gp'
load plotsdir.'/history_common.gp'

set title sprintf("Compression rate, study by study, on %s", host)
set ylabel 'rate (MB/s of input, 1 MB = 10^6 bytes)'
eval history_key(n_compress_line)

plot for [k=1:n_compress_line] datadir.'/rates.dat' index compress_line[k]-1 using 1:2:3:4 \
         with yerrorlines lt line_colour[k] pt line_marker[k] dt line_dash[k] \
         title line_title[compress_line[k]]
