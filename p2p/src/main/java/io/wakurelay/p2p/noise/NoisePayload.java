package io.wakurelay.p2p.noise;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.crypto.KeyRefusedException;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.crypto.PublicKey;
import io.wakurelay.p2p.proto.NoiseExtensions;
import io.wakurelay.p2p.proto.NoiseHandshakePayload;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The libp2p handshake payload (noise/README.md "The libp2p Handshake Payload"): the identity public key, its
 * signature of {@code "noise-libp2p-static-key:" ‖ the Noise static public key}, and optional extensions (the
 * stream muxers, so that no multistream round trip is needed for them). It binds the Noise session to a peer id.
 */
public final class NoisePayload {

    private static final byte[] SIGNATURE_PREFIX = "noise-libp2p-static-key:".getBytes(StandardCharsets.US_ASCII);

    private NoisePayload() {
    }

    /** A payload whose signature verified: the remote peer, its key, and the muxers it offers (maybe none). */
    public record Verified(PeerId peerId, PublicKey key, List<String> streamMuxers) {

        public Verified {
            streamMuxers = List.copyOf(streamMuxers);
        }
    }

    /**
     * Our payload: the identity key and its signature of our static key, and the stream muxers when there are any.
     * The initiator must not send extensions before message 2, the first that guarantees secrecy for it.
     */
    public static byte[] create(PrivateKey identity, byte[] localStaticPublicKey, List<String> streamMuxers) {
        NoiseHandshakePayload.Builder payload = NoiseHandshakePayload.newBuilder()
                .setIdentityKey(ByteString.copyFrom(identity.publicKey().marshal()))
                .setIdentitySig(ByteString.copyFrom(identity.sign(signedData(localStaticPublicKey))));
        if (!streamMuxers.isEmpty()) {
            payload.setExtensions(NoiseExtensions.newBuilder().addAllStreamMuxers(streamMuxers));
        }
        return payload.build().toByteArray();
    }

    /**
     * The remote peer of a payload, after checking that its identity key signed {@code remoteStaticPublicKey}
     * (the static key the handshake delivered). A {@link NoiseException} for a missing or malformed key or
     * signature, or one that does not verify: the connection must then be closed.
     */
    public static Verified verify(byte[] payload, byte[] remoteStaticPublicKey) {
        NoiseHandshakePayload message;
        try {
            message = NoiseHandshakePayload.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new NoiseException("the handshake payload is not a NoiseHandshakePayload", e);
        }
        if (!message.hasIdentityKey() || !message.hasIdentitySig()) {
            throw new NoiseException("the handshake payload lacks the identity key or its signature");
        }
        PublicKey key;
        try {
            key = PublicKey.unmarshal(message.getIdentityKey().toByteArray());
        } catch (KeyRefusedException e) {
            throw new NoiseException("the handshake payload's identity key is refused: " + e.getMessage(), e);
        } catch (KeyFormatException e) {
            throw new NoiseException("the handshake payload's identity key is malformed: " + e.getMessage(), e);
        }
        if (!key.verify(signedData(remoteStaticPublicKey), message.getIdentitySig().toByteArray())) {
            throw new NoiseException("the identity key of " + PeerId.fromPublicKey(key)
                    + " did not sign the Noise static key");
        }
        return new Verified(PeerId.fromPublicKey(key), key, message.getExtensions().getStreamMuxersList());
    }

    private static byte[] signedData(byte[] staticPublicKey) {
        if (staticPublicKey.length != X25519.KEY_LENGTH) {
            throw new NoiseException("a Noise static key has 32 bytes, not " + staticPublicKey.length);
        }
        byte[] data = new byte[SIGNATURE_PREFIX.length + staticPublicKey.length];
        System.arraycopy(SIGNATURE_PREFIX, 0, data, 0, SIGNATURE_PREFIX.length);
        System.arraycopy(staticPublicKey, 0, data, SIGNATURE_PREFIX.length, staticPublicKey.length);
        return data;
    }
}
