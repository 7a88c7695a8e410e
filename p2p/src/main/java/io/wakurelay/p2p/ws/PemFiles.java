package io.wakurelay.p2p.ws;

import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files of a TLS server (what certbot writes: {@code fullchain.pem} and {@code privkey.pem}; what
 * {@code openssl req -x509} writes) and of trusted certificates. Private keys are read as PKCS#8
 * ({@code BEGIN PRIVATE KEY}), PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}) or SEC1 EC ({@code BEGIN EC PRIVATE KEY});
 * an encrypted key is refused. Every error says which file and what is wrong with it.
 */
public final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

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
        byte[] bytes = read(path, "certificate");
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            List<X509Certificate> out = new ArrayList<>();
            CertificateFactory.getInstance("X.509").generateCertificates(in)
                    .forEach(c -> out.add((X509Certificate) c));
            if (out.isEmpty()) {
                throw new IllegalArgumentException(path
                        + " holds no certificate (expected PEM: -----BEGIN CERTIFICATE-----)");
            }
            return out;
        } catch (CertificateException | IOException e) {
            throw new IllegalArgumentException(path + " is not a PEM certificate file: " + e.getMessage(), e);
        }
    }

    /** The private key of a PEM file. */
    public static PrivateKey privateKey(Path path) {
        String text = new String(read(path, "private key"), StandardCharsets.US_ASCII);
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + ": the " + type + " block is not valid base64", e);
            }
            switch (type) {
                case "PRIVATE KEY":
                    return pkcs8(path, der);
                case "RSA PRIVATE KEY":
                    return pkcs8(path, wrap(new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption,
                            DERNull.INSTANCE), der));
                case "EC PRIVATE KEY":
                    ECPrivateKey ec = ECPrivateKey.getInstance(ASN1Sequence.getInstance(der));
                    if (ec.getParametersObject() == null) {
                        throw new IllegalArgumentException(path + ": the EC private key does not name its curve");
                    }
                    return pkcs8(path, wrap(new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey,
                            ec.getParametersObject()), der));
                case "ENCRYPTED PRIVATE KEY":
                    throw new IllegalArgumentException(path + " holds an encrypted private key; give it unencrypted "
                            + "(openssl pkcs8 -in " + path + " -nocrypt -topk8 -out key.pem)");
                default:
                    // e.g. EC PARAMETERS before an EC key: skip it
            }
        }
        throw new IllegalArgumentException(path + " holds no PEM private key (expected -----BEGIN PRIVATE KEY-----, "
                + "BEGIN RSA PRIVATE KEY or BEGIN EC PRIVATE KEY)");
    }

    private static byte[] wrap(AlgorithmIdentifier algorithm, byte[] der) {
        try {
            return new PrivateKeyInfo(algorithm, org.bouncycastle.asn1.ASN1Primitive.fromByteArray(der)).getEncoded();
        } catch (IOException e) {
            throw new IllegalArgumentException("a private key that is not DER: " + e.getMessage(), e);
        }
    }

    private static PrivateKey pkcs8(Path path, byte[] der) {
        String algorithm;
        try {
            String oid = PrivateKeyInfo.getInstance(der).getPrivateKeyAlgorithm().getAlgorithm().getId();
            algorithm = switch (oid) {
                case "1.2.840.113549.1.1.1" -> "RSA";
                case "1.2.840.10045.2.1" -> "EC";
                case "1.3.101.112" -> "Ed25519";
                default -> throw new IllegalArgumentException(path + ": a private key of algorithm " + oid
                        + " (RSA, EC and Ed25519 keys are read)");
            };
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage() != null
                    && iae.getMessage().startsWith(path.toString())) {
                throw iae;
            }
            throw new IllegalArgumentException(path + ": the private key does not parse: " + e.getMessage(), e);
        }
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

    private static byte[] read(Path path, String what) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the " + what + " file " + path + ": " + e, e);
        }
    }
}
