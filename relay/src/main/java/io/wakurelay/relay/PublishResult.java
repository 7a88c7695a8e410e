package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;

import java.util.Objects;

/**
 * The outcome of a local publish.
 *
 * @param hash      the message hash (computed once, while encoding)
 * @param duplicate true when the relay had already seen this message within the seen-cache TTL; nothing was
 *                  relayed or delivered again
 */
public record PublishResult(MessageHash hash, boolean duplicate) {
    public PublishResult {
        Objects.requireNonNull(hash, "hash");
    }
}
