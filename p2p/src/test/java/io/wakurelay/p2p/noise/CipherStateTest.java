package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A transport cipher state, with the JDK's ChaCha20-Poly1305 and with Conscrypt's. */
class CipherStateTest {

    private static final byte[] KEY = HexFormat.of().parseHex(
            "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void theNonceIsFourZeroBytesThenTheCounterLittleEndian(ChaChaPoly cipher) throws Exception {
        long counter = 0x0102030405060708L;
        CipherState state = new CipherState(cipher, KEY, counter);
        byte[] plaintext = "ChaChaPoly".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer ours = ByteBuffer.allocate(plaintext.length + 16);
        state.encrypt(ByteBuffer.wrap(plaintext), ours);

        javax.crypto.Cipher reference = javax.crypto.Cipher.getInstance("ChaCha20-Poly1305");
        reference.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(KEY, "ChaCha20"),
                new javax.crypto.spec.IvParameterSpec(HexFormat.of().parseHex("000000000807060504030201")));

        assertThat(ours.array()).isEqualTo(reference.doFinal(plaintext));
        assertThat(state.nonce()).isEqualTo(counter + 1);
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void theLastNonceBefore2To64Minus1IsUsedAndThenTheStateRefusesToGoOn(ChaChaPoly cipher) {
        CipherState sender = new CipherState(cipher, KEY, -2L); // 2^64-2, the last usable nonce
        CipherState receiver = new CipherState(cipher, KEY, -2L);

        byte[] data = {1, 2, 3};
        assertThat(NoiseHandshakeTest.roundTrip(sender, receiver, data, false)).isEqualTo(data);
        assertThat(Long.toUnsignedString(sender.nonce())).isEqualTo("18446744073709551615");

        assertThatThrownBy(() -> sender.encrypt(ByteBuffer.wrap(data), ByteBuffer.allocate(19)))
                .isInstanceOf(NoiseException.class).hasMessageContaining("exhausted");
        assertThatThrownBy(() -> receiver.decrypt(ByteBuffer.allocate(19), ByteBuffer.allocate(3)))
                .isInstanceOf(NoiseException.class).hasMessageContaining("exhausted");
        assertThatThrownBy(() -> sender.encryptWithAd(new byte[0], data)).isInstanceOf(NoiseException.class);
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void aTamperedMessageFailsWithoutMovingTheNonceOrWritingPlaintext(ChaChaPoly cipher) {
        CipherState sender = new CipherState(cipher, KEY);
        CipherState receiver = new CipherState(cipher, KEY);
        ByteBuffer ciphertext = ByteBuffer.allocate(20);
        sender.encrypt(ByteBuffer.wrap(new byte[] {9, 9, 9, 9}), ciphertext);
        byte[] good = ciphertext.array().clone();

        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x40;
            ByteBuffer out = ByteBuffer.allocate(4);
            assertThatThrownBy(() -> receiver.decrypt(ByteBuffer.wrap(bad), out)).isInstanceOf(NoiseException.class);
            assertThat(out.position()).isZero();
            assertThat(receiver.nonce()).isZero();
        }
        ByteBuffer out = ByteBuffer.allocate(4);
        receiver.decrypt(ByteBuffer.wrap(good), out);
        assertThat(out.array()).containsExactly(9, 9, 9, 9);
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void aMessageReplayedOrReorderedFailsBecauseTheNonceMovedOn(ChaChaPoly cipher) {
        CipherState sender = new CipherState(cipher, KEY);
        CipherState receiver = new CipherState(cipher, KEY);
        ByteBuffer first = ByteBuffer.allocate(17);
        ByteBuffer second = ByteBuffer.allocate(17);
        sender.encrypt(ByteBuffer.wrap(new byte[] {1}), first);
        sender.encrypt(ByteBuffer.wrap(new byte[] {2}), second);

        assertThatThrownBy(() -> receiver.decrypt(second.duplicate().flip(), ByteBuffer.allocate(1)))
                .isInstanceOf(NoiseException.class);
        receiver.decrypt(first.duplicate().flip(), ByteBuffer.allocate(1));
        assertThatThrownBy(() -> receiver.decrypt(first.duplicate().flip(), ByteBuffer.allocate(1)))
                .isInstanceOf(NoiseException.class);
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void buffersAtOffsetsInsideLargerBuffersAreHonoured(ChaChaPoly cipher) {
        CipherState sender = new CipherState(cipher, KEY);
        CipherState receiver = new CipherState(cipher, KEY);
        ByteBuffer frame = ByteBuffer.allocateDirect(100);
        frame.position(2); // room for a length prefix, as the frame codec leaves it
        ByteBuffer plaintext = ByteBuffer.allocate(50).position(10).limit(40);
        for (int i = 10; i < 40; i++) {
            plaintext.put(i, (byte) i);
        }

        assertThat(sender.encrypt(plaintext, frame)).isEqualTo(46);
        assertThat(frame.position()).isEqualTo(48);
        ByteBuffer decrypted = ByteBuffer.allocate(64).position(5);
        receiver.decrypt(frame.flip().position(2), decrypted);

        assertThat(decrypted.position()).isEqualTo(35);
        byte[] expected = new byte[30];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i + 10);
        }
        assertThat(Arrays.copyOfRange(decrypted.array(), 5, 35)).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("io.wakurelay.p2p.noise.Implementations#both")
    void oversizedMessagesAndShortOutputBuffersAreRefused(ChaChaPoly cipher) {
        CipherState state = new CipherState(cipher, KEY);

        assertThatThrownBy(() -> state.encrypt(ByteBuffer.allocate(CipherState.MAX_PLAINTEXT_LENGTH + 1),
                ByteBuffer.allocate(70000))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> state.encrypt(ByteBuffer.allocate(10), ByteBuffer.allocate(25)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> state.decrypt(ByteBuffer.allocate(15), ByteBuffer.allocate(10)))
                .isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> state.decrypt(ByteBuffer.allocate(65536), ByteBuffer.allocate(70000)))
                .isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> state.decrypt(ByteBuffer.allocate(30), ByteBuffer.allocate(13)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(state.nonce()).isZero();
    }
}
