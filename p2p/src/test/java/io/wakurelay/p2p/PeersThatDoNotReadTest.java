package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.testkit.Eventually;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, G2a: a peer that sends and never reads what it is sent. Before, each yamux ping it sent queued a pong
 * for it, without end (204 MB sent held the node's direct memory until the direct-memory limit closed the
 * connection).
 */
@Tag("slow")
class PeersThatDoNotReadTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** 32 MiB of SYN pings (one Noise message holds 5,459): before, as many bytes of pongs queued on the host. */
    private static final int PING_MESSAGES = 512;
    private static final long PING_BYTES = PING_MESSAGES * 5459L * 12;
    /**
     * What the pings may add to the direct memory the host's pool has handed out: the reads in flight (the socket's
     * read buffers and the Noise decoder's cumulation, 256 KiB at most seen), the Noise message being decrypted and
     * the one 30-byte pong pending. Measured: 0.9 MB. Before, the pongs alone took as much as the pings, 32 MiB.
     */
    private static final long PING_BOUND = 4L << 20;
    /** What may stay handed out once the attacker is gone: the event loops' buffer caches. Measured: 0.5 MB. */
    private static final long BASELINE_TOLERANCE = 2L << 20;
    private final TestHosts hosts = new TestHosts();
    private final ExecutorService attackerThread = Executors.newSingleThreadExecutor();
    private HandRolledPeer attacker;

    @AfterEach
    void close() throws Exception {
        if (attacker != null) {
            attacker.close();
        }
        attackerThread.shutdownNow();
        assertThat(attackerThread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        hosts.close();
    }

    @Test
    void aPeerThatPingsWithoutReadingQueuesNoPongsIsCutOffWhenItStallsAndLeavesNoMemoryBehind() throws Exception {
        Host target = hosts.start(x -> x.writeBufferHighWater(64 * 1024).writeStallTimeout(Duration.ofSeconds(1))
                .pingInterval(Duration.ofHours(1)));
        Host honest = hosts.start(x -> x.pingInterval(Duration.ofMillis(100)));
        Connection honestConnection = honest.dial(TestHosts.address(target)).block(WAIT);
        echo(honestConnection); // the pools have the chunks an honest echo needs before the baseline is taken
        long baseline = pooledBytesInUse();
        attacker = HandRolledPeer.connect(target.boundAddress(), InetAddress.getByName("127.0.0.2"), 4096);
        attacker.secure(PrivateKey.generateEd25519());
        attacker.selectYamux();
        double decryptedBefore = decrypted(target);

        HandRolledPeer peer = attacker;
        Future<?> pinging = attackerThread.submit(() -> floodPings(peer));
        long honestPings = pingsAnswered(honest);
        long peak = baseline;
        // until the host has read every ping
        while (!pinging.isDone() || decrypted(target) - decryptedBefore < PING_BYTES) {
            peak = Math.max(peak, pooledBytesInUse());
            Thread.sleep(5);
        }
        pinging.get();

        assertThat(peak - baseline).as("direct memory the pings took").isLessThanOrEqualTo(PING_BOUND);
        assertThat(pingsAnswered(honest)).as("the honest peer's pings answered meanwhile").isGreaterThan(honestPings);
        assertThat(count(target, "libp2p.replies.dropped", "reply", "yamux_pong")).as("pongs not written")
                .isGreaterThan(PING_MESSAGES * 5000.0);

        // now make the host owe it data, and read none of it: the host's writes stall and it gives up
        Future<?> stuffing = attackerThread.submit(() -> openEchoStreamsAndNeverRead(peer));
        Eventually.until("closed for its stalled writes", WAIT,
                () -> count(target, "libp2p.disconnects", "reason", "write_stalled") == 1);
        stuffing.get();
        attacker.close();

        assertThat(count(target, "libp2p.read.pauses", "reason", "unwritable")).isPositive();
        echo(honestConnection);
        assertThat(honestConnection.isOpen()).isTrue();
        Eventually.until(() -> pooledBytesInUse() - baseline < BASELINE_TOLERANCE, WAIT,
                () -> "direct memory in use " + pooledBytesInUse() + ", baseline " + baseline);
        System.out.printf("PeersThatDoNotReadTest, G2a: %.1f MiB of SYN pings read; pooled direct memory in use +%.2f MB "
                        + "at its peak (bound %d MiB), +%.2f MB after the attacker left (bound %d MiB); pongs dropped "
                        + "%.0f; reads paused %.0f times; closed for stalled writes%n", PING_BYTES / 1048576.0,
                (peak - baseline) / 1e6, PING_BOUND >> 20, (pooledBytesInUse() - baseline) / 1e6, BASELINE_TOLERANCE >> 20,
                count(target, "libp2p.replies.dropped", "reply", "yamux_pong"),
                count(target, "libp2p.read.pauses", "reason", "unwritable"));
    }

    private static Void floodPings(HandRolledPeer attacker) throws IOException {
        byte[] pings = new byte[5459 * 12];
        for (int at = 0; at < pings.length; at += 12) {
            System.arraycopy(HandRolledPeer.yamuxHeader(HandRolledPeer.YAMUX_PING, HandRolledPeer.YAMUX_SYN, 0, at), 0,
                    pings, at, 12);
        }
        for (int i = 0; i < PING_MESSAGES; i++) {
            attacker.send(pings);
        }
        return null;
    }

    /**
     * Opens echo streams with data (6 MiB in all, more than the host's socket buffers and high water mark take):
     * ends when everything is written or when the host closed the connection while this was still writing.
     */
    private static Void openEchoStreamsAndNeverRead(HandRolledPeer attacker) {
        try {
            for (int stream = 1; stream < 64; stream += 2) {
                attacker.send(echoStream(stream, 200 * 1024));
            }
        } catch (IOException e) {
            // the host closed the connection
        }
        return null;
    }

    private double count(Host host, String name, String tag, String value) {
        return TestHosts.count(hosts.registry(host), name, tag, value);
    }

    private long pingsAnswered(Host host) {
        return hosts.registry(host).find("libp2p.ping.rtt").timer().count();
    }

    private double decrypted(Host host) {
        return count(host, "libp2p.noise.bytes", "operation", "decrypt");
    }

    /** A yamux stream opened with its echo proposal and {@code size} bytes of data in the same frame. */
    private static byte[] echoStream(int id, int size) {
        ByteBuf proposal = Unpooled.buffer();
        MultistreamSelect.writeMessage(proposal, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(proposal, EchoProtocol.ID);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.writeBytes(HandRolledPeer.yamuxHeader(HandRolledPeer.YAMUX_DATA, HandRolledPeer.YAMUX_SYN, id,
                proposal.readableBytes() + size));
        byte[] negotiation = new byte[proposal.readableBytes()];
        proposal.readBytes(negotiation).release();
        frame.writeBytes(negotiation);
        frame.writeBytes(new byte[size]);
        return frame.toByteArray();
    }

    private static void echo(Connection connection) {
        EchoClient.Result result = EchoClient.run(connection, 1_000_000).block(WAIT);
        assertThat(result.receivedSha256()).isEqualTo(result.sentSha256());
    }

    private static long pooledBytesInUse() {
        return TestHosts.pooledBytesInUse();
    }
}
