package io.wakurelay.discovery.enr;

import io.wakurelay.p2p.crypto.KeyType;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Component;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.Protocol;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The content of this node's record, from what it announces: the first plain {@code /ip4/…/tcp/…} address becomes
 * {@code ip}/{@code tcp}, the first plain {@code /ip6/…/tcp/…} one {@code ip6}/{@code tcp6}, and every other
 * address (WebSocket, DNS names, anything with more components) goes into Waku's {@code multiaddrs} field, so a
 * transport added later appears without a change here. Further plain addresses of a family already written are left
 * out: a peer needs one per family, and a host bound to every interface would overflow the 300 bytes. Then the
 * {@code waku2} capabilities, the relay shards and the discv5 UDP port when given. When the {@code multiaddrs} do
 * not all fit into EIP-778's 300 bytes, the last ones are left out (logged), so that a long list of announced
 * addresses never stops the node from starting; identify still announces them all.
 */
public final class EnrBuilder {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EnrBuilder.class);

    private final PrivateKey key;
    private final List<Multiaddr> announced = new ArrayList<>();
    private Integer udpPort;
    private java.net.InetSocketAddress external;
    private WakuCapabilities capabilities;
    private RelayShards shards;

    private EnrBuilder(PrivateKey key) {
        if (key.type() != KeyType.SECP256K1) {
            throw new IllegalArgumentException("an ENR (\"v4\" identity) needs a secp256k1 node key, not "
                    + key.type());
        }
        this.key = key;
    }

    public static EnrBuilder of(PrivateKey key) {
        return new EnrBuilder(key);
    }

    /** The addresses peers should dial (a {@code /p2p} component is dropped: the record's key names the peer). */
    public EnrBuilder announce(List<Multiaddr> addresses) {
        announced.addAll(addresses);
        return this;
    }

    public EnrBuilder udpPort(int port) {
        if (port < 1 || port > 0xffff) {
            throw new IllegalArgumentException("a UDP port is 1..65535, not " + port);
        }
        udpPort = port;
        return this;
    }

    /**
     * The address other nodes see our discv5 socket at (learned from PONGs, {@code --discv5-enr-auto-update}): it
     * replaces {@code ip} and {@code udp} (an IPv4 address) or {@code ip6} and {@code udp6} (IPv6), as nim-eth's
     * {@code updateExternalIp} does; the TCP ports stay.
     */
    public EnrBuilder externalAddress(java.net.InetSocketAddress address) {
        if (address.getPort() < 1 || address.getPort() > 0xffff || address.getAddress() == null) {
            throw new IllegalArgumentException("not an address with a port: " + address);
        }
        external = address;
        return this;
    }

    public EnrBuilder capabilities(WakuCapabilities v) {
        capabilities = v;
        return this;
    }

    public EnrBuilder shards(RelayShards v) {
        shards = v.shards().isEmpty() ? null : v;
        return this;
    }

    /** Signs the content with sequence number {@code seq}. */
    public Enr build(long seq) {
        return Enr.sign(seq, content(), key.raw());
    }

    PrivateKey key() {
        return key;
    }

    /** The key/value pairs (values RLP-encoded) without {@code id} and {@code secp256k1}, which signing adds. */
    SortedMap<String, byte[]> content() {
        TreeMap<String, byte[]> pairs = new TreeMap<>();
        List<Multiaddr> others = new ArrayList<>();
        for (Multiaddr announcedAddress : announced) {
            Multiaddr address = announcedAddress.withoutPeerId();
            List<Component> parts = address.components();
            boolean plain = parts.size() == 2 && parts.get(1).protocol() == Protocol.TCP;
            Protocol family = parts.get(0).protocol();
            if (plain && family == Protocol.IP4) {
                if (!pairs.containsKey("ip")) {
                    pairs.put("ip", Rlp.bytes(ip(parts.get(0))));
                    pairs.put("tcp", Rlp.unsigned(Integer.parseInt(parts.get(1).value())));
                }
            } else if (plain && family == Protocol.IP6) {
                if (!pairs.containsKey("ip6")) {
                    pairs.put("ip6", Rlp.bytes(ip(parts.get(0))));
                    pairs.put("tcp6", Rlp.unsigned(Integer.parseInt(parts.get(1).value())));
                }
            } else if (!others.contains(address)) {
                others.add(address);
            }
        }
        if (udpPort != null) {
            pairs.put("udp", Rlp.unsigned(udpPort));
        }
        if (external != null) {
            boolean v4 = external.getAddress().getAddress().length == 4;
            pairs.put(v4 ? "ip" : "ip6", Rlp.bytes(external.getAddress().getAddress()));
            pairs.put(v4 ? "udp" : "udp6", Rlp.unsigned(external.getPort()));
        }
        if (capabilities != null) {
            pairs.put(WakuEnrFields.CAPABILITIES, Rlp.bytes(capabilities.encode()));
        }
        if (shards != null) {
            pairs.put(shards.key(), Rlp.bytes(shards.encode()));
        }
        List<Multiaddr> kept = new ArrayList<>(others);
        while (!kept.isEmpty()) {
            pairs.put(WakuEnrFields.MULTIADDRS, Rlp.bytes(WakuEnrFields.encodeMultiaddrs(kept)));
            if (Enr.largestSize(pairs) <= Enr.MAX_SIZE) {
                break;
            }
            kept.remove(kept.size() - 1);
        }
        if (kept.isEmpty()) {
            pairs.remove(WakuEnrFields.MULTIADDRS);
        }
        if (kept.size() < others.size()) {
            // the node keeps running: the addresses left out are still announced by identify
            LOG.atWarn().addKeyValue("kept", kept.size())
                    .addKeyValue("leftOut", others.subList(kept.size(), others.size()).stream().map(String::valueOf).toList())
                    .log("the ENR has no room for every address that does not fit ip/tcp; some left out");
        }
        return pairs;
    }

    private static byte[] ip(Component component) {
        try {
            return InetAddress.getByName(component.value()).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + component.value(), e);
        }
    }
}
