// SPDX-License-Identifier: MIT
/*
 * tb_tap.vh: TAP output for the Icarus benches. Include it inside the
 * bench's module; it declares npoints (the points so far: print
 * "1..npoints" at the end) and point(ok, what), one test point.
 */
integer npoints = 0;

task point;
    input ok;
    input [8*200:1] what;
    begin
        npoints = npoints + 1;
        if (ok)
            $display("ok %0d - %0s", npoints, what);
        else
            $display("not ok %0d - %0s", npoints, what);
    end
endtask
