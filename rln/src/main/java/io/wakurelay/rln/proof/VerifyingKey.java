package io.wakurelay.rln.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * A Groth16 verifying key over BN254 in snarkjs' JSON layout (G1 points {@code [x, y, "1"]}, G2 points
 * {@code [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]}, decimal strings), checked when loaded: its sha256 fingerprint
 * (the canonical JSON, keys sorted and no whitespace, of the eight fields protocol, curve, nPublic, vk_alpha_1,
 * vk_beta_2, vk_gamma_2, vk_delta_2, IC), every coordinate below p, every point on its curve and not at infinity, the
 * G2 points in their subgroup, and one IC point per public input plus one.
 */
public final class VerifyingKey {
    /** The rln-v2 depth-20 circuit's key that nwaku and zerokit ship, bundled with this module. */
    static final String RLN_V2_RESOURCE = "/io/wakurelay/rln/verifying-key.json";
    private static final String[] FINGERPRINTED = {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2",
        "vk_gamma_2", "vk_delta_2", "IC"};

    final G1Point alpha;
    final G2Point beta;
    final G2Point gamma;
    final G2Point delta;
    final List<G1Point> ic;
    private final String fingerprint;

    private VerifyingKey(G1Point alpha, G2Point beta, G2Point gamma, G2Point delta, List<G1Point> ic,
                         String fingerprint) {
        this.alpha = alpha;
        this.beta = beta;
        this.gamma = gamma;
        this.delta = delta;
        this.ic = List.copyOf(ic);
        this.fingerprint = fingerprint;
    }

    private static final class RlnV2 {
        static final VerifyingKey KEY = load();

        private static VerifyingKey load() {
            try (InputStream in = VerifyingKey.class.getResourceAsStream(RLN_V2_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the rln module's jar lacks " + RLN_V2_RESOURCE);
                }
                return parse(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The rln-v2 key, read and checked once, on first use. */
    public static VerifyingKey rlnV2() {
        return RlnV2.KEY;
    }

    /**
     * Reads and checks a key; its {@code fingerprint.sha256} must match its fields.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static VerifyingKey parse(byte[] json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the verifying key is not JSON: " + e.getMessage(), e);
        }
        String expected = root.path("fingerprint").path("sha256").asText("");
        String actual = fingerprint(root);
        if (!actual.equals(expected)) {
            throw new IllegalArgumentException("the verifying key's fingerprint is " + actual + ", it says " + expected);
        }
        if (!"groth16".equals(root.path("protocol").asText()) || !"bn128".equals(root.path("curve").asText())) {
            throw new IllegalArgumentException("not a Groth16 key over BN254 (bn128): " + root.path("protocol")
                    + ", " + root.path("curve"));
        }
        int inputs = root.path("nPublic").asInt(-1);
        if (inputs < 0 || root.path("IC").size() != inputs + 1) {
            throw new IllegalArgumentException("the key has " + root.path("IC").size() + " IC points for "
                    + inputs + " public inputs");
        }
        try {
            List<G1Point> ic = new ArrayList<>();
            for (JsonNode point : root.path("IC")) {
                ic.add(g1(point, "IC"));
            }
            return new VerifyingKey(g1(root.path("vk_alpha_1"), "vk_alpha_1"), g2(root.path("vk_beta_2"), "vk_beta_2"),
                    g2(root.path("vk_gamma_2"), "vk_gamma_2"), g2(root.path("vk_delta_2"), "vk_delta_2"), ic, actual);
        } catch (PointDecodingException e) {
            throw new IllegalArgumentException("the verifying key has an invalid point: " + e.getMessage(), e);
        }
    }

    /** The number of public inputs. */
    public int publicInputs() {
        return ic.size() - 1;
    }

    /** The sha256 fingerprint, lower-case hex. */
    public String fingerprint() {
        return fingerprint;
    }

    private static G1Point g1(JsonNode point, String name) throws PointDecodingException {
        if (point.size() != 3 || !"1".equals(point.get(2).asText())) {
            throw new PointDecodingException(name + " is not an affine G1 point [x, y, \"1\"]");
        }
        return G1Point.of(number(point.get(0)), number(point.get(1)));
    }

    private static G2Point g2(JsonNode point, String name) throws PointDecodingException {
        if (point.size() != 3 || !"1".equals(point.get(2).get(0).asText()) || !"0".equals(point.get(2).get(1).asText())) {
            throw new PointDecodingException(name + " is not an affine G2 point");
        }
        BigInteger p = Fp2.FP.modulus();
        BigInteger[] c = {number(point.get(0).get(0)), number(point.get(0).get(1)), number(point.get(1).get(0)),
            number(point.get(1).get(1))};
        for (BigInteger v : c) {
            if (v.signum() < 0 || v.compareTo(p) >= 0) {
                throw new PointDecodingException(name + " has a coordinate not below p");
            }
        }
        return G2Point.of(Fp2.of(c[0], c[1]), Fp2.of(c[2], c[3]));
    }

    private static BigInteger number(JsonNode value) throws PointDecodingException {
        try {
            return new BigInteger(value.asText());
        } catch (NumberFormatException | NullPointerException e) {
            throw new PointDecodingException("not a decimal number: " + value);
        }
    }

    /** sha256 of the canonical JSON of the eight fingerprinted fields. */
    static String fingerprint(JsonNode key) {
        StringBuilder json = new StringBuilder("{");
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        for (String field : FINGERPRINTED) {
            if (!key.has(field)) {
                throw new IllegalArgumentException("the verifying key lacks " + field);
            }
            sorted.put(field, key.get(field));
        }
        boolean first = true;
        for (var e : sorted.entrySet()) {
            json.append(first ? "" : ",");
            first = false;
            appendString(json, e.getKey());
            json.append(':');
            appendCanonical(json, e.getValue());
        }
        json.append('}');
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(json.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    private static void appendCanonical(StringBuilder out, JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                sorted.put(name, node.get(name));
            }
            out.append('{');
            boolean first = true;
            for (var e : sorted.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                appendString(out, e.getKey());
                out.append(':');
                appendCanonical(out, e.getValue());
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                out.append(i == 0 ? "" : ",");
                appendCanonical(out, node.get(i));
            }
            out.append(']');
        } else if (node.isTextual()) {
            appendString(out, node.asText());
        } else {
            out.append(node.toString()); // numbers, booleans, null
        }
    }

    /** A JSON string as Python's json.dumps writes it (non-ASCII escaped). */
    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7F) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
