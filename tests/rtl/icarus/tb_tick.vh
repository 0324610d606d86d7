// SPDX-License-Identifier: MIT
/*
 * tb_tick.vh: tick, for the Icarus benches: wait for the next rising edge
 * of clk and 1 ns more (inputs set after it, outputs read settled).
 * Include it inside a module that has clk.
 */
task tick;
    begin
        @(posedge clk);
        #1;
    end
endtask
