package io.wakurelay.services.lightpush;

/**
 * What a push by nwaku's legacy REST route ({@code POST /lightpush/v1/message}) came to, in the legacy lightpush
 * protocol's terms ({@code waku_lightpush_legacy}): success, or the one {@code info} string nwaku reports, which its
 * REST handler puts after "Failed to request a message push: " (503), except {@link #TOO_MANY_REQUESTS} (429).
 *
 * @param info null on success
 */
public record LegacyLightpushOutcome(boolean success, String info) {
    /** nwaku's legacy answer to every publish that reached no relay peer, whatever the reason. */
    public static final String NOT_PUBLISHED = "not_published_to_any_peer";
    /** nwaku's legacy answer of a service node past its rate limit. */
    public static final String TOO_MANY_REQUESTS = "TOO_MANY_REQUESTS";
    /** nwaku's legacy client's word for a service node it cannot reach. */
    public static final String DIAL_FAILURE = LightpushClient.DIAL_FAILURE;
    /** nwaku's REST words for a push that took longer than it waits (its own status, 503, not a legacy info). */
    public static final String TIMED_OUT = LightpushClient.TIMED_OUT;
    /** nwaku's words (legacy lightpush) when no pubsub topic is given and none can be derived. */
    public static final String TOPIC_REQUIRED = "Pubsub topic must be specified when static sharding is enabled";

    static final LegacyLightpushOutcome OK = new LegacyLightpushOutcome(true, null);

    public static LegacyLightpushOutcome failed(String info) {
        return new LegacyLightpushOutcome(false, info);
    }

    /** nwaku's relay validator's words for a message past the limit ({@code waku_relay/protocol.nim}). */
    public static String tooLarge(int maxMessageBytes) {
        return "Message size exceeded maximum of " + maxMessageBytes + " bytes";
    }

    /**
     * A lightpush v3 outcome in legacy terms, for a legacy push sent through a service node over lightpush v3 (this
     * node's client speaks v3 only): what nwaku's legacy protocol would have reported for the same refusal.
     *
     * @param maxMessageBytes this node's message size limit, which the legacy words name
     */
    public static LegacyLightpushOutcome fromV3(LightpushOutcome outcome, int maxMessageBytes) {
        if (outcome.isSuccess()) {
            return OK;
        }
        String desc = outcome.statusDesc() == null ? "" : outcome.statusDesc();
        LightpushStatus status = LightpushStatus.known(outcome.statusCode());
        if (status == null) { // a code of another implementation (nwaku's 504, out of RLN proof): its words
            return failed(desc.isEmpty() ? "unknown failure" : desc);
        }
        return switch (status) {
            case TOO_MANY_REQUESTS -> failed(TOO_MANY_REQUESTS);
            case PAYLOAD_TOO_LARGE -> failed(tooLarge(maxMessageBytes));
            case NO_PEERS_TO_RELAY -> failed(desc.startsWith("Peer is not accessible: " + DIAL_FAILURE) ? DIAL_FAILURE : NOT_PUBLISHED);
            case UNSUPPORTED_PUBSUB_TOPIC -> failed(NOT_PUBLISHED);
            // a message seen before: nwaku's legacy protocol says so of every publish that reached no peer
            case INVALID_MESSAGE -> failed(desc.startsWith(LightpushOutcome.DUPLICATE) ? NOT_PUBLISHED : desc);
            case SERVICE_UNAVAILABLE -> failed(TIMED_OUT.equals(desc) ? TIMED_OUT : desc);
            default -> failed(desc.isEmpty() ? "unknown failure" : desc);
        };
    }
}
