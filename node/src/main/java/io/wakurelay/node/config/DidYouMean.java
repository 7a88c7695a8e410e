package io.wakurelay.node.config;

import java.util.Collection;
import java.util.Optional;

/** The closest of some names to a misspelt one, by edit distance, when it is close enough to be meant. */
final class DidYouMean {
    private DidYouMean() {
    }

    /** The name of {@code names} at the smallest edit distance from {@code typed}, if at most a third of its length. */
    static Optional<String> closest(String typed, Collection<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : names) {
            int d = distance(typed, name);
            if (d < bestDistance) {
                best = name;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= Math.max(2, typed.length() / 3) ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein's distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
