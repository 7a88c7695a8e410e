package io.wakurelay.p2p.crypto;

import static io.wakurelay.p2p.crypto.Vectors.bytes;
import static io.wakurelay.p2p.crypto.Vectors.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The peer-ids.md test vectors, go-libp2p's key fixtures, and the peer ids and signatures js-libp2p derives. */
class KeyVectorsTest {

    private static final byte[] GO_MESSAGE = "Libp2p is the _best_!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JS_MESSAGE = "wakurelay".getBytes(StandardCharsets.UTF_8);

    @Test
    void theEd25519PrivateKeyVectorGivesThePublicKeyVector() {
        PrivateKey key = PrivateKey.unmarshal(bytes("spec.ed25519.private"));

        assertThat(key.type()).isEqualTo(KeyType.ED25519);
        assertThat(key.publicKey().marshal()).isEqualTo(bytes("spec.ed25519.public"));
        assertThat(key.marshal()).isEqualTo(bytes("spec.ed25519.private"));
    }

    @Test
    void theSecp256k1PrivateKeyVectorGivesThePublicKeyVector() {
        PrivateKey key = PrivateKey.unmarshal(bytes("spec.secp256k1.private"));

        assertThat(key.type()).isEqualTo(KeyType.SECP256K1);
        assertThat(key.publicKey().marshal()).isEqualTo(bytes("spec.secp256k1.public"));
        assertThat(key.marshal()).isEqualTo(bytes("spec.secp256k1.private"));
        assertThat(key.raw()).hasSize(32);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1", "rsa", "ecdsa"})
    void everyPublicKeyVectorMarshalsBackToItsOwnBytes(String type) {
        byte[] marshalled = bytes("spec." + type + ".public");

        PublicKey key = PublicKey.unmarshal(marshalled);

        assertThat(key.type().name()).isEqualToIgnoringCase(type);
        assertThat(key.marshal()).isEqualTo(marshalled);
        assertThat(PublicKey.of(key.type(), key.raw())).isEqualTo(key);
    }

    @Test
    void theRsaPublicKeyVectorIsThatOfTheRsaPrivateKeyVector() throws Exception {
        byte[] pkcs1 = privateKeyData("spec.rsa.private");
        org.bouncycastle.asn1.pkcs.RSAPrivateKey privateKey =
                org.bouncycastle.asn1.pkcs.RSAPrivateKey.getInstance(ASN1Primitive.fromByteArray(pkcs1));

        RSAPublicKey publicKey = (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new X509EncodedKeySpec(PublicKey.unmarshal(bytes("spec.rsa.public")).raw()));

        assertThat(publicKey.getModulus()).isEqualTo(privateKey.getModulus());
        assertThat(publicKey.getPublicExponent()).isEqualTo(privateKey.getPublicExponent());
        assertThat(publicKey.getModulus().bitLength()).isEqualTo(4096);
    }

    @Test
    void theEcdsaPublicKeyVectorIsThatOfTheEcdsaPrivateKeyVector() throws Exception {
        byte[] sec1 = privateKeyData("spec.ecdsa.private");
        BigInteger d = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(ASN1Primitive.fromByteArray(sec1)).getKey();
        X9ECParameters p256 = ECNamedCurveTable.getByName("P-256");
        ECPoint expected = p256.getG().multiply(d).normalize();

        ECPublicKey publicKey = (ECPublicKey) KeyFactory.getInstance("EC")
                .generatePublic(new X509EncodedKeySpec(PublicKey.unmarshal(bytes("spec.ecdsa.public")).raw()));

        assertThat(publicKey.getW().getAffineX()).isEqualTo(expected.getAffineXCoord().toBigInteger());
        assertThat(publicKey.getW().getAffineY()).isEqualTo(expected.getAffineYCoord().toBigInteger());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rsa", "ecdsa"})
    void rsaAndEcdsaPrivateKeysAreRefusedBecauseThisNodeNeverSignsWithThem(String type) {
        assertThatThrownBy(() -> PrivateKey.unmarshal(bytes("spec." + type + ".private")))
                .isInstanceOf(KeyFormatException.class)
                .hasMessageContaining("not supported");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1", "rsa", "ecdsa"})
    void thePeerIdOfEveryPublicKeyVectorIsTheOneJsLibp2pDerives(String type) {
        PublicKey key = PublicKey.unmarshal(bytes("spec." + type + ".public"));

        PeerId id = PeerId.fromPublicKey(key);

        assertThat(id.toBase58()).isEqualTo(text("js." + type + ".peerId"));
        assertThat(id.toCid()).isEqualTo(text("js." + type + ".cid"));
        assertThat(PeerId.parse(text("js." + type + ".cid"))).isEqualTo(id);
        assertThat(id.matches(key)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1"})
    void signaturesOfThePrivateKeyVectorsAreByteForByteThoseOfJsLibp2p(String type) {
        PrivateKey key = PrivateKey.unmarshal(bytes("spec." + type + ".private"));

        byte[] signature = key.sign(JS_MESSAGE);

        assertThat(signature).isEqualTo(bytes("js." + type + ".sig"));
        assertThat(key.publicKey().verify(JS_MESSAGE, signature)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 3})
    void goLibp2pFixtureSignaturesVerifyAndTamperedOnesDoNot(int type) {
        PublicKey key = PublicKey.unmarshal(bytes("go." + type + ".pub"));
        byte[] signature = bytes("go." + type + ".sig");

        assertThat(key.type()).isEqualTo(KeyType.of(type));
        assertThat(key.verify(GO_MESSAGE, signature)).isTrue();

        byte[] tampered = signature.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThat(key.verify(GO_MESSAGE, tampered)).isFalse();
        byte[] otherMessage = Arrays.copyOf(GO_MESSAGE, GO_MESSAGE.length);
        otherMessage[0] ^= 1;
        assertThat(key.verify(otherMessage, signature)).isFalse();
    }

    @Test
    void theGoLibp2pSecp256k1FixtureSignatureIsReproducedExactly() {
        PrivateKey key = PrivateKey.unmarshal(bytes("go.2.priv"));

        assertThat(key.publicKey().marshal()).isEqualTo(bytes("go.2.pub"));
        assertThat(key.sign(GO_MESSAGE)).isEqualTo(bytes("go.2.sig"));
    }

    private static byte[] privateKeyData(String name) {
        try {
            return io.wakurelay.p2p.proto.PrivateKey.parseFrom(bytes(name)).getData().toByteArray();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
