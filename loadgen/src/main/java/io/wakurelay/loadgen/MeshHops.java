package io.wakurelay.loadgen;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * How many hops a message travels in a gossipsub overlay: shortest paths, by breadth-first search, over the graph in
 * which node i forwards to its mesh peers {@code forwardsTo.get(i)}. A message handed to node e reaches node v no
 * earlier than {@code distance(e, v)} link delays later, so the largest distance from the nodes messages enter at
 * ({@link #maxFromEntries}) is the hop count of the slowest delivery a run can have.
 *
 * @param diameter       the longest shortest path between any two nodes; -1 when some node cannot reach another
 * @param maxFromEntries the longest shortest path from a node messages were handed to, to any node (-1: unreachable)
 * @param meanFromEntries the mean shortest path from the entry node to the other nodes, averaged over the messages
 */
record MeshHops(int diameter, int maxFromEntries, double meanFromEntries) {

    /**
     * @param forwardsTo each node's mesh peers, by index
     * @param entries    the node each message was handed to (one entry per message; repeats weigh)
     */
    static MeshHops of(List<int[]> forwardsTo, int[] entries) {
        int n = forwardsTo.size();
        int[][] distance = new int[n][];
        int diameter = 0;
        for (int source = 0; source < n; source++) {
            distance[source] = distances(forwardsTo, source);
            diameter = Math.max(diameter, eccentricity(distance[source]));
        }
        int maxFromEntries = 0;
        double meanSum = 0;
        for (int entry : entries) {
            int[] d = distance[entry];
            maxFromEntries = Math.max(maxFromEntries, eccentricity(d));
            meanSum += n < 2 ? 0 : (double) Arrays.stream(d).filter(x -> x > 0).sum() / (n - 1);
        }
        if (Arrays.stream(distance).anyMatch(d -> eccentricity(d) < 0)) {
            diameter = -1;
        }
        for (int entry : entries) {
            if (eccentricity(distance[entry]) < 0) {
                maxFromEntries = -1;
            }
        }
        return new MeshHops(diameter, maxFromEntries, entries.length == 0 ? 0 : meanSum / entries.length);
    }

    /** Hops from {@code source} to every node; -1 for a node it cannot reach. */
    static int[] distances(List<int[]> forwardsTo, int source) {
        int[] d = new int[forwardsTo.size()];
        Arrays.fill(d, -1);
        d[source] = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(source);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v : forwardsTo.get(u)) {
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue.add(v);
                }
            }
        }
        return d;
    }

    /** The largest distance, or -1 when some node is unreachable. */
    private static int eccentricity(int[] distances) {
        int max = 0;
        for (int d : distances) {
            if (d < 0) {
                return -1;
            }
            max = Math.max(max, d);
        }
        return max;
    }

    /** Whichever of two snapshots (the window's start and end) has the longer paths: the goal must hold for both. */
    MeshHops worse(MeshHops other) {
        return new MeshHops(worst(diameter, other.diameter), worst(maxFromEntries, other.maxFromEntries),
                Math.max(meanFromEntries, other.meanFromEntries));
    }

    private static int worst(int a, int b) {
        return a < 0 || b < 0 ? -1 : Math.max(a, b);
    }
}
