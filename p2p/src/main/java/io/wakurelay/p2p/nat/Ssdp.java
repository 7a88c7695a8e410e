package io.wakurelay.p2p.nat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * SSDP discovery of an Internet Gateway Device (UPnP Device Architecture 1.1, 1.3.2): an {@code M-SEARCH} for the
 * IGD device types to {@code 239.255.255.250:1900} (TTL 2, as miniupnpc), sent up to {@code attempts} times within
 * {@code wait}; the first answer whose {@code LOCATION} is an {@code http} URL on the host that answered is the
 * gateway (an answer naming another host is ignored, so that nothing on the network can send this node's requests
 * elsewhere). At most {@value #MAX_ANSWERS} datagrams of at most {@value #MAX_DATAGRAM} bytes are read.
 */
final class Ssdp {
    static final InetSocketAddress MULTICAST = new InetSocketAddress("239.255.255.250", 1900);
    static final int MAX_ANSWERS = 32;
    static final int MAX_DATAGRAM = 2048;
    /** IGD:1 first: IGD:2 devices answer it too (miniupnpd does), and old ones know no other. */
    private static final List<String> SEARCH_TARGETS = List.of("urn:schemas-upnp-org:device:InternetGatewayDevice:1",
            "urn:schemas-upnp-org:device:InternetGatewayDevice:2");

    private Ssdp() {
    }

    /** The LOCATION of the first gateway that answers at {@code target} (the multicast group, or a test's address). */
    static Optional<URI> discover(InetSocketAddress target, Duration wait, int attempts) throws NatException {
        long deadline = System.nanoTime() + wait.toNanos();
        long perAttempt = wait.toNanos() / attempts;
        try (MulticastSocket socket = new MulticastSocket(0)) {
            socket.setTimeToLive(2);
            byte[] buffer = new byte[MAX_DATAGRAM];
            int answers = 0;
            for (int attempt = 0; attempt < attempts; attempt++) {
                for (String st : SEARCH_TARGETS) {
                    byte[] search = search(target, st, Math.max(1, (int) wait.toSeconds()));
                    socket.send(new DatagramPacket(search, search.length, target));
                }
                long attemptEnd = Math.min(deadline, System.nanoTime() + perAttempt);
                while (answers < MAX_ANSWERS) {
                    long left = attemptEnd - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
                    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(packet);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    answers++;
                    Optional<URI> location = location(new String(packet.getData(), 0, packet.getLength(),
                            StandardCharsets.ISO_8859_1), packet.getAddress());
                    if (location.isPresent()) {
                        return location;
                    }
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new NatException("SSDP to " + target + ": " + e.getMessage(), e);
        }
    }

    static byte[] search(InetSocketAddress target, String st, int mx) {
        return ("M-SEARCH * HTTP/1.1\r\nHOST: " + target.getAddress().getHostAddress() + ":" + target.getPort()
                + "\r\nST: " + st + "\r\nMAN: \"ssdp:discover\"\r\nMX: " + mx + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The LOCATION of an answer (a 200 to our search) sent by {@code from}, if it is an http URL on that host. */
    static Optional<URI> location(String answer, InetAddress from) {
        String[] lines = answer.split("\r?\n");
        if (lines.length == 0 || !lines[0].startsWith("HTTP/1.") || !lines[0].contains(" 200")) {
            return Optional.empty();
        }
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0 || !line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("location")) {
                continue;
            }
            try {
                URI uri = new URI(line.substring(colon + 1).strip());
                if ("http".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null
                        && InetAddress.getByName(literal(uri.getHost())).equals(from)) {
                    return Optional.of(uri);
                }
            } catch (URISyntaxException | IOException e) {
                // not a URL we can use; the next answer may be
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The host of a LOCATION, which must be an IP literal: a name is never looked up. */
    private static String literal(String host) throws IOException {
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (!h.matches("[0-9.]+") && !h.matches("[0-9a-fA-F:]+")) {
            throw new IOException("not an IP address: " + host);
        }
        return h;
    }
}
