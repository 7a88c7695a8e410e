package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;

import com.southernstorm.noise.protocol.CipherStatePair;
import com.southernstorm.noise.protocol.HandshakeState;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our handshake and transport against an independent implementation of the Noise framework (noise-java, Signal's
 * fork of Rhys Weatherley's library), in both roles, with libp2p payloads, with the JDK's ChaCha20-Poly1305 and
 * with Conscrypt's.
 */
class NoiseJavaInteropTest {

    private static final String PROTOCOL = "Noise_XX_25519_ChaChaPoly_SHA256";

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void ourInitiatorCompletesAHandshakeAndTalksWithNoiseJavasResponder(ChaChaPoly cipher) throws Exception {
        PrivateKey identity = PrivateKey.generateSecp256k1();
        NoiseHandshake ours = NoiseHandshake.initiator(X25519.generate(), cipher);
        HandshakeState theirs = new HandshakeState(PROTOCOL, HandshakeState.RESPONDER);
        theirs.getLocalKeyPair().generateKeyPair();
        theirs.start();

        assertThat(read(theirs, ours.writeMessage(new byte[0]))).isEmpty();
        byte[] theirPayload = "their payload".getBytes(StandardCharsets.UTF_8);
        assertThat(ours.readMessage(write(theirs, theirPayload))).isEqualTo(theirPayload);
        byte[] ourPayload = NoisePayload.create(identity, ours.localStaticKey(), List.of("/yamux/1.0.0"));
        byte[] received = read(theirs, ours.writeMessage(ourPayload));

        assertThat(theirs.getAction()).isEqualTo(HandshakeState.SPLIT);
        assertThat(ours.remoteStaticKey()).isEqualTo(publicKey(theirs));
        assertThat(NoisePayload.verify(received, remoteKey(theirs)).peerId())
                .isEqualTo(PeerId.fromPublicKey(identity.publicKey()));
        exchangeTransportMessages(ours.split(), theirs.split());
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void noiseJavasInitiatorCompletesAHandshakeAndTalksWithOurResponder(ChaChaPoly cipher) throws Exception {
        PrivateKey identity = PrivateKey.generateEd25519();
        NoiseHandshake ours = NoiseHandshake.responder(X25519.generate(), cipher);
        HandshakeState theirs = new HandshakeState(PROTOCOL, HandshakeState.INITIATOR);
        theirs.getLocalKeyPair().generateKeyPair();
        theirs.start();

        assertThat(ours.readMessage(write(theirs, new byte[0]))).isEmpty();
        byte[] ourPayload = NoisePayload.create(identity, ours.localStaticKey(), List.of("/mplex/6.7.0"));
        byte[] received = read(theirs, ours.writeMessage(ourPayload));
        assertThat(NoisePayload.verify(received, remoteKey(theirs)).streamMuxers()).containsExactly("/mplex/6.7.0");
        byte[] theirPayload = "their last payload".getBytes(StandardCharsets.UTF_8);
        assertThat(ours.readMessage(write(theirs, theirPayload))).isEqualTo(theirPayload);

        assertThat(ours.isComplete()).isTrue();
        assertThat(ours.remoteStaticKey()).isEqualTo(publicKey(theirs));
        exchangeTransportMessages(ours.split(), theirs.split());
    }

    private static void exchangeTransportMessages(CipherPair ours, CipherStatePair theirs) throws Exception {
        for (int i = 0; i < 10; i++) {
            byte[] data = new byte[i * 997];
            Arrays.fill(data, (byte) i);

            ByteBuffer ciphertext = ByteBuffer.allocate(data.length + 16);
            ours.sender().encrypt(ByteBuffer.wrap(data), ciphertext);
            byte[] decrypted = new byte[data.length];
            int length = theirs.getReceiver().decryptWithAd(null, ciphertext.array(), 0, decrypted, 0,
                    ciphertext.array().length);
            assertThat(Arrays.copyOf(decrypted, length)).isEqualTo(data);

            byte[] theirCiphertext = new byte[data.length + 16];
            theirs.getSender().encryptWithAd(null, data, 0, theirCiphertext, 0, data.length);
            ByteBuffer plaintext = ByteBuffer.allocateDirect(data.length);
            ours.receiver().decrypt(ByteBuffer.wrap(theirCiphertext), plaintext);
            byte[] ourDecrypted = new byte[data.length];
            plaintext.flip().get(ourDecrypted);
            assertThat(ourDecrypted).isEqualTo(data);
        }
    }

    private static byte[] write(HandshakeState state, byte[] payload) throws Exception {
        assertThat(state.getAction()).isEqualTo(HandshakeState.WRITE_MESSAGE);
        byte[] buffer = new byte[65535];
        int length = state.writeMessage(buffer, 0, payload, 0, payload.length);
        return Arrays.copyOf(buffer, length);
    }

    private static byte[] read(HandshakeState state, byte[] message) throws Exception {
        assertThat(state.getAction()).isEqualTo(HandshakeState.READ_MESSAGE);
        byte[] buffer = new byte[65535];
        int length = state.readMessage(message, 0, message.length, buffer, 0);
        return Arrays.copyOf(buffer, length);
    }

    private static byte[] publicKey(HandshakeState state) {
        byte[] key = new byte[32];
        state.getLocalKeyPair().getPublicKey(key, 0);
        return key;
    }

    private static byte[] remoteKey(HandshakeState state) {
        byte[] key = new byte[32];
        state.getRemotePublicKey().getPublicKey(key, 0);
        return key;
    }
}
