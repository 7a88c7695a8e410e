package io.wakurelay.services.filter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The (pubsub topic, content topic) pairs the {@link FilterClient} is subscribed to at its service node: what a push
 * must match to be taken, and what is subscribed again when the service node lost them. Bounded by
 * {@code maxCriteria}. Thread-safe.
 */
final class FilterClientCriteria {
    private final int max;
    private final Map<String, Set<String>> byPubsubTopic = new HashMap<>();
    private int size;

    FilterClientCriteria(int max) {
        this.max = max;
    }

    /** Whether adding {@code contentTopics} on {@code pubsubTopic} stays within the bound. */
    synchronized boolean fits(String pubsubTopic, List<String> contentTopics) {
        Set<String> held = byPubsubTopic.getOrDefault(pubsubTopic, Set.of());
        long added = contentTopics.stream().distinct().filter(ct -> !held.contains(ct)).count();
        return size + added <= max;
    }

    synchronized void add(String pubsubTopic, List<String> contentTopics) {
        Set<String> held = byPubsubTopic.computeIfAbsent(pubsubTopic, t -> new LinkedHashSet<>());
        for (String ct : contentTopics) {
            if (held.add(ct)) {
                size++;
            }
        }
    }

    synchronized void remove(String pubsubTopic, List<String> contentTopics) {
        Set<String> held = byPubsubTopic.get(pubsubTopic);
        if (held == null) {
            return;
        }
        for (String ct : contentTopics) {
            if (held.remove(ct)) {
                size--;
            }
        }
        if (held.isEmpty()) {
            byPubsubTopic.remove(pubsubTopic);
        }
    }

    synchronized void clear() {
        byPubsubTopic.clear();
        size = 0;
    }

    synchronized boolean matches(String pubsubTopic, String contentTopic) {
        Set<String> held = byPubsubTopic.get(pubsubTopic);
        return held != null && held.contains(contentTopic);
    }

    synchronized int size() {
        return size;
    }

    /** The criteria as subscribe requests of at most {@code perRequest} content topics each. */
    synchronized List<Map.Entry<String, List<String>>> requests(int perRequest) {
        List<Map.Entry<String, List<String>>> out = new ArrayList<>();
        byPubsubTopic.forEach((pubsubTopic, held) -> {
            List<String> all = List.copyOf(held);
            for (int i = 0; i < all.size(); i += perRequest) {
                out.add(Map.entry(pubsubTopic, all.subList(i, Math.min(all.size(), i + perRequest))));
            }
        });
        return out;
    }
}
