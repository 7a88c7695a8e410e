package io.wakurelay.loadgen;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

class ThreadCpuTest {

    @Test
    void aStatLineGivesTheThreadsNameAndItsUserPlusSystemTime() {
        // a name with a space and a ")" in it, as Linux allows: the name ends at the last ")"
        String line = "4242 (GC Thread#0) x) S 1 4242 4242 0 -1 4194368 1234 0 0 0 150 25 0 0 20 0 30 0 5000 0 0";

        ThreadCpu.Sample s = ThreadCpu.parse(line);

        assertThat(s.name()).isEqualTo("GC Thread#0) x");
        assertThat(s.nanos()).as("(150 + 25) ticks of 10 ms").isEqualTo(1_750_000_000L);
    }

    @Test
    void threadsOfOnePoolCountAsOne() {
        assertThat(ThreadCpu.group("wakurelay-p2p-e")).isEqualTo("wakurelay-p2p-e");
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(ThreadCpu.group("HttpClient-1-Wo")).isEqualTo("HttpClient-N-Wo");
        assertThat(ThreadCpu.group("GC Thread#12")).isEqualTo("GC Thread#N");
        assertThat(ThreadCpu.group("rocksdb:low0")).isEqualTo("rocksdb:lowN");
    }

    @Test
    void perMessageFiguresAccountForThreadsThatEnded() {
        Map<String, Long> before = Map.of("(process)", 1_000_000_000L, "epoll", 400_000_000L, "gc", 100_000_000L);
        // 1,000 messages: epoll spent 0.5 s more, gc 0.1 s, a new thread 0.05 s and an ended one 0.2 s more
        Map<String, Long> after = Map.of("(process)", 1_850_000_000L, "epoll", 900_000_000L, "gc", 200_000_000L,
                "new", 50_000_000L);

        Map<String, Double> us = ThreadCpu.microsPerMessage(before, after, 1_000);

        assertThat(us).containsExactly(Map.entry("epoll", 500.0), Map.entry(ThreadCpu.ENDED_THREADS, 200.0),
                Map.entry("gc", 100.0), Map.entry("new", 50.0));
    }

    @Test
    void aLiveProcessShowsItsBusyThread() throws Exception {
        long pid = ProcessHandle.current().pid();
        Map<String, Long> before = ThreadCpu.snapshot(pid);
        assumeThat(before).as("Linux's /proc").isNotEmpty();
        Thread busy = new Thread(() -> {
            long end = System.nanoTime() + 300_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, "cpu-test-spin-7");
        busy.start();
        Thread.sleep(250);

        Map<String, Double> us = ThreadCpu.microsPerMessage(before, ThreadCpu.snapshot(pid), 1);
        busy.join();

        assertThat(us).as("the spinning thread, by its name").containsKey("cpu-test-spin-N");
        assertThat(us.get("cpu-test-spin-N")).as("at least a tick (the machine may be busy)").isGreaterThanOrEqualTo(10_000.0);
    }
}
