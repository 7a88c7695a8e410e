package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class X25519Test {

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void aliceAndBobOfRfc7748Section61AgreeOnTheirSecret() {
        X25519.KeyPair alice = X25519.fromPrivateKey(
                hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"));
        X25519.KeyPair bob = X25519.fromPrivateKey(
                hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"));

        assertThat(alice.publicKey()).isEqualTo(hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"));
        assertThat(bob.publicKey()).isEqualTo(hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"));
        byte[] secret = hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
        assertThat(X25519.dh(alice, bob.publicKey())).isEqualTo(secret);
        assertThat(X25519.dh(bob, alice.publicKey())).isEqualTo(secret);
    }

    @Test
    void theFirstVectorOfRfc7748Section52IsReproduced() {
        X25519.KeyPair scalar = X25519.fromPrivateKey(
                hex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"));

        assertThat(X25519.dh(scalar, hex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")))
                .isEqualTo(hex("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"));
    }

    @Test
    void theTopBitOfARemoteKeyIsIgnoredAsRfc7748Requires() {
        X25519.KeyPair local = X25519.generate();
        byte[] remote = X25519.generate().publicKey();
        byte[] flipped = remote.clone();
        flipped[31] ^= (byte) 0x80;

        assertThat(X25519.dh(local, flipped)).isEqualTo(X25519.dh(local, remote));
    }

    @Test
    void aLowOrderRemoteKeyIsANoiseExceptionNotAnAllZeroSecret() {
        X25519.KeyPair local = X25519.generate();

        assertThatThrownBy(() -> X25519.dh(local, new byte[32])).isInstanceOf(NoiseException.class);
        byte[] one = new byte[32];
        one[0] = 1;
        assertThatThrownBy(() -> X25519.dh(local, one)).isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> X25519.dh(local, new byte[31])).isInstanceOf(NoiseException.class);
    }

    @Test
    void generatedPairsAgreeAndNeverPrintTheirPrivateKey() {
        X25519.KeyPair a = X25519.generate();
        X25519.KeyPair b = X25519.generate();

        assertThat(X25519.dh(a, b.publicKey())).isEqualTo(X25519.dh(b, a.publicKey()));
        assertThat(a.toString()).isEqualTo("X25519 key pair");
    }
}
