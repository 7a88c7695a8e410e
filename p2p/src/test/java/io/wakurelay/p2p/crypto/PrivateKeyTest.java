package io.wakurelay.p2p.crypto;

import static io.wakurelay.p2p.crypto.Vectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.Supplier;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrivateKeyTest {

    private static final byte[] DATA = "noise-libp2p-static-key:0123456789".getBytes(StandardCharsets.UTF_8);
    private static final BigInteger N = Secp256k1.N;

    private static Supplier<PrivateKey> generator(String type) {
        return type.equals("ed25519") ? PrivateKey::generateEd25519 : PrivateKey::generateSecp256k1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1"})
    void aGeneratedKeysSignatureVerifiesWithItsPublicKeyOnly(String type) {
        PrivateKey key = generator(type).get();
        PrivateKey other = generator(type).get();

        byte[] signature = key.sign(DATA);

        assertThat(key.publicKey().verify(DATA, signature)).isTrue();
        assertThat(other.publicKey().verify(DATA, signature)).isFalse();
        assertThat(key.publicKey().verify("other data".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1"})
    void aKeySurvivesMarshallingAndSignsTheSameAfterwards(String type) {
        PrivateKey key = generator(type).get();

        PrivateKey copy = PrivateKey.unmarshal(key.marshal());

        assertThat(copy).isEqualTo(key).hasSameHashCodeAs(key);
        assertThat(copy.publicKey()).isEqualTo(key.publicKey());
        assertThat(copy.sign(DATA)).isEqualTo(key.sign(DATA)); // both schemes are deterministic
    }

    @Test
    void ed25519MatchesRfc8032TestVectorOne() {
        PrivateKey key = PrivateKey.ed25519Seed(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"));

        assertThat(key.publicKey().raw())
                .isEqualTo(hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
        assertThat(key.sign(new byte[0])).isEqualTo(hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e0652249"
                + "01555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"));
        assertThat(key.raw()).hasSize(64);
    }

    @Test
    void theOlder96ByteEd25519FormIsReadWhenItsTwoPublicKeysAgree() {
        PrivateKey key = PrivateKey.generateEd25519();
        byte[] raw64 = key.raw();
        byte[] raw96 = java.util.Arrays.copyOf(raw64, 96);
        System.arraycopy(raw64, 32, raw96, 64, 32);

        assertThat(PrivateKey.unmarshal(privateKeyProtobuf(1, raw96))).isEqualTo(key);

        raw96[95] ^= 1;
        assertThatThrownBy(() -> PrivateKey.unmarshal(privateKeyProtobuf(1, raw96)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("differ");
    }

    @Test
    void ed25519DataWhosePublicKeyIsNotTheSeedsIsRefused() {
        byte[] raw = PrivateKey.generateEd25519().raw();
        System.arraycopy(PrivateKey.generateEd25519().publicKey().raw(), 0, raw, 32, 32);

        assertThatThrownBy(() -> PrivateKey.unmarshal(privateKeyProtobuf(1, raw)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("not that of its seed");
    }

    @Test
    void secp256k1SignaturesAreStrictDerWithLowS() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        for (int i = 0; i < 64; i++) {
            byte[] signature = key.sign(("message " + i).getBytes(StandardCharsets.UTF_8));

            BigInteger[] rs = Secp256k1.decodeDer(signature);
            assertThat(rs).as("strict DER").isNotNull();
            assertThat(rs[1]).isLessThanOrEqualTo(N.shiftRight(1));
            assertThat(Secp256k1.encodeDer(rs[0], rs[1])).isEqualTo(signature);
        }
    }

    @Test
    void aSignatureMadeByBouncyCastlesOwnEcdsaVerifiesAndATamperedOneDoesNot() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        ECDSASigner signer = new ECDSASigner(); // random k, S not normalised: about half are high-S
        signer.init(true, new ParametersWithRandom(
                new ECPrivateKeyParameters(new BigInteger(1, key.raw()), Secp256k1.DOMAIN), new SecureRandom()));
        for (int i = 0; i < 16; i++) {
            BigInteger[] rs = signer.generateSignature(Secp256k1.sha256(DATA));
            byte[] signature = Secp256k1.encodeDer(rs[0], rs[1]);

            assertThat(key.publicKey().verify(DATA, signature)).isTrue();
            assertThat(key.publicKey().verify(DATA, Secp256k1.encodeDer(rs[0], rs[1].add(BigInteger.ONE)))).isFalse();
            assertThat(key.publicKey().verify(DATA, Secp256k1.encodeDer(rs[0].add(BigInteger.ONE), rs[1]))).isFalse();
        }
    }

    @Test
    void ourSecp256k1SignatureVerifiesWithBouncyCastlesOwnEcdsa() {
        PrivateKey key = PrivateKey.generateSecp256k1();
        BigInteger[] rs = Secp256k1.decodeDer(key.sign(DATA));
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(Secp256k1.decodePoint(key.publicKey().raw()),
                Secp256k1.DOMAIN));

        assertThat(verifier.verifySignature(Secp256k1.sha256(DATA), rs[0], rs[1])).isTrue();
    }

    @Test
    void aNodeKeyInHexIsReadWithOrWithoutTheHexPrefix() {
        String hex = "53dadf1d5a164d6b4acdb15e24aa4c5b1d3461bdbd42abedb0a4404d56ced8fb"; // the spec's secp256k1 vector

        PrivateKey plain = PrivateKey.secp256k1Hex(hex);
        PrivateKey prefixed = PrivateKey.secp256k1Hex("0x" + hex.toUpperCase(java.util.Locale.ROOT));

        assertThat(plain).isEqualTo(prefixed).isEqualTo(PrivateKey.secp256k1(hex(hex)));
        assertThat(PeerId.fromPublicKey(plain.publicKey()).toBase58())
                .isEqualTo("16Uiu2HAmLhLvBoYaoZfaMUKuibM6ac163GwKY74c5kiSLg5KvLpY");
    }

    @Test
    void aNodeKeyOfZeroOrOfAtLeastTheCurveOrderIsRefusedWithAClearMessage() {
        String order = String.format("%064x", N);
        String belowOrder = String.format("%064x", N.subtract(BigInteger.ONE));

        assertThatThrownBy(() -> PrivateKey.secp256k1Hex("0".repeat(64)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("cannot be zero");
        assertThatThrownBy(() -> PrivateKey.secp256k1Hex(order))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("less than the curve order");
        assertThatThrownBy(() -> PrivateKey.secp256k1Hex("f".repeat(64)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("less than the curve order");
        assertThat(PrivateKey.secp256k1Hex(belowOrder).raw()).isEqualTo(hex(belowOrder));
    }

    @Test
    void aNodeKeyThatIsNot64HexDigitsIsRefused() {
        assertThatThrownBy(() -> PrivateKey.secp256k1Hex("ab".repeat(31)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("64 hex digits");
        assertThatThrownBy(() -> PrivateKey.secp256k1Hex("zz" + "ab".repeat(31)))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("not one");
        assertThatThrownBy(() -> PrivateKey.secp256k1(new byte[31])).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PrivateKey.ed25519Seed(new byte[33])).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void aPrivateKeyNeverShowsItsKeyMaterialInText() {
        PrivateKey key = PrivateKey.generateSecp256k1();

        assertThat(key.toString())
                .startsWith("secp256k1 private key of 16Uiu2")
                .doesNotContain(HexFormat.of().formatHex(key.raw()).substring(0, 16));
    }

    @Test
    void malformedPrivateKeyProtobufsAreRefused() {
        assertThatThrownBy(() -> PrivateKey.unmarshal(new byte[0])).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PrivateKey.unmarshal(hex("0802"))).isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PrivateKey.unmarshal(privateKeyProtobuf(9, new byte[32])))
                .isInstanceOf(KeyFormatException.class);
        assertThatThrownBy(() -> PrivateKey.unmarshal(privateKeyProtobuf(1, new byte[32])))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("64");
        assertThatThrownBy(() -> PrivateKey.unmarshal(privateKeyProtobuf(2, new byte[32])))
                .isInstanceOf(KeyFormatException.class).hasMessageContaining("zero");
    }

    /** A hand-written PrivateKey protobuf: field 1 varint type, field 2 bytes data. */
    static byte[] privateKeyProtobuf(int type, byte[] data) {
        byte[] out = new byte[4 + data.length];
        out[0] = 0x08;
        out[1] = (byte) type;
        out[2] = 0x12;
        out[3] = (byte) data.length; // every data here is under 128 bytes
        System.arraycopy(data, 0, out, 4, data.length);
        return out;
    }
}
