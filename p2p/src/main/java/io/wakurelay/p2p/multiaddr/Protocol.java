package io.wakurelay.p2p.multiaddr;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The multiaddr protocols we read and print, with the codes, names and value sizes of multiformats/multiaddr
 * protocols.csv. Enough to parse and print what peers announce (QUIC, WebTransport, WebRTC, circuit relay), not
 * only what we dial. Not here: onion, onion3, garlic32/64 (their own encodings), and unix and memory (go and js
 * encode them differently): an address with one of them is a {@link MultiaddrFormatException}.
 */
public enum Protocol {
    IP4(4, "ip4", 32),
    TCP(6, "tcp", 16),
    DCCP(33, "dccp", 16),
    IP6(41, "ip6", 128),
    IP6ZONE(42, "ip6zone", Protocol.VARIABLE),
    IPCIDR(43, "ipcidr", 8),
    DNS(53, "dns", Protocol.VARIABLE),
    DNS4(54, "dns4", Protocol.VARIABLE),
    DNS6(55, "dns6", Protocol.VARIABLE),
    DNSADDR(56, "dnsaddr", Protocol.VARIABLE),
    SCTP(132, "sctp", 16),
    UDP(273, "udp", 16),
    P2P_WEBRTC_STAR(275, "p2p-webrtc-star", 0),
    P2P_WEBRTC_DIRECT(276, "p2p-webrtc-direct", 0),
    P2P_STARDUST(277, "p2p-stardust", 0),
    WEBRTC_DIRECT(280, "webrtc-direct", 0),
    WEBRTC(281, "webrtc", 0),
    P2P_CIRCUIT(290, "p2p-circuit", 0),
    UDT(301, "udt", 0),
    UTP(302, "utp", 0),
    /** Written {@code /p2p/<peer id>}; {@code /ipfs/} is read as an alias and printed as {@code /p2p/}. */
    P2P(421, "p2p", Protocol.VARIABLE),
    HTTPS(443, "https", 0),
    TLS(448, "tls", 0),
    SNI(449, "sni", Protocol.VARIABLE),
    NOISE(454, "noise", 0),
    QUIC(460, "quic", 0),
    QUIC_V1(461, "quic-v1", 0),
    WEBTRANSPORT(465, "webtransport", 0),
    CERTHASH(466, "certhash", Protocol.VARIABLE),
    WS(477, "ws", 0),
    WSS(478, "wss", 0),
    P2P_WEBSOCKET_STAR(479, "p2p-websocket-star", 0),
    HTTP(480, "http", 0),
    HTTP_PATH(481, "http-path", Protocol.VARIABLE);

    /** The {@link #sizeBits()} of a protocol whose value is length-prefixed. */
    public static final int VARIABLE = -1;

    private static final Map<Integer, Protocol> BY_CODE = new HashMap<>();
    private static final Map<String, Protocol> BY_NAME = new HashMap<>();

    static {
        for (Protocol protocol : values()) {
            BY_CODE.put(protocol.code, protocol);
            BY_NAME.put(protocol.protocolName, protocol);
        }
        BY_NAME.put("ipfs", P2P);
    }

    private final int code;
    private final String protocolName;
    private final int sizeBits;

    Protocol(int code, String protocolName, int sizeBits) {
        this.code = code;
        this.protocolName = protocolName;
        this.sizeBits = sizeBits;
    }

    /** The multicodec code, the first varint of a component in binary. */
    public int code() {
        return code;
    }

    /** The name in text, e.g. {@code quic-v1}. */
    public String protocolName() {
        return protocolName;
    }

    /** The value's size in bits: 0 for none, {@link #VARIABLE} for a length-prefixed value. */
    public int sizeBits() {
        return sizeBits;
    }

    /** Whether a value follows the protocol's name or code. */
    public boolean hasValue() {
        return sizeBits != 0;
    }

    /** The protocol of a code, if we know it. */
    public static Optional<Protocol> forCode(long code) {
        return code > Integer.MAX_VALUE ? Optional.empty() : Optional.ofNullable(BY_CODE.get((int) code));
    }

    /** The protocol of a text name (including the alias {@code ipfs}), if we know it. */
    public static Optional<Protocol> forName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
