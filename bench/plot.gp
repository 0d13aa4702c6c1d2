# bench/plot.gp: the PNG plots of bench/run_all.sh (make bench / make bench-quick).
#   gnuplot -e "resdir='bench/results'" bench/plot.gp
# Reads resdir/fetchbuf.rtt{0,5,100}.dat (bench_fetchbuf --dat) and
# resdir/drivers.dat (bench_drivers --dat); "?" marks a cell that was not run.
if (!exists("resdir")) resdir = "bench/results"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key outside right top
set grid ytics
set termoption noenhanced

set terminal pngcairo noenhanced size 1400,450 font ",10"
set output resdir."/fetchbuf.png"
set multiplot layout 1,3 title "Table 2: relative efficiency of the fetch buffer (log scale; 1 = fastest cell of its table)"
set logscale y
set yrange [0.0005:40]
do for [r in "0 5 100"] {
    set title "added RTT ".r." ms"
    if (r eq "0") { set key inside left top horizontal maxcols 3 font ",8" } else { unset key }
    plot for [i=2:7] resdir."/fetchbuf.rtt".r.".dat" using i:xtic(1) title columnheader(i)
}
unset multiplot

set terminal pngcairo noenhanced size 1100,500 font ",10"
set output resdir."/drivers.png"
set title "Table 1: median time per workload (ms, log scale)"
set yrange [*:*]
set xtics rotate by -30
set key inside left top
plot resdir."/drivers.dat" using 2:xtic(1) title "C API", \
     "" using 3 title "Python", \
     "" using 4 title "baseline (1 round trip/row)"
