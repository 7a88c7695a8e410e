package io.wakurelay.discovery.discv5;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One bucket of the {@link RoutingTable}: up to {@value RoutingTable#BUCKET_SIZE} nodes, least recently seen first
 * (by node id), up to {@value RoutingTable#REPLACEMENTS} replacements, oldest first, and the count of the public IP
 * addresses of both.
 */
final class KBucket {
    final Map<String, NodeEntry> nodes = new LinkedHashMap<>();
    final Deque<NodeEntry> replacements = new ArrayDeque<>();
    final IpLimits ips;

    KBucket(int ipLimit) {
        this.ips = new IpLimits(ipLimit);
    }
}
