package io.wakurelay.p2p.noise;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * One side of a {@code Noise_XX_25519_ChaChaPoly_SHA256} handshake with an empty prologue, as libp2p's Noise
 * (noise/README.md) runs it:
 * <pre>
 *   -&gt; e                    message 0: initiator, 32 bytes + payload (libp2p: empty)
 *   &lt;- e, ee, s, es         message 1: responder, 32 + 48 + payload + 16 bytes
 *   -&gt; s, se                message 2: initiator, 48 + payload + 16 bytes
 * </pre>
 * Messages here are bare Noise messages, without libp2p's 2-byte length prefix. Each side calls
 * {@link #writeMessage} and {@link #readMessage} in turn; after message 2 {@link #split()} gives the transport
 * cipher states. Any failure is a {@link NoiseException} and ends the handshake: every later call fails too.
 * Not thread safe.
 */
public final class NoiseHandshake {

    static final String PROTOCOL_NAME = "Noise_XX_25519_ChaChaPoly_SHA256";

    private static final int MESSAGES = 3;
    private static final int DH_LENGTH = X25519.KEY_LENGTH;
    private static final int ENCRYPTED_KEY_LENGTH = DH_LENGTH + CipherState.TAG_LENGTH;

    private final boolean initiator;
    private final X25519.KeyPair s;
    private final Supplier<X25519.KeyPair> ephemeralKeys;
    private final SymmetricState symmetric;
    private X25519.KeyPair e;
    private byte[] re;
    private byte[] rs;
    private int next; // the index of the next handshake message, 0 to 3
    private boolean failed;
    private boolean split;

    NoiseHandshake(boolean initiator, X25519.KeyPair staticKey, byte[] prologue,
            Supplier<X25519.KeyPair> ephemeralKeys, ChaChaPoly cipher) {
        this.initiator = initiator;
        this.s = staticKey;
        this.ephemeralKeys = ephemeralKeys;
        this.symmetric = new SymmetricState(PROTOCOL_NAME, cipher);
        symmetric.mixHash(prologue);
    }

    /**
     * The dialer's side, with this static key (one per host is enough: the identity key signs it each time) and this
     * implementation of ChaCha20-Poly1305 for the handshake and the session.
     */
    public static NoiseHandshake initiator(X25519.KeyPair staticKey, ChaChaPoly cipher) {
        return new NoiseHandshake(true, staticKey, new byte[0], X25519::generate, cipher);
    }

    /** The dialer's side with a new static key and the JDK's ChaCha20-Poly1305. */
    public static NoiseHandshake initiator() {
        return initiator(X25519.generate(), ChaChaPoly.JDK);
    }

    /** The listener's side, with this static key and implementation of ChaCha20-Poly1305. */
    public static NoiseHandshake responder(X25519.KeyPair staticKey, ChaChaPoly cipher) {
        return new NoiseHandshake(false, staticKey, new byte[0], X25519::generate, cipher);
    }

    /** The listener's side with a new static key and the JDK's ChaCha20-Poly1305. */
    public static NoiseHandshake responder() {
        return responder(X25519.generate(), ChaChaPoly.JDK);
    }

    /** Whether this side writes the next message. */
    public boolean isMyTurn() {
        return !failed && next < MESSAGES && (next % 2 == 0) == initiator;
    }

    /** The next handshake message, carrying {@code payload} (encrypted from message 1 on). */
    public byte[] writeMessage(byte[] payload) {
        checkUsable();
        if (!isMyTurn()) {
            throw new NoiseException("out of turn: the " + role() + " does not write message " + next);
        }
        int length = switch (next) {
            case 0 -> DH_LENGTH + payload.length;
            case 1 -> DH_LENGTH + ENCRYPTED_KEY_LENGTH + payload.length + CipherState.TAG_LENGTH;
            default -> ENCRYPTED_KEY_LENGTH + payload.length + CipherState.TAG_LENGTH;
        };
        if (length > CipherState.MAX_MESSAGE_LENGTH) {
            throw new NoiseException("a handshake message has at most 65535 bytes; this payload makes " + length);
        }
        try {
            byte[] message = new byte[length];
            int position = 0;
            if (next < 2) { // e
                e = ephemeralKeys.get();
                position = put(e.publicKeyBytes(), message, position);
                symmetric.mixHash(e.publicKeyBytes());
            }
            if (next == 1) { // ee, s, es (responder: DH(s, re))
                symmetric.mixKey(X25519.dh(e, re));
                position = put(symmetric.encryptAndHash(s.publicKeyBytes()), message, position);
                symmetric.mixKey(X25519.dh(s, re));
            }
            if (next == 2) { // s, se (initiator: DH(s, re))
                position = put(symmetric.encryptAndHash(s.publicKeyBytes()), message, position);
                symmetric.mixKey(X25519.dh(s, re));
            }
            put(symmetric.encryptAndHash(payload), message, position);
            next++;
            return message;
        } catch (RuntimeException failure) {
            throw fail(failure);
        }
    }

    /** Reads the remote side's next handshake message and returns its decrypted payload. */
    public byte[] readMessage(byte[] message) {
        checkUsable();
        if (next >= MESSAGES || isMyTurn()) {
            throw new NoiseException("out of turn: the " + role() + " does not read message " + next);
        }
        int minimum = switch (next) {
            case 0 -> DH_LENGTH;
            case 1 -> DH_LENGTH + ENCRYPTED_KEY_LENGTH + CipherState.TAG_LENGTH;
            default -> ENCRYPTED_KEY_LENGTH + CipherState.TAG_LENGTH;
        };
        if (message.length < minimum || message.length > CipherState.MAX_MESSAGE_LENGTH) {
            failed = true;
            throw new NoiseException("handshake message " + next + " has " + minimum + " to 65535 bytes, not "
                    + message.length);
        }
        try {
            int position = 0;
            if (next < 2) { // e
                re = Arrays.copyOfRange(message, 0, DH_LENGTH);
                position = DH_LENGTH;
                symmetric.mixHash(re);
            }
            if (next == 1) { // ee, s, es (initiator: DH(e, rs))
                symmetric.mixKey(X25519.dh(e, re));
                rs = symmetric.decryptAndHash(Arrays.copyOfRange(message, position, position + ENCRYPTED_KEY_LENGTH));
                position += ENCRYPTED_KEY_LENGTH;
                symmetric.mixKey(X25519.dh(e, rs));
            }
            if (next == 2) { // s, se (responder: DH(e, rs))
                rs = symmetric.decryptAndHash(Arrays.copyOfRange(message, 0, ENCRYPTED_KEY_LENGTH));
                position = ENCRYPTED_KEY_LENGTH;
                symmetric.mixKey(X25519.dh(e, rs));
            }
            byte[] payload = symmetric.decryptAndHash(Arrays.copyOfRange(message, position, message.length));
            next++;
            return payload;
        } catch (RuntimeException failure) {
            throw fail(failure);
        }
    }

    /** Whether all three messages have been written or read. */
    public boolean isComplete() {
        return next == MESSAGES && !failed;
    }

    /** Our static public key (what the identity key signs in our payload). */
    public byte[] localStaticKey() {
        return s.publicKey();
    }

    /** The remote side's static public key, known after message 1 (initiator) or 2 (responder). */
    public byte[] remoteStaticKey() {
        if (rs == null) {
            throw new NoiseException("the remote static key is not known yet");
        }
        return rs.clone();
    }

    /** The transport cipher states of this side; once, after the handshake is complete. */
    public CipherPair split() {
        if (!isComplete()) {
            throw new NoiseException("the handshake is not complete");
        }
        if (split) {
            throw new NoiseException("the handshake was split already");
        }
        split = true;
        CipherState[] pair = symmetric.split();
        return initiator ? new CipherPair(pair[0], pair[1]) : new CipherPair(pair[1], pair[0]);
    }

    /** The handshake hash h, for channel binding and tests. */
    byte[] handshakeHash() {
        return symmetric.handshakeHash();
    }

    private void checkUsable() {
        if (failed) {
            throw new NoiseException("the handshake failed earlier");
        }
    }

    private NoiseException fail(RuntimeException failure) {
        failed = true;
        return failure instanceof NoiseException noise ? noise
                : new NoiseException("handshake message " + next + " failed: " + failure.getMessage(), failure);
    }

    private String role() {
        return initiator ? "initiator" : "responder";
    }

    private static int put(byte[] source, byte[] target, int position) {
        System.arraycopy(source, 0, target, position, source.length);
        return position + source.length;
    }
}
