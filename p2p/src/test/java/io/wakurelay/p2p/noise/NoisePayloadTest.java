package io.wakurelay.p2p.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.wakurelay.p2p.crypto.KeyRefusedException;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.proto.NoiseHandshakePayload;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.RSAPublicKeySpec;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class NoisePayloadTest {

    private final byte[] staticKey = X25519.generate().publicKey();

    private static Supplier<PrivateKey> identity(String type) {
        return type.equals("ed25519") ? PrivateKey::generateEd25519 : PrivateKey::generateSecp256k1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ed25519", "secp256k1"})
    void aPayloadVerifiesForTheStaticKeyItsIdentitySigned(String type) {
        PrivateKey identity = identity(type).get();

        NoisePayload.Verified verified = NoisePayload.verify(
                NoisePayload.create(identity, staticKey, List.of("/yamux/1.0.0")), staticKey);

        assertThat(verified.peerId()).isEqualTo(PeerId.fromPublicKey(identity.publicKey()));
        assertThat(verified.key()).isEqualTo(identity.publicKey());
        assertThat(verified.streamMuxers()).containsExactly("/yamux/1.0.0");
    }

    @Test
    void thePayloadIsTheSpecsProtobufSigningThePrefixedStaticKey() throws Exception {
        PrivateKey identity = PrivateKey.generateEd25519();

        NoiseHandshakePayload payload = NoiseHandshakePayload.parseFrom(
                NoisePayload.create(identity, staticKey, List.of()));

        assertThat(payload.getIdentityKey().toByteArray()).isEqualTo(identity.publicKey().marshal());
        byte[] signed = ByteString.copyFrom("noise-libp2p-static-key:", StandardCharsets.US_ASCII)
                .concat(ByteString.copyFrom(staticKey)).toByteArray();
        assertThat(identity.publicKey().verify(signed, payload.getIdentitySig().toByteArray())).isTrue();
        assertThat(payload.hasExtensions()).as("no extensions without muxers").isFalse();
    }

    @Test
    void aPayloadSigningAnotherStaticKeyIsRefused() {
        byte[] payload = NoisePayload.create(PrivateKey.generateSecp256k1(), staticKey, List.of());

        assertThatThrownBy(() -> NoisePayload.verify(payload, X25519.generate().publicKey()))
                .isInstanceOf(NoiseException.class).hasMessageContaining("did not sign");
    }

    @Test
    void aPayloadWhoseKeyIsSwappedForAnotherIsRefused() {
        PrivateKey identity = PrivateKey.generateEd25519();
        NoiseHandshakePayload original = parse(NoisePayload.create(identity, staticKey, List.of()));
        byte[] swapped = original.toBuilder()
                .setIdentityKey(ByteString.copyFrom(PrivateKey.generateEd25519().publicKey().marshal()))
                .build().toByteArray();

        assertThatThrownBy(() -> NoisePayload.verify(swapped, staticKey)).isInstanceOf(NoiseException.class);
    }

    @Test
    void malformedPayloadsAreRefused() {
        PrivateKey identity = PrivateKey.generateEd25519();
        NoiseHandshakePayload good = parse(NoisePayload.create(identity, staticKey, List.of()));

        assertThatThrownBy(() -> NoisePayload.verify(new byte[0], staticKey))
                .isInstanceOf(NoiseException.class).hasMessageContaining("lacks");
        assertThatThrownBy(() -> NoisePayload.verify(new byte[] {0x0a, 0x7f}, staticKey))
                .isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> NoisePayload.verify(good.toBuilder().clearIdentitySig().build().toByteArray(),
                staticKey)).isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> NoisePayload.verify(good.toBuilder()
                .setIdentityKey(ByteString.copyFrom(new byte[] {8, 1, 0x12, 1, 0})).build().toByteArray(), staticKey))
                .isInstanceOf(NoiseException.class).hasMessageContaining("malformed");
        assertThatThrownBy(() -> NoisePayload.verify(good.toBuilder()
                .setIdentitySig(ByteString.copyFrom(new byte[3])).build().toByteArray(), staticKey))
                .isInstanceOf(NoiseException.class);
        assertThatThrownBy(() -> NoisePayload.verify(good.toByteArray(), new byte[31]))
                .isInstanceOf(NoiseException.class);
    }

    @Test
    void aPayloadWhoseRsaKeyIsPastTheBoundsIsRefusedAndSaysWhy() throws Exception {
        BigInteger modulus = new BigInteger(8192, new Random(1)).setBit(8191).setBit(0);
        byte[] spki = KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(modulus, BigInteger.valueOf(65537))).getEncoded();
        byte[] key = io.wakurelay.p2p.proto.PublicKey.newBuilder().setType(io.wakurelay.p2p.proto.KeyType.forNumber(0))
                .setData(ByteString.copyFrom(spki)).build().toByteArray();
        byte[] payload = NoiseHandshakePayload.newBuilder().setIdentityKey(ByteString.copyFrom(key))
                .setIdentitySig(ByteString.copyFrom(new byte[1024])).build().toByteArray();

        assertThatThrownBy(() -> NoisePayload.verify(payload, staticKey)).isInstanceOf(NoiseException.class)
                .hasMessage("the handshake payload's identity key is refused: RSA keys of 2048 to 4096 bits only, not 8192")
                .hasCauseInstanceOf(KeyRefusedException.class);
    }

    private static NoiseHandshakePayload parse(byte[] bytes) {
        try {
            return NoiseHandshakePayload.parseFrom(bytes);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
