package io.wakurelay.node;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What a node's archive holds, asked over its REST Store API. */
final class ArchivedMessages {
    private ArchivedMessages() {
    }

    /** How many of {@code hashes} the node behind {@code rest} has stored (asked 100 at a time). */
    static int stored(Http rest, List<String> hashes) {
        Set<String> found = new HashSet<>();
        for (int i = 0; i < hashes.size(); i += 100) {
            String query = "/store/v3/messages?pageSize=100&hashes=" + String.join(",", hashes.subList(i, Math.min(hashes.size(), i + 100)));
            rest.get(query).json().get("messages").forEach(m -> found.add(m.get("messageHash").asText()));
        }
        found.retainAll(new HashSet<>(hashes));
        return found.size();
    }
}
