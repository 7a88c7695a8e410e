package io.wakurelay.discovery.enr;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
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

    /**
     * The protocol that serves each capability, as nwaku maps them ({@code capabilityToCodec}); mix has no protocol
     * here.
     */
    private static final Map<String, Capability> CODECS = Map.of(
            "/vac/waku/relay/2.0.0", Capability.RELAY,
            "/vac/waku/store-query/3.0.0", Capability.STORE,
            "/vac/waku/filter-subscribe/2.0.0-beta1", Capability.FILTER,
            "/vac/waku/lightpush/3.0.0", Capability.LIGHTPUSH,
            "/vac/waku/reconciliation/1.0.0", Capability.SYNC);

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

    /**
     * The capabilities of a node that serves {@code protocols} (the ids its host handles): a record then names
     * exactly the protocols that answer.
     */
    public static Set<Capability> served(Collection<String> protocols) {
        Set<Capability> served = EnumSet.noneOf(Capability.class);
        for (String protocol : protocols) {
            Capability c = CODECS.get(protocol);
            if (c != null) {
                served.add(c);
            }
        }
        return served;
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
