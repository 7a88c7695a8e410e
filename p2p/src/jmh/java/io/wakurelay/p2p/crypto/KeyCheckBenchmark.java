package io.wakurelay.p2p.crypto;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What checking a peer's identity costs an event loop, once per Noise handshake (and again in identify): the key's
 * {@code PublicKey} protobuf read ({@link PublicKey#unmarshal}) and its signature of the handshake's 56 signed bytes
 * verified, for the costliest key each type allows. {@code rsa-max} is the largest RSA key {@code RsaPublicKey}
 * takes with the largest exponent ({@code MAX_BITS}, {@code MAX_EXPONENT}): a random odd modulus and a random
 * signature below it, because the cost is the public operation whether the signature verifies or not, and a peer
 * chooses both. {@code rsa-refused} and {@code ecdsa-refused} are the cost of refusing a key past the bounds (an
 * 8192-bit RSA modulus, a P-521 key). The other keys are real, their signatures valid. {@link JdkVerifyCostBenchmark}
 * measures the keys refused as if they were not.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KeyCheckBenchmark {
    @Param({"ed25519", "secp256k1", "ecdsa-p256", "rsa-2048", "rsa-max", "rsa-refused", "ecdsa-refused"})
    String key;

    private byte[] marshalled;
    private byte[] signature;
    private final byte[] data = new byte[56];

    @Setup
    public void setUp() throws GeneralSecurityException {
        Random random = new Random(27);
        random.nextBytes(data);
        switch (key) {
            case "ed25519", "secp256k1" -> {
                PrivateKey k = key.equals("ed25519") ? PrivateKey.generateEd25519() : PrivateKey.generateSecp256k1();
                marshalled = k.publicKey().marshal();
                signature = k.sign(data);
            }
            case "ecdsa-p256", "ecdsa-refused" -> {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
                generator.initialize(new ECGenParameterSpec(key.equals("ecdsa-p256") ? "secp256r1" : "secp521r1"));
                KeyPair pair = generator.generateKeyPair();
                marshalled = KeyEnvelope.encodePublic(KeyType.ECDSA, pair.getPublic().getEncoded());
                Signature signer = Signature.getInstance("SHA256withECDSA");
                signer.initSign(pair.getPrivate());
                signer.update(data);
                signature = signer.sign();
            }
            case "rsa-2048" -> rsa(random, 2048, BigInteger.valueOf(65537));
            case "rsa-max" -> rsa(random, RsaPublicKey.MAX_BITS, RsaPublicKey.MAX_EXPONENT);
            case "rsa-refused" -> rsa(random, 8192, BigInteger.valueOf(65537));
            default -> throw new IllegalArgumentException(key);
        }
    }

    private void rsa(Random random, int bits, BigInteger exponent) throws GeneralSecurityException {
        BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
        byte[] spki = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent))
                .getEncoded();
        marshalled = KeyEnvelope.encodePublic(KeyType.RSA, spki);
        byte[] s = new BigInteger(bits - 1, random).toByteArray();
        signature = new byte[bits / 8];
        int n = Math.min(s.length, signature.length);
        System.arraycopy(s, s.length - n, signature, signature.length - n, n);
    }

    @Benchmark
    public boolean unmarshalAndVerify() {
        try {
            return PublicKey.unmarshal(marshalled).verify(data, signature);
        } catch (KeyRefusedException e) {
            return false;
        }
    }
}
