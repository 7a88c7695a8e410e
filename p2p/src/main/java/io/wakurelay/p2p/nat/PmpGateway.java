package io.wakurelay.p2p.nat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * A NAT-PMP gateway (RFC 6886), as libnatpmp speaks to it for nwaku: the default gateway, UDP port 5351. Each request
 * is sent up to {@code attempts} times, the wait doubling from {@code firstTimeout} (RFC 6886 3.1); only answers from
 * the gateway's address and port are read (the socket is connected to it), and only the answer to the request sent
 * counts. A gateway that answers with ICMP port unreachable has no NAT-PMP: that ends the request at once.
 */
final class PmpGateway implements NatGateway {
    static final int PORT = 5351;
    private static final int EXTERNAL_ADDRESS = 0;
    private static final int MAP_UDP = 1;
    private static final int MAP_TCP = 2;
    private static final int ANSWER = 128;

    private final InetSocketAddress gateway;
    private final Duration firstTimeout;
    private final int attempts;
    private final long lifetimeSeconds;

    PmpGateway(InetSocketAddress gateway, NatConfig config) {
        this.gateway = gateway;
        this.firstTimeout = config.pmpFirstTimeout();
        this.attempts = config.pmpAttempts();
        this.lifetimeSeconds = config.pmpLifetime().toSeconds();
    }

    /** The gateway of this host's default IPv4 route, at NAT-PMP's port. */
    static PmpGateway ofDefaultRoute(NatConfig config) throws NatException {
        return new PmpGateway(new InetSocketAddress(DefaultRoute.gateway(), PORT), config);
    }

    @Override
    public String protocol() {
        return "pmp";
    }

    @Override
    public String describe() {
        return "NAT-PMP at " + gateway.getAddress().getHostAddress() + ":" + gateway.getPort();
    }

    @Override
    public InetAddress externalAddress() throws NatException {
        ByteBuffer answer = exchange(new byte[] {0, EXTERNAL_ADDRESS}, EXTERNAL_ADDRESS, 12);
        byte[] ip = new byte[4];
        answer.get(8, ip);
        try {
            InetAddress address = InetAddress.getByAddress(ip);
            if (address.isAnyLocalAddress()) {
                throw new NatException("the gateway has no external address (it answered 0.0.0.0)");
            }
            return address;
        } catch (java.net.UnknownHostException e) {
            throw new NatException("not an address", e); // cannot happen: 4 bytes
        }
    }

    @Override
    public MappedPort map(NatPort port, int externalPort) throws NatException {
        ByteBuffer answer = exchange(mapRequest(port, externalPort, lifetimeSeconds), opcode(port), 16);
        int internal = Short.toUnsignedInt(answer.getShort(8));
        int external = Short.toUnsignedInt(answer.getShort(10));
        long lifetime = Integer.toUnsignedLong(answer.getInt(12));
        if (internal != port.internalPort() || external == 0 || lifetime == 0) {
            throw new NatException("the gateway's answer maps " + external + " -> " + internal + " for "
                    + lifetime + " s, not " + port);
        }
        return new MappedPort(port, external, true);
    }

    @Override
    public void unmap(MappedPort mapped) throws NatException {
        // RFC 6886 3.4: a lifetime of 0 and an external port of 0 delete the mapping of the internal port
        exchange(mapRequest(mapped.port(), 0, 0), opcode(mapped.port()), 16);
    }

    private static int opcode(NatPort port) {
        return port.protocol() == NatPort.Protocol.TCP ? MAP_TCP : MAP_UDP;
    }

    static byte[] mapRequest(NatPort port, int externalPort, long lifetimeSeconds) {
        return ByteBuffer.allocate(12).put((byte) 0).put((byte) opcode(port)).putShort((short) 0)
                .putShort((short) port.internalPort()).putShort((short) externalPort).putInt((int) lifetimeSeconds)
                .array();
    }

    /** Sends {@code request} until the gateway answers it (version 0, opcode 128 + {@code op}), or gives up. */
    private ByteBuffer exchange(byte[] request, int op, int answerLength) throws NatException {
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(gateway);
            byte[] buffer = new byte[64];
            long timeout = firstTimeout.toMillis();
            for (int attempt = 1; attempt <= attempts; attempt++, timeout *= 2) {
                socket.send(new DatagramPacket(request, request.length));
                long deadline = System.nanoTime() + timeout * 1_000_000;
                while (true) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        break;
                    }
                    socket.setSoTimeout((int) left);
                    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(packet);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    ByteBuffer answer = ByteBuffer.wrap(buffer, 0, packet.getLength()).slice();
                    if (packet.getLength() < answerLength || answer.get(0) != 0
                            || Byte.toUnsignedInt(answer.get(1)) != ANSWER + op) {
                        continue; // not the answer to this request
                    }
                    int result = Short.toUnsignedInt(answer.getShort(2));
                    if (result != 0) {
                        throw new NatException(describe() + " refused: result " + result + " " + resultText(result));
                    }
                    return answer;
                }
            }
            throw new NatException(describe() + ": no answer to " + attempts + " requests");
        } catch (PortUnreachableException e) {
            throw new NatException(describe() + ": the gateway does not speak NAT-PMP (port unreachable)", e);
        } catch (IOException e) {
            throw new NatException(describe() + ": " + e.getMessage(), e);
        }
    }

    /** RFC 6886 3.5's result codes. */
    static String resultText(int result) {
        return switch (result) {
            case 1 -> "(unsupported version)";
            case 2 -> "(not authorized: NAT-PMP is off, or the port is not allowed)";
            case 3 -> "(network failure: the gateway has no external address)";
            case 4 -> "(out of resources)";
            case 5 -> "(unsupported opcode)";
            default -> "";
        };
    }
}
