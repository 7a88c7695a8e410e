package io.wakurelay.p2p.mss;

import java.util.List;

/** A multistream-select negotiation failed: the peer broke the protocol, or no protocol could be agreed. */
public class NegotiationException extends RuntimeException {
    public NegotiationException(String message) {
        super(message);
    }

    /** The listener answered {@code na} to every proposal. */
    public static final class NotSupported extends NegotiationException {
        private final List<String> proposed;

        public NotSupported(List<String> proposed) {
            super("the peer supports none of " + proposed);
            this.proposed = List.copyOf(proposed);
        }

        public List<String> proposed() {
            return proposed;
        }
    }
}
