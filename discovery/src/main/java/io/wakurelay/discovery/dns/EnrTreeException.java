package io.wakurelay.discovery.dns;

import java.util.Locale;

/** A tree, or a part of it, refused; {@link #kind()} is the {@code type} it is counted under. */
public final class EnrTreeException extends Exception {
    /** Why; each is a label value of {@code waku_dnsdisc_errors_total{type}}. */
    public enum Kind {
        /** The root's signature does not verify with the URL's key. */
        BAD_SIGNATURE,
        /** An entry's text does not hash to the name it was found under. */
        HASH_MISMATCH,
        /** An entry that does not parse, or of a type not allowed where it was found. */
        BAD_ENTRY,
        /** A leaf's ENR does not decode or verify. */
        BAD_ENR,
        /** A TXT query failed, timed out or found no record. */
        QUERY_FAILURE,
        /** The sync met a bound (records, depth, queries); what was found until then is kept. */
        LIMIT,
        /** A link to a tree that links back to it (directly or through others): not followed again. */
        LINK_LOOP,
        /** A link to a tree already read in this sync through another link: not read twice. */
        LINK_REPEATED,
        /** A link past the bounds of links (trees read, links deep): not followed. */
        LINK_LIMIT;

        /** The label value: the name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;

    public EnrTreeException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
