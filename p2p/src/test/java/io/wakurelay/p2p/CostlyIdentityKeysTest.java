package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import com.google.protobuf.ByteString;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.proto.NoiseHandshakePayload;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.KeyFactory;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, G4: Noise handshakes proving an RSA identity key whose public exponent is as long as its modulus cost the
 * node 17 ms of event-loop CPU each (0.55 ms for an honest key), and honest pings took 0.7 to 3.3 s while they went
 * on. Such a key, and one over 4096 bits, is now refused as it is read, before any verification.
 */
class CostlyIdentityKeysTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int ATTEMPTS = 3;
    private final TestHosts hosts = new TestHosts();

    @AfterEach
    void close() {
        hosts.close();
    }

    @Test
    void handshakesProvingRsaKeysPastTheBoundsAreRefusedAndCountedWhileAnHonestPeerCarriesOn() throws Exception {
        Host target = hosts.start();
        Connection honest = hosts.start().dial(TestHosts.address(target)).block(WAIT);
        Random random = new Random(27);
        BigInteger modulus3072 = new BigInteger(3072, random).setBit(3071).setBit(0);
        byte[] hugeExponent = rsaKey(modulus3072, new BigInteger(3071, random).setBit(3070).setBit(0));
        byte[] oversized = rsaKey(new BigInteger(8192, random).setBit(8191).setBit(0), BigInteger.valueOf(65537));

        for (int i = 0; i < ATTEMPTS; i++) {
            handshakeWith(target, hugeExponent, 3072 / 8, 20 + 2 * i);
            handshakeWith(target, oversized, 8192 / 8, 21 + 2 * i);
        }

        Eventually.until("every handshake counted", WAIT, () -> handshakes(target, "key_refused") == 2 * ATTEMPTS);
        assertThat(handshakes(target, "noise_failed")).isZero();
        EchoClient.Result echo = EchoClient.run(honest, 1_000_000).block(WAIT);
        assertThat(echo.receivedSha256()).isEqualTo(echo.sentSha256());
        assertThat(honest.isOpen()).isTrue();
        System.out.printf("CostlyIdentityKeysTest, G4: %d handshakes with an RSA key of a 3071-bit exponent and %d with "
                        + "an 8192-bit modulus: key_refused %.0f; the honest peer's echo went on%n", ATTEMPTS, ATTEMPTS,
                handshakes(target, "key_refused"));
    }

    /** A dialer on 127.0.0.{from} proving {@code key} with a signature of random bytes: the host must hang up. */
    private static void handshakeWith(Host target, byte[] key, int signatureBytes, int from) throws Exception {
        byte[] signature = new byte[signatureBytes];
        new Random(from).nextBytes(signature);
        signature[0] = 0; // below any modulus of that length
        byte[] payload = NoiseHandshakePayload.newBuilder().setIdentityKey(ByteString.copyFrom(key))
                .setIdentitySig(ByteString.copyFrom(signature)).build().toByteArray();
        InetAddress address = InetAddress.getByAddress(new byte[]{127, 0, 0, (byte) from});
        try (HandRolledPeer peer = HandRolledPeer.connect(target.boundAddress(), address, 0)) {
            peer.secure(staticKey -> payload);
            assertThat(peer.awaitClosedByHost()).as("the host hung up").isTrue();
        }
    }

    /** The PublicKey protobuf of an RSA key (the host would refuse to make one of these itself). */
    private static byte[] rsaKey(BigInteger modulus, BigInteger exponent) throws Exception {
        byte[] spki = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent)).getEncoded();
        return io.wakurelay.p2p.proto.PublicKey.newBuilder().setType(io.wakurelay.p2p.proto.KeyType.forNumber(0))
                .setData(ByteString.copyFrom(spki)).build().toByteArray();
    }

    private double handshakes(Host host, String outcome) {
        return TestHosts.count(hosts.registry(host), "libp2p.handshakes", "outcome", outcome);
    }
}
