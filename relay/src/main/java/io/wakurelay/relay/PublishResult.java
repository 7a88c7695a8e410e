package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;

/**
 * What a local publish did.
 *
 * @param hash      the message's RFC 14 hash
 * @param duplicate true when the message was seen before (nothing was sent)
 * @param relayedTo the peers it was written to (0: no peer to relay to)
 */
public record PublishResult(MessageHash hash, boolean duplicate, int relayedTo) {
}
