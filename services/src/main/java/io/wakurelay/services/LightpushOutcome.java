package io.wakurelay.services;

/**
 * What a lightpush came to, whichever way it came (the lightpush v3 protocol or nwaku's REST
 * {@code POST /lightpush/v3/message}): the v3 status code (nwaku's REST answers with it as the HTTP status), its
 * description, and how many relay peers took the message.
 */
public record LightpushOutcome(int statusCode, String statusDesc, int relayPeerCount) {
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
