package io.wakurelay.discovery.dns;

/** A tree, or a part of it, refused; {@link #kind()} is the {@code type} it is counted under. */
public final class EnrTreeException extends Exception {
    /** Why; each is a label value of {@code waku_dnsdisc_errors_total{type}}. */
    public enum Kind {
        /** The root's signature does not verify with the URL's key. */
        BAD_SIGNATURE("bad_signature"),
        /** An entry's text does not hash to the name it was found under. */
        HASH_MISMATCH("hash_mismatch"),
        /** An entry that does not parse, or of a type not allowed where it was found. */
        BAD_ENTRY("bad_entry"),
        /** A leaf's ENR does not decode or verify. */
        BAD_ENR("bad_enr"),
        /** A TXT query failed, timed out or found no record. */
        QUERY_FAILURE("query_failure"),
        /** The sync met a bound (records, depth, queries); what was found until then is kept. */
        LIMIT("limit"),
        /** A link to a tree that links back to it (directly or through others): not followed again. */
        LINK_LOOP("link_loop"),
        /** A link to a tree already read in this sync through another link: not read twice. */
        LINK_REPEATED("link_repeated"),
        /** A link past the bounds of links (trees read, links deep): not followed. */
        LINK_LIMIT("link_limit");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
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
