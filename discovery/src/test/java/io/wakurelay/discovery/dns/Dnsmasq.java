package io.wakurelay.discovery.dns;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real DNS server for tests: Debian's dnsmasq as a child process, bound to a loopback address and a free port,
 * serving only the TXT records given (no upstream, no /etc/hosts), killed by {@link #close()}.
 */
public final class Dnsmasq implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/sbin/dnsmasq");

    private final Process process;
    private final InetSocketAddress address;
    private final Path dir;

    private Dnsmasq(Process process, InetSocketAddress address, Path dir) {
        this.process = process;
        this.address = address;
        this.dir = dir;
    }

    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Serves {@code records} (full name to text) on {@code host} (a 127.0.0.x address). */
    public static Dnsmasq serve(String host, Map<String, String> records) throws IOException, InterruptedException {
        IOException last = null;
        // the port is probed free, then bound by dnsmasq: another process may take it in between; try another
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return start(host, records);
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    private static Dnsmasq start(String host, Map<String, String> records) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("dnsmasq");
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, String> e : records.entrySet()) {
            // quoted: branch entries hold commas, which would split the text into character-strings
            lines.add("txt-record=" + e.getKey() + ",\"" + e.getValue() + "\"");
        }
        Path conf = dir.resolve("dnsmasq.conf");
        Files.write(conf, lines);
        int port = freePort(InetAddress.getByName(host));
        Process process = new ProcessBuilder(BINARY.toString(), "--no-daemon", "--no-resolv", "--no-hosts",
                "--conf-file=" + conf, "--listen-address=" + host, "--bind-interfaces", "--port=" + port,
                "--pid-file=", "--user=" + System.getProperty("user.name"), "--cache-size=0", "--log-facility=-")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("dnsmasq.log").toFile())
                .start();
        Dnsmasq server = new Dnsmasq(process, new InetSocketAddress(host, port), dir);
        // dnsmasq binds before it logs "started"; wait for that line (or its end)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String log = server.log();
                server.close();
                throw new IOException("dnsmasq on port " + port + " ended with " + process.exitValue() + ": " + log);
            }
            if (server.log().contains("started")) {
                return server;
            }
            Thread.sleep(20);
        }
        server.close();
        throw new IOException("dnsmasq did not start within 10 s: " + server.log());
    }

    /** A port free for both UDP and TCP (dnsmasq listens on both). */
    private static int freePort(InetAddress address) throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(address, 0))) {
                int port = udp.getLocalPort();
                try (ServerSocket tcp = new ServerSocket()) {
                    tcp.bind(new InetSocketAddress(address, port));
                    return port;
                } catch (IOException taken) {
                    // the TCP port is in use: another
                }
            }
        }
        throw new IOException("no port free for both UDP and TCP on " + address);
    }

    public InetSocketAddress address() {
        return address;
    }

    public String log() throws IOException {
        Path log = dir.resolve("dnsmasq.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(dir);
    }
}
