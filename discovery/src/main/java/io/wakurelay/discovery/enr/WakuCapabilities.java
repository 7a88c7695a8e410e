package io.wakurelay.discovery.enr;

import java.util.EnumSet;
import java.util.Set;

/**
 * The {@code waku2} field (rfc-index core/31/enr): one byte whose bits say which Waku protocols the node serves,
 * bit 0 (the least significant) relay, then store, filter, lightpush, sync and mix, as nwaku numbers them
 * ({@code waku_enr/capabilities.nim}). Bits we do not know are kept, so a record is read back as written.
 */
public record WakuCapabilities(int bits) {

    /** The protocols, by their bit. */
    public enum Capability {
        RELAY, STORE, FILTER, LIGHTPUSH, SYNC, MIX;

        int bit() {
            return 1 << ordinal();
        }
    }

    public WakuCapabilities {
        if (bits < 0 || bits > 0xff) {
            throw new IllegalArgumentException("waku2 is one byte, not " + bits);
        }
    }

    public static WakuCapabilities of(Set<Capability> capabilities) {
        int bits = 0;
        for (Capability c : capabilities) {
            bits |= c.bit();
        }
        return new WakuCapabilities(bits);
    }

    static WakuCapabilities decode(byte[] value) {
        if (value.length != 1) {
            throw new EnrFormatException("the waku2 field is one byte, not " + value.length);
        }
        return new WakuCapabilities(value[0] & 0xff);
    }

    byte[] encode() {
        return new byte[] {(byte) bits};
    }

    public boolean has(Capability capability) {
        return (bits & capability.bit()) != 0;
    }

    /** The known capabilities set in the field. */
    public Set<Capability> capabilities() {
        Set<Capability> out = EnumSet.noneOf(Capability.class);
        for (Capability c : Capability.values()) {
            if (has(c)) {
                out.add(c);
            }
        }
        return out;
    }
}
