package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cacophony test vector for Noise_XX_25519_ChaChaPoly_SHA256: fixed static and ephemeral keys and a prologue
 * (libp2p's is empty; the package-private constructor takes one), every message byte for byte, and the handshake
 * hash; with the JDK's ChaCha20-Poly1305 and with Conscrypt's.
 */
class NoiseVectorsTest {

    private static final Properties VECTOR = load();

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void everyHandshakeAndTransportMessageMatchesTheCacophonyVector(ChaChaPoly cipher) {
        NoiseHandshake initiator = new NoiseHandshake(true, X25519.fromPrivateKey(hex("init_static")),
                hex("init_prologue"), () -> X25519.fromPrivateKey(hex("init_ephemeral")), cipher);
        NoiseHandshake responder = new NoiseHandshake(false, X25519.fromPrivateKey(hex("resp_static")),
                hex("resp_prologue"), () -> X25519.fromPrivateKey(hex("resp_ephemeral")), cipher);

        exchange(initiator, responder, 0);
        exchange(responder, initiator, 1);
        exchange(initiator, responder, 2);

        assertThat(initiator.handshakeHash()).isEqualTo(hex("handshake_hash"));
        assertThat(responder.handshakeHash()).isEqualTo(hex("handshake_hash"));
        assertThat(initiator.remoteStaticKey()).isEqualTo(X25519.fromPrivateKey(hex("resp_static")).publicKey());
        assertThat(responder.remoteStaticKey()).isEqualTo(X25519.fromPrivateKey(hex("init_static")).publicKey());

        CipherPair initiatorCiphers = initiator.split();
        CipherPair responderCiphers = responder.split();
        transport(responderCiphers.sender(), initiatorCiphers.receiver(), 3);
        transport(initiatorCiphers.sender(), responderCiphers.receiver(), 4);
        transport(responderCiphers.sender(), initiatorCiphers.receiver(), 5);
    }

    private static void exchange(NoiseHandshake writer, NoiseHandshake reader, int index) {
        byte[] message = writer.writeMessage(hex("message." + index + ".payload"));

        assertThat(message).as("handshake message %d", index).isEqualTo(hex("message." + index + ".ciphertext"));
        assertThat(reader.readMessage(message)).isEqualTo(hex("message." + index + ".payload"));
    }

    private static void transport(CipherState sender, CipherState receiver, int index) {
        byte[] payload = hex("message." + index + ".payload");
        ByteBuffer ciphertext = ByteBuffer.allocate(payload.length + CipherState.TAG_LENGTH);
        sender.encrypt(ByteBuffer.wrap(payload), ciphertext);

        assertThat(ciphertext.array()).as("transport message %d", index)
                .isEqualTo(hex("message." + index + ".ciphertext"));
        ByteBuffer plaintext = ByteBuffer.allocate(payload.length);
        receiver.decrypt(ciphertext.flip(), plaintext);
        assertThat(Arrays.copyOf(plaintext.array(), plaintext.position())).isEqualTo(payload);
    }

    private static byte[] hex(String name) {
        return HexFormat.of().parseHex(VECTOR.getProperty(name));
    }

    private static Properties load() {
        try (InputStream in = NoiseVectorsTest.class.getResourceAsStream("cacophony-xx.properties")) {
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
