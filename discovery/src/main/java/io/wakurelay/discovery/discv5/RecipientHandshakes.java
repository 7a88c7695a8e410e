package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.limits.TokenBucket;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;

/**
 * The recipient's side of the discv5 handshake: a packet we cannot read is answered with a WHOAREYOU challenge, and
 * the handshake that answers it is verified into a session. Both are bounded against a node that sends junk from many
 * ports or ids: WHOAREYOUs leave at most {@link Discv5Config#whoareyouPerSecond()} a second, all sources together (a
 * token bucket a quarter of a second deep), beside the per-source packet budget that came before; and the
 * {@link Challenges} table never gives up a challenge younger than the request timeout for a newcomer. A packet past
 * either is dropped and counted ({@link Drop#WHOAREYOU_RATE}, {@link Drop#CHALLENGES_FULL}). Event-loop confined.
 */
final class RecipientHandshakes {

    /** How a packet leaves: the service's socket. */
    @FunctionalInterface
    interface Out {
        void write(Packet packet, byte[] destId, InetSocketAddress to);
    }

    /** A verified handshake: its sender, the record it is known by now, and its message's plaintext. */
    record Accepted(byte[] sourceId, Enr record, byte[] plaintext) {
    }

    private final byte[] localId;
    private final byte[] privateScalar;
    private final RoutingTable table;
    private final Sessions sessions;
    private final Discv5Metrics metrics;
    private final SecureRandom random;
    private final Out out;
    private final Challenges challenges;
    private final TokenBucket whoareyous;

    RecipientHandshakes(Discv5Config config, byte[] localId, byte[] privateScalar, RoutingTable table,
            Sessions sessions, Discv5Metrics metrics, SecureRandom random, Out out, long nowNanos) {
        this.localId = localId;
        this.privateScalar = privateScalar;
        this.table = table;
        this.sessions = sessions;
        this.metrics = metrics;
        this.random = random;
        this.out = out;
        long timeout = config.requestTimeout().toNanos();
        this.challenges = new Challenges(config.challenges(), timeout, 2 * timeout);
        this.whoareyous = new TokenBucket(config.whoareyouPerSecond(), Discv5Config.whoareyouBurst(
                config.whoareyouPerSecond()), nowNanos);
    }

    /** The node cannot be read (no session or a stale one): ask who it is, within the bounds. */
    void challenge(Packet packet, byte[] sourceId, InetSocketAddress from, long nowNanos) {
        Challenges.Challenge current = challenges.current(sourceId, from, nowNanos);
        if (!whoareyous.tryTake(nowNanos)) {
            metrics.dropped(Drop.WHOAREYOU_RATE);
            return;
        }
        if (current != null) { // the one in flight, again: a new one would void what the node may be answering
            out.write(current.whoareyou(), sourceId, from);
            return;
        }
        Optional<Enr> known = table.record(sourceId);
        Packet whoareyou = Packet.whoareyou(randomBytes(16), packet.nonce(), randomBytes(16),
                known.map(Enr::seq).orElse(0L));
        if (!challenges.put(sourceId, from, new Challenges.Challenge(whoareyou, known.orElse(null), nowNanos),
                nowNanos)) {
            metrics.dropped(Drop.CHALLENGES_FULL);
            return;
        }
        out.write(whoareyou, sourceId, from);
    }

    /**
     * Verifies a handshake packet against the challenge we sent its sender; on success the session is kept.
     *
     * @return the verified handshake, or null when it was refused (counted)
     */
    Accepted accept(Packet packet, InetSocketAddress from, long nowNanos) {
        HandshakeAuthdata auth = HandshakeAuthdata.decode(packet.authdata());
        Challenges.Challenge challenge = challenges.take(auth.sourceId(), from, nowNanos);
        if (challenge == null) {
            metrics.dropped(Drop.UNSOLICITED);
            return null;
        }
        Enr record = challenge.known();
        if (auth.record().length > 0) {
            Enr sent = Enr.decode(auth.record());
            if (record == null || sent.seq() > record.seq()) {
                record = sent;
            }
        }
        if (record == null || !Arrays.equals(record.nodeId(), auth.sourceId())
                || !Discv5Crypto.idVerify(record.publicKey(), auth.idSignature(), challenge.challengeData(),
                        auth.ephemeralKey(), localId)
                || !Discv5Crypto.isPublicKey(auth.ephemeralKey())) {
            metrics.dropped(Drop.BAD_HANDSHAKE);
            return null;
        }
        Discv5Crypto.SessionKeys keys = Discv5Crypto.deriveKeys(Discv5Crypto.ecdh(auth.ephemeralKey(), privateScalar),
                auth.sourceId(), localId, challenge.challengeData());
        byte[] plaintext = Discv5Crypto.aesGcmDecrypt(keys.initiatorKey(), packet.nonce(), packet.message(),
                packet.messageAd());
        if (plaintext == null) {
            metrics.dropped(Drop.BAD_HANDSHAKE);
            return null;
        }
        sessions.put(auth.sourceId(), from, new Sessions.Session(keys.recipientKey(), keys.initiatorKey()));
        metrics.handshake();
        return new Accepted(auth.sourceId(), record, plaintext);
    }

    int challengeCount() {
        return challenges.size();
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
