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
import java.security.spec.X509EncodedKeySpec;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What verifying a signature costs the JDK, whatever bounds this host puts on keys: the key as a peer sends it (DER
 * SubjectPublicKeyInfo) parsed and one verification, as {@code RsaPublicKey} and {@code EcdsaPublicKey} do it; the
 * figures behind their bounds. {@code rsa-BITS:E} is an RSA key of that modulus size and public exponent: the cost is
 * the public operation {@code s^e mod n}, the same for a signature that verifies and one that does not, so the
 * modulus is a random odd number of its size and the signature random below it (a peer chooses both). {@code huge}
 * is an exponent one bit shorter than the modulus (issue 27's G4; the JDK allows exponents longer than 64 bits only
 * for moduli up to 3072 bits). {@code ecdsa-CURVE} is a real key on that NIST curve and a valid signature.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JdkVerifyCostBenchmark {
    @Param({"rsa-2048:65537", "rsa-2048:huge", "rsa-3072:huge", "rsa-4096:65537", "rsa-4096:2147483647",
            "rsa-8192:65537", "rsa-8192:2147483647", "rsa-8192:18446744073709551615",
            "ecdsa-p256", "ecdsa-p384", "ecdsa-p521"})
    String key;

    private String algorithm;
    private String signatureAlgorithm;
    private byte[] spki;
    private byte[] signature;
    private final byte[] data = new byte[56];

    @Setup
    public void setUp() throws GeneralSecurityException {
        Random random = new Random(27);
        random.nextBytes(data);
        if (key.startsWith("ecdsa-")) {
            algorithm = "EC";
            signatureAlgorithm = "SHA256withECDSA";
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp" + key.substring("ecdsa-p".length()) + "r1"));
            KeyPair pair = generator.generateKeyPair();
            spki = pair.getPublic().getEncoded();
            Signature signer = Signature.getInstance(signatureAlgorithm);
            signer.initSign(pair.getPrivate());
            signer.update(data);
            signature = signer.sign();
            return;
        }
        algorithm = "RSA";
        signatureAlgorithm = "SHA256withRSA";
        int bits = Integer.parseInt(key.substring("rsa-".length(), key.indexOf(':')));
        String exponent = key.substring(key.indexOf(':') + 1);
        BigInteger modulus = new BigInteger(bits, random).setBit(bits - 1).setBit(0);
        BigInteger e = exponent.equals("huge")
                ? new BigInteger(bits - 1, random).setBit(bits - 2).setBit(0)
                : new BigInteger(exponent);
        spki = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, e)).getEncoded();
        byte[] s = new BigInteger(bits - 1, random).toByteArray();
        signature = new byte[bits / 8];
        int n = Math.min(s.length, signature.length);
        System.arraycopy(s, s.length - n, signature, signature.length - n, n);
    }

    @Benchmark
    public boolean parseAndVerify() throws GeneralSecurityException {
        java.security.PublicKey parsed = KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(spki));
        Signature verifier = Signature.getInstance(signatureAlgorithm);
        verifier.initVerify(parsed);
        verifier.update(data);
        return verifier.verify(signature);
    }
}
