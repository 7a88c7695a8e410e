package io.wakurelay.services.lightpush;

/**
 * What a lightpush came to, whichever way it came (the lightpush v3 protocol or nwaku's REST
 * {@code POST /lightpush/v3/message}): the v3 status code (nwaku's REST answers with it as the HTTP status), its
 * description, and how many relay peers took the message.
 */
public record LightpushOutcome(int statusCode, String statusDesc, int relayPeerCount) {
    /** nwaku's words (420) for a message the relay saw before ({@code waku_lightpush/common.nim}). */
    public static final String DUPLICATE = "Dropping already-seen message";

    static LightpushOutcome success(int relayPeerCount) {
        return new LightpushOutcome(LightpushStatus.SUCCESS.code(), null, relayPeerCount);
    }

    static LightpushOutcome error(LightpushStatus status, String description) {
        return new LightpushOutcome(status.code(), description, 0);
    }

    public boolean isSuccess() {
        return statusCode == LightpushStatus.SUCCESS.code();
    }
}
