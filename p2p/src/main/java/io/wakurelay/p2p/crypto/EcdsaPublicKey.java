package io.wakurelay.p2p.crypto;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;

/**
 * An ECDSA public key on NIST P-256 in DER PKIX (SubjectPublicKeyInfo) form; signatures are ECDSA over SHA-256 in
 * DER, as peer-ids.md says. Only verification: we never sign with ECDSA.
 *
 * <p>A key on P-384 or P-521 is read and refused ({@link KeyRefusedException}): verifying on those curves costs an
 * event loop milliseconds per handshake ({@code JdkVerifyCostBenchmark}, 2 cores of an AMD EPYC: 2.4 and 5.1 ms on
 * JDK 17, 2.2 and 4.1 ms on Temurin 25, against 1.07 and 0.40 ms for P-256), and P-256 is the curve go-libp2p and
 * js-libp2p generate.
 */
final class EcdsaPublicKey extends PublicKey {

    private static final List<ECParameterSpec> NIST_CURVES = nistCurves();
    private static final ECParameterSpec P256 = NIST_CURVES.get(0);

    private final ECPublicKey jdkKey;

    private EcdsaPublicKey(byte[] raw, ECPublicKey jdkKey) {
        super(KeyType.ECDSA, raw);
        this.jdkKey = jdkKey;
    }

    static EcdsaPublicKey fromRaw(byte[] raw) {
        java.security.PublicKey key;
        try {
            key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(raw));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new KeyFormatException("not a DER PKIX ECDSA public key on P-256, P-384 or P-521", e);
        }
        if (!(key instanceof ECPublicKey ec)) {
            throw new KeyFormatException("not an EC public key: " + key.getAlgorithm());
        }
        if (!isNistCurve(ec.getParams())) {
            throw new KeyFormatException("ECDSA keys on P-256, P-384 or P-521 only");
        }
        if (!sameCurve(ec.getParams(), P256)) {
            throw new KeyRefusedException("ECDSA keys on P-256 only: verifying on P-384 or P-521 costs milliseconds");
        }
        return new EcdsaPublicKey(raw, ec);
    }

    // The JDK's key factory parses keys on curves it cannot compute with (secp256k1, brainpool): compare the curve.
    private static boolean isNistCurve(ECParameterSpec params) {
        for (ECParameterSpec nist : NIST_CURVES) {
            if (sameCurve(params, nist)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameCurve(ECParameterSpec a, ECParameterSpec b) {
        return a.getCurve().equals(b.getCurve()) && a.getOrder().equals(b.getOrder())
                && a.getGenerator().equals(b.getGenerator());
    }

    private static List<ECParameterSpec> nistCurves() {
        try {
            List<ECParameterSpec> curves = new ArrayList<>();
            for (String name : List.of("secp256r1", "secp384r1", "secp521r1")) {
                AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
                parameters.init(new ECGenParameterSpec(name));
                curves.add(parameters.getParameterSpec(ECParameterSpec.class));
            }
            return List.copyOf(curves);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has the NIST prime curves", e);
        }
    }

    @Override
    public boolean verify(byte[] data, byte[] signature) {
        if (signature == null) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(jdkKey);
            verifier.update(data);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
