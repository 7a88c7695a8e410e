package io.wakurelay.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A home router in three network namespaces of the test's own: {@code lan} (where the node runs, 10.99.0.2, its
 * default route the gateway), {@code gw} (Debian's miniupnpd, serving UPnP IGD and NAT-PMP on its LAN side 10.99.0.1,
 * with its external interface 100.128.0.1 towards {@code wan}) and {@code wan} (100.128.0.2, "the Internet": a peer
 * outside). The external address is public-looking because miniupnpd maps nothing for a private or documentation one;
 * it exists only in these namespaces, which are joined to nothing else, so no packet leaves them. miniupnpd runs in the
 * foreground with a config file of the test's own and iptables chains the test creates in {@code gw} (miniupnpd-iptables
 * uses the legacy tables: {@code iptables-legacy}); nothing of the host's firewall or its services is touched.
 */
final class MiniupnpdGateway implements AutoCloseable {
    static final Path MINIUPNPD = Path.of("/usr/sbin/miniupnpd");
    static final String LAN_IP = "10.99.0.2";
    static final String GATEWAY_IP = "10.99.0.1";
    static final String EXTERNAL_IP = "100.128.0.1";
    static final String OUTSIDE_IP = "100.128.0.2";

    final String lan;
    final String gw;
    final String wan;
    final Path dir;
    final Path leases;
    private final List<String> created = new ArrayList<>();
    private Process miniupnpd;

    private MiniupnpdGateway(Path dir) {
        String id = Long.toString(ProcessHandle.current().pid() % 100_000);
        this.lan = "wrnat-lan-" + id;
        this.gw = "wrnat-gw-" + id;
        this.wan = "wrnat-wan-" + id;
        this.dir = dir;
        this.leases = dir.resolve("miniupnpd.leases");
    }

    /** The three namespaces, joined by two veth pairs, and miniupnpd running in {@code gw}. */
    static MiniupnpdGateway start(Path dir) {
        if (!Files.isExecutable(MINIUPNPD) || !Files.isExecutable(Path.of("/usr/bin/upnpc"))) {
            fail("no miniupnpd or upnpc: Debian's miniupnpd, miniupnpd-iptables and miniupnpc are needed "
                    + "(bash interop/install.sh installs them)");
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            fail("network namespaces need root (as deploy/netns-test.sh)");
        }
        MiniupnpdGateway g = new MiniupnpdGateway(dir);
        try {
            g.setUp();
            return g;
        } catch (RuntimeException | Error e) {
            g.close();
            throw e;
        }
    }

    private void setUp() {
        String id = lan.substring(lan.lastIndexOf('-') + 1);
        String lanIf = "wn" + id + "l", gwLanIf = "wn" + id + "g", gwWanIf = "wn" + id + "w", wanIf = "wn" + id + "o";
        for (String ns : List.of(lan, gw, wan)) {
            run("ip", "netns", "add", ns);
            created.add(ns);
            run("ip", "-n", ns, "link", "set", "lo", "up");
        }
        run("ip", "link", "add", lanIf, "netns", lan, "type", "veth", "peer", "name", gwLanIf, "netns", gw);
        run("ip", "link", "add", gwWanIf, "netns", gw, "type", "veth", "peer", "name", wanIf, "netns", wan);
        address(lan, lanIf, LAN_IP + "/24");
        address(gw, gwLanIf, GATEWAY_IP + "/24");
        address(gw, gwWanIf, EXTERNAL_IP + "/24");
        address(wan, wanIf, OUTSIDE_IP + "/24");
        run("ip", "-n", lan, "route", "add", "default", "via", GATEWAY_IP);
        run("ip", "netns", "exec", gw, "sysctl", "-qw", "net.ipv4.ip_forward=1");
        // the chains miniupnpd adds its rules to (its iptables_init.sh, in the legacy tables it writes)
        for (String table : List.of("nat", "mangle", "filter")) {
            iptables("-t", table, "-N", "MINIUPNPD");
        }
        iptables("-t", "nat", "-N", "MINIUPNPD-POSTROUTING");
        iptables("-t", "nat", "-A", "PREROUTING", "-i", gwWanIf, "-j", "MINIUPNPD");
        iptables("-t", "filter", "-A", "FORWARD", "-i", gwWanIf, "!", "-o", gwWanIf, "-j", "MINIUPNPD");
        Path config = dir.resolve("miniupnpd.conf");
        write(config, String.join("\n",
                "ext_ifname=" + gwWanIf, "listening_ip=" + gwLanIf, "http_port=0", "enable_natpmp=yes",
                "enable_upnp=yes", "secure_mode=yes", "system_uptime=yes", "lease_file=" + leases,
                "uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b", "allow 1024-65535 10.99.0.0/24 1024-65535",
                "deny 0-65535 0.0.0.0/0 0-65535", ""));
        try {
            miniupnpd = new ProcessBuilder("ip", "netns", "exec", gw, MINIUPNPD.toString(), "-f", config.toString(),
                    "-d", "-P", dir.resolve("miniupnpd.pid").toString()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("miniupnpd.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start miniupnpd", e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!log().contains("Listening for NAT-PMP")) {
            if (System.nanoTime() > deadline || !miniupnpd.isAlive()) {
                fail("miniupnpd did not start:\n" + log());
            }
            sleep(50);
        }
    }

    /** ip netns exec {@code lan}: what a launcher needs to run a process on the LAN. */
    List<String> onLan() {
        return List.of("ip", "netns", "exec", lan);
    }

    /** {@code upnpc -l} on the LAN: the gateway's mappings, as an independent client lists them. */
    String upnpcList() {
        return run("ip", "netns", "exec", lan, "upnpc", "-l");
    }

    /** The gateway's DNAT rules (miniupnpd's chain of the legacy nat table). */
    String natRules() {
        return run("ip", "netns", "exec", gw, "iptables-legacy", "-t", "nat", "-L", "MINIUPNPD", "-n");
    }

    /** miniupnpd's lease file: one line per mapping ({@code TCP:60000:10.99.0.2:60000:<expiry>:<description>}). */
    String leaseFile() {
        try {
            return Files.exists(leases) ? Files.readString(leases) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a TCP connection from outside to {@code EXTERNAL_IP:port} is set up (forwarded to the LAN). */
    boolean reachableFromOutside(int port) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "exec", wan, "bash", "-c",
                    "exec 3<>/dev/tcp/" + EXTERNAL_IP + "/" + port).redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    String log() {
        try {
            Path log = dir.resolve("miniupnpd.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void address(String ns, String dev, String cidr) {
        run("ip", "-n", ns, "addr", "add", cidr, "dev", dev);
        run("ip", "-n", ns, "link", "set", dev, "up");
    }

    private void iptables(String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", gw, "iptables-legacy", "-w"));
        command.addAll(List.of(args));
        run(command.toArray(String[]::new));
    }

    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end in 30 s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops miniupnpd and deletes the namespaces (and with them the veths, addresses and rules). */
    @Override
    public void close() {
        if (miniupnpd != null) {
            miniupnpd.destroy(); // SIGTERM to ip netns exec, which exec'd miniupnpd: it is miniupnpd
            try {
                if (!miniupnpd.waitFor(10, TimeUnit.SECONDS)) {
                    miniupnpd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (int i = created.size() - 1; i >= 0; i--) {
            try {
                run("ip", "netns", "del", created.get(i));
            } catch (RuntimeException e) {
                // deleted already, or the next run's setUp says so
            }
        }
    }
}
