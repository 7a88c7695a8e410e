package io.wakurelay.testkit;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Certificates for TLS tests, made at test time so that no private key is ever committed: a certificate
 * authority, and node certificates it signs, written as the PEM files a node is configured with.
 */
public final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());
    private static final Duration VALIDITY = Duration.ofDays(2);

    private TestCertificates() {
    }

    /** What a node's TLS options point at. */
    public record NodeFiles(Path certificateChain, Path privateKey, Path trustedCertificates) {
    }

    /** A new certificate authority (EC P-256, valid from an hour ago for two days). */
    public static Authority authority(String name) {
        KeyPair keys = ecKeyPair();
        X500Name subject = new X500Name("CN=" + name);
        X509Certificate certificate = sign(new JcaX509v3CertificateBuilder(subject, serial(), notBefore(), notAfter(),
                subject, keys.getPublic()), keys.getPrivate(), true);
        return new Authority(name, keys, certificate);
    }

    /** A certificate authority: issues node certificates and writes its own certificate as a trust file. */
    public record Authority(String name, KeyPair keys, X509Certificate certificate) {
        /**
         * Issues a certificate for {@code node} (usable for both TLS server and client authentication) and writes
         * it, its private key (PKCS#8) and this authority's certificate (as the trust file) into {@code dir}.
         */
        public NodeFiles issue(Path dir, String node) {
            return issueTrusting(dir, node, this);
        }

        /** As {@link #issue}, but the trust file holds {@code trusted}'s certificate instead of this authority's. */
        public NodeFiles issueTrusting(Path dir, String node, Authority trusted) {
            KeyPair nodeKeys = ecKeyPair();
            X509Certificate nodeCertificate = sign(new JcaX509v3CertificateBuilder(new X500Name("CN=" + name),
                    serial(), notBefore(), notAfter(), new X500Name("CN=" + node), nodeKeys.getPublic()),
                    keys.getPrivate(), false);
            try {
                Files.createDirectories(dir);
                Path chain = Files.writeString(dir.resolve(node + ".crt.pem"), pem("CERTIFICATE", nodeCertificate.getEncoded()));
                Path key = Files.writeString(dir.resolve(node + ".key.pem"), pem("PRIVATE KEY", nodeKeys.getPrivate().getEncoded()));
                Path trust = trusted.writeCertificate(dir.resolve(node + ".trust-" + trusted.name() + ".pem"));
                return new NodeFiles(chain, key, trust);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Writes this authority's certificate as PEM. */
        public Path writeCertificate(Path file) {
            try {
                return Files.writeString(file, pem("CERTIFICATE", certificate.getEncoded()));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey, boolean authority) {
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
            if (authority) {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (IOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a test certificate", e);
        }
    }

    private static KeyPair ecKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(VALIDITY));
    }

    /** PEM text: the DER bytes in base64, 64 characters a line, between BEGIN and END lines. */
    public static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
