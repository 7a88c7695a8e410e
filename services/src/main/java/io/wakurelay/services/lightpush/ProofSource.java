package io.wakurelay.services.lightpush;

import io.wakurelay.protocol.proto.WakuMessage;

/**
 * Where a publishing service gets the rate-limit proof a message must carry on a relay that validates RLN (RFC 17): as
 * nwaku's lightpush does ({@code waku_lightpush/callbacks.nim}, {@code checkAndGenerateRLNProof}), a message without a
 * proof gets one from the node's membership, and one that carries a proof is published as it is, for the relay to
 * validate. A node without a membership of its own answers every request with {@link ProofUnavailableException}.
 */
@FunctionalInterface
public interface ProofSource {
    /**
     * {@code message} with a proof of this node's membership appended.
     *
     * @throws ProofUnavailableException when no proof can be made, with nwaku's reason
     */
    WakuMessage prove(WakuMessage message);

    /** No proof could be made for a message (no credentials, or the epoch's messages used up). */
    final class ProofUnavailableException extends RuntimeException {
        public ProofUnavailableException(String reason) {
            super(reason, null, false, false);
        }
    }
}
