package io.wakurelay.p2p.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.Properties;

/** The key vectors of vectors.properties (the spec's, go-libp2p's fixtures and values derived with js-libp2p). */
final class Vectors {

    private static final Properties VECTORS = load();

    private Vectors() {
    }

    static String text(String name) {
        String value = VECTORS.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException("no vector " + name);
        }
        return value;
    }

    static byte[] bytes(String name) {
        return hex(text(name));
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT));
    }

    private static Properties load() {
        try (InputStream in = Vectors.class.getResourceAsStream("vectors.properties")) {
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
