package io.wakurelay.discovery.enr;

/**
 * A record, or a field of one, that is not what EIP-778 or the Waku ENR RFC allows: bad RLP, too long, unsorted or
 * repeated keys, an unknown identity scheme, a signature that does not verify, a field of the wrong shape. The
 * message says which, without quoting more than a few bytes of what a peer sent.
 */
public final class EnrFormatException extends IllegalArgumentException {

    public EnrFormatException(String message) {
        super(message);
    }

    public EnrFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
