package io.wakurelay.discovery.dns;

/** Answers TXT queries: the text of a name's TXT record (its character-strings joined), blocking. */
@FunctionalInterface
public interface TxtResolver {
    /**
     * The text of {@code name}'s first TXT record; an {@link EnrTreeException} of kind
     * {@link EnrTreeException.Kind#QUERY_FAILURE} when there is none or the query fails or times out.
     */
    String txt(String name) throws EnrTreeException;
}
