package io.wakurelay.p2p.ws;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the PEM files of a TLS server (what certbot writes: {@code fullchain.pem} and {@code privkey.pem}; what
 * {@code openssl req -x509} writes) and of trusted certificates, with BouncyCastle's {@code PEMParser}. Private keys
 * are read as PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}) or SEC1 EC
 * ({@code BEGIN EC PRIVATE KEY}), of RSA, EC or Ed25519; an encrypted key is refused. Every error says which file and
 * what is wrong with it.
 */
public final class PemFiles {
    private PemFiles() {
    }

    /** A certificate chain, leaf first, and the private key of its leaf. */
    public record ServerIdentity(PrivateKey key, List<X509Certificate> chain) {
        public ServerIdentity {
            chain = List.copyOf(chain);
        }
    }

    /** Reads and checks a server's chain and key: both parse, and the key is the leaf certificate's. */
    public static ServerIdentity serverIdentity(Path certPath, Path keyPath) {
        List<X509Certificate> chain = certificates(certPath);
        PrivateKey key = privateKey(keyPath);
        if (!matches(key, chain.get(0))) {
            throw new IllegalArgumentException("the private key in " + keyPath + " is not the key of the certificate "
                    + chain.get(0).getSubjectX500Principal().getName() + " in " + certPath);
        }
        return new ServerIdentity(key, chain);
    }

    /** The certificates of a PEM file, in file order; at least one. */
    public static List<X509Certificate> certificates(Path path) {
        List<X509Certificate> out = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        for (Object o : objects(path, "certificate")) {
            if (o instanceof X509CertificateHolder holder) {
                try {
                    out.add(converter.getCertificate(holder));
                } catch (GeneralSecurityException e) {
                    throw new IllegalArgumentException(path + " is not a PEM certificate file: " + e.getMessage(), e);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(path + " holds no certificate (expected PEM: -----BEGIN CERTIFICATE-----)");
        }
        return out;
    }

    /** The private key of a PEM file: its first key (an {@code EC PARAMETERS} block before it is skipped). */
    public static PrivateKey privateKey(Path path) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        for (Object o : objects(path, "private key")) {
            try {
                if (o instanceof PrivateKeyInfo pkcs8) {
                    return converter.getPrivateKey(pkcs8);
                }
                if (o instanceof PEMKeyPair pkcs1OrSec1) {
                    return converter.getKeyPair(pkcs1OrSec1).getPrivate();
                }
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(path + ": the private key does not parse: " + e.getMessage()
                        + " (RSA, EC and Ed25519 keys are read)", e);
            }
            if (o instanceof PKCS8EncryptedPrivateKeyInfo || o instanceof PEMEncryptedKeyPair) {
                throw new IllegalArgumentException(path + " holds an encrypted private key; give it unencrypted "
                        + "(openssl pkcs8 -in " + path + " -nocrypt -topk8 -out key.pem)");
            }
        }
        throw new IllegalArgumentException(path + " holds no PEM private key (expected -----BEGIN PRIVATE KEY-----, "
                + "BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)");
    }

    /** Every PEM object of a file, in file order. */
    private static List<Object> objects(Path path, String what) {
        String text = read(path, what);
        List<Object> out = new ArrayList<>();
        try (Reader reader = new StringReader(text); PEMParser parser = new PEMParser(reader)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                out.add(o);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(path + " is not a PEM " + what + " file: " + e.getMessage(), e);
        }
        return out;
    }

    private static boolean matches(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        byte[] probe = "wakurelay key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static String read(Path path, String what) {
        try {
            return Files.readString(path, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the " + what + " file " + path + ": " + e, e);
        }
    }
}
