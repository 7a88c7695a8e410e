package io.wakurelay.p2p.crypto;

import static io.wakurelay.p2p.crypto.Vectors.bytes;
import static io.wakurelay.p2p.crypto.Vectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Random;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PublicKeyTest {

    @Test
    void anUncompressedSecp256k1KeyIsReadAndKeptCompressedAsGoAndJsLibp2pDo() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        byte[] uncompressed = Secp256k1.decodePoint(key.publicKey().raw()).getEncoded(false);

        PublicKey decoded = PublicKey.of(KeyType.SECP256K1, uncompressed);

        assertThat(uncompressed).hasSize(65);
        assertThat(decoded).isEqualTo(key.publicKey());
        assertThat(decoded.raw()).hasSize(33);
        assertThat(PeerId.fromPublicKey(decoded).toBase58()).startsWith("16Uiu2");
    }

    @Test
    void aHybridSecp256k1EncodingAndAPointOffTheCurveAreRefused() {
        byte[] uncompressed = Secp256k1.decodePoint(PrivateKey.generateSecp256k1().publicKey().raw())
                .getEncoded(false);
        byte[] hybrid = uncompressed.clone();
        hybrid[0] = (byte) ((uncompressed[64] & 1) == 0 ? 0x06 : 0x07);
        byte[] offCurve = uncompressed.clone();
        offCurve[64] ^= 1;

        assertThatThrownBy(() -> PublicKey.of(KeyType.SECP256K1, hybrid)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.of(KeyType.SECP256K1, offCurve)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.of(KeyType.SECP256K1, new byte[33])).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void anRsaKeyUnder2048BitsIsRefused() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        byte[] spki = generator.generateKeyPair().getPublic().getEncoded();

        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, spki))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("1024");
    }

    @Test
    void anRsaKeyOver4096BitsIsRefusedForWhatVerifyingWithItCosts() throws Exception {
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, rsaSpki(4097, BigInteger.valueOf(65537))))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("4097");
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, rsaSpki(8192, BigInteger.valueOf(65537))))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("8192");
    }

    @Test
    void anRsaExponentMustBeOddAndFrom3To2ToThe31Minus1() throws Exception {
        BigInteger huge = BigInteger.ONE.shiftLeft(2046).add(BigInteger.ONE);

        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, rsaSpki(2048, huge)))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("2047 bits");
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, rsaSpki(2048, BigInteger.valueOf((1L << 31) + 1))))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("2147483649");
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, rsaSpki(2048, BigInteger.valueOf(65536))))
                .isInstanceOf(KeyRefusedException.class);
        assertThat(PublicKey.of(KeyType.RSA, rsaSpki(4096, BigInteger.valueOf(Integer.MAX_VALUE))).type())
                .isEqualTo(KeyType.RSA);
        assertThat(PublicKey.of(KeyType.RSA, rsaSpki(2048, BigInteger.valueOf(3))).type()).isEqualTo(KeyType.RSA);
    }

    /** The SPKI of an RSA key of {@code bits} (a random odd modulus: only verifying's cost depends on it). */
    static byte[] rsaSpki(int bits, BigInteger exponent) throws Exception {
        BigInteger modulus = new BigInteger(bits, new Random(bits)).setBit(bits - 1).setBit(0);
        return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent)).getEncoded();
    }

    @ParameterizedTest
    @ValueSource(strings = {"secp384r1", "secp521r1"})
    void anEcdsaKeyOnP384OrP521IsRefusedForWhatVerifyingWithItCosts(String curve) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        byte[] spki = generator.generateKeyPair().getPublic().getEncoded();

        assertThatThrownBy(() -> PublicKey.of(KeyType.ECDSA, spki))
                .isInstanceOf(KeyRefusedException.class).hasMessageContaining("P-256 only");
    }

    @Test
    void anEcdsaKeyOnP256IsTaken() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));

        assertThat(PublicKey.of(KeyType.ECDSA, generator.generateKeyPair().getPublic().getEncoded()).type())
                .isEqualTo(KeyType.ECDSA);
    }

    @Test
    void anEcdsaKeyOnACurveOtherThanTheNistPrimeCurvesIsRefused() throws Exception {
        byte[] point = Secp256k1.decodePoint(PrivateKey.generateSecp256k1().publicKey().raw()).getEncoded(false);
        byte[] secp256k1Spki = new SubjectPublicKeyInfo(
                new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, SECObjectIdentifiers.secp256k1), point)
                .getEncoded();

        assertThatThrownBy(() -> PublicKey.of(KeyType.ECDSA, secp256k1Spki)).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void keysOfTheWrongTypeOrLengthAreRefused() {
        byte[] rsaSpki = PublicKey.unmarshal(bytes("spec.rsa.public")).raw();
        byte[] ecdsaSpki = PublicKey.unmarshal(bytes("spec.ecdsa.public")).raw();

        assertThatThrownBy(() -> PublicKey.of(KeyType.ED25519, new byte[31])).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, ecdsaSpki)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.of(KeyType.ECDSA, rsaSpki)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.of(KeyType.RSA, Arrays.copyOf(rsaSpki, 100)))
                .isInstanceOf(KeyFormatException.class);
    }

    @Test
    void malformedPublicKeyProtobufsAreRefused() {
        byte[] ed25519 = bytes("spec.ed25519.public");
        byte[] unknownField = Arrays.copyOf(ed25519, ed25519.length + 2);
        unknownField[ed25519.length] = 0x18; // field 3, varint
        unknownField[ed25519.length + 1] = 0x01;
        byte[] unknownType = ed25519.clone();
        unknownType[1] = 0x07;

        assertThatThrownBy(() -> PublicKey.unmarshal(new byte[0])).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.unmarshal(Arrays.copyOf(ed25519, 20)))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.unmarshal(hex("0801"))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.unmarshal(unknownField)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PublicKey.unmarshal(unknownType)).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> KeyType.of(4)).isInstanceOf(KeyFormatException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spec.ed25519.public", "spec.secp256k1.public", "spec.rsa.public", "spec.ecdsa.public"})
    void malformedSignaturesAreFalseAndNeverThrow(String vector) {
        PublicKey key = PublicKey.unmarshal(bytes(vector));
        byte[] data = {1, 2, 3};
        Random random = new Random(42);

        assertThat(key.verify(data, new byte[0])).isFalse();
        assertThat(key.verify(data, null)).isFalse();
        assertThat(key.verify(data, new byte[64])).isFalse();
        assertThat(key.verify(data, hex("3006020101020101"))).isFalse();
        assertThat(key.verify(data, hex("30060201000201ff"))).isFalse();
        for (int length : new int[] {1, 8, 64, 70, 71, 72, 73, 256, 512, 1000}) {
            byte[] junk = new byte[length];
            random.nextBytes(junk);
            if (length > 2) {
                junk[0] = 0x30;
                junk[1] = (byte) (length - 2);
            }
            assertThat(key.verify(data, junk)).isFalse();
        }
    }

    @Test
    void nonStrictDerSecp256k1SignaturesAreRefused() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        byte[] data = {1, 2, 3};
        byte[] strict = key.sign(data);
        java.math.BigInteger[] rs = Secp256k1.decodeDer(strict);
        // r padded with a needless zero byte: valid BER, not DER
        byte[] r = rs[0].toByteArray();
        byte[] s = rs[1].toByteArray();
        byte[] padded = new byte[7 + r.length + s.length];
        padded[0] = 0x30;
        padded[1] = (byte) (padded.length - 2);
        padded[2] = 0x02;
        padded[3] = (byte) (r.length + 1);
        System.arraycopy(r, 0, padded, 5, r.length);
        padded[5 + r.length] = 0x02;
        padded[6 + r.length] = (byte) s.length;
        System.arraycopy(s, 0, padded, 7 + r.length, s.length);
        byte[] trailing = Arrays.copyOf(strict, strict.length + 1);

        assertThat(key.publicKey().verify(data, strict)).isTrue();
        assertThat(key.publicKey().verify(data, padded)).isFalse();
        assertThat(key.publicKey().verify(data, trailing)).isFalse();
    }

    @Test
    void keysAreEqualByTypeAndBytesAndNameTheirPeerInText() {
        PublicKey a = PublicKey.unmarshal(bytes("spec.ed25519.public"));
        PublicKey b = PublicKey.of(KeyType.ED25519, a.raw());

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(PrivateKey.generateEd25519().publicKey());
        assertThat(a.toString()).isEqualTo("ed25519 public key of 12D3KooWBtg3aaRMjxwedh83aGiUkwSxDwUZkzuJcfaqUmo7R3pq");
    }
}
