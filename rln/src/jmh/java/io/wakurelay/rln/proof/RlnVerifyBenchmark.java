package io.wakurelay.rln.proof;

import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.crypto.ExternalNullifier;
import io.wakurelay.rln.crypto.FieldElement;
import io.wakurelay.rln.crypto.HashToField;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * RLN's proof step on one thread, in operations per second: {@link #verification} is what a validator pays per message
 * (decode field 21, the cheap checks, the keccak of a {@code payloadBytes} payload, point decoding and checks, the
 * pairing), the others split it: {@link #cheapChecks}, {@link #signalHash}, {@link #decodePoints} (decompression and
 * G2's subgroup check), {@link #subgroupCheck} alone, {@link #pairing} (zwaves' native call) and
 * {@link #externalNullifier} (what the cache saves). The proof is the vectors' case A1 (a real rln-v2 proof); the
 * payload hashed is of the size asked, in a direct buffer as the network's.
 *
 * <pre>
 * ./mvnw -B -ntp -q -Pbench -pl rln -am package -DskipTests
 * java -jar rln/target/rln-benchmarks.jar RlnVerifyBenchmark -p payloadBytes=10000,50000,150000
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(1)
public class RlnVerifyBenchmark {
    /** vectors.json, case A1: a WakuMessage with a valid rln-v2 proof (v038 derivation). */
    static final String A1 = "0a0d726c6e20766563746f7220413112122f6d796170702f312f726c6e2f70726f746f180050aad4f6e3cfa6c5"
            + "fe30aa01cf020a8001592055ae617b3af80f7eba47d5863959ff2e4a783966215fae884894c7cfb09070c444342883d4f51578ea"
            + "6dcd686e7c813ef3cf1968977b45b69f51f2fcfa1417678014f0088c238b1632bbd5ca18f2e9496cadc4d5b96e85d35b58dd0135"
            + "0ea55999c10e9c7fbb1103f89bc70f7d01117ccc7001a6b703aed6df3ce33e0aab12200f4dc3f4a35aabf0a3a8665175cdd69542"
            + "d183448f3c77b9ef9fb63371efa22a1a20e3e22c0000000000000000000000000000000000000000000000000000000000222073"
            + "d2bdddee89b8166f48575b5ee81d7b374983200235b37e333334290362ff062a206717ae9f1520829d038c85be49147a5770e679"
            + "618784ee01d87f8ad30418522c3220dc3f201f39da43d95b7599cd7a14a98b1dfabba84926f2d1de3fe62db0c9bd183a20726c6e"
            + "2f77616b752d726c6e2d72656c61792f76322e302e3000000000000000";

    @Param({"10000", "50000", "150000"})
    public int payloadBytes;

    private ProofVerifier verifier;
    private Groth16Verifier backend;
    private Envelope a1;
    private ByteBuf proofField;
    private Envelope sized;
    private FieldElement a1X;
    private Groth16Proof points;
    private FieldElement[] inputs;
    private byte[] proofBytes;
    private byte[] epoch;
    private byte[] identifier;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        backend = ZwavesGroth16Verifier.create(VerifyingKey.rlnV2());
        verifier = new ProofVerifier(backend);
        byte[] a1Bytes = HexFormat.of().parseHex(A1);
        a1 = decode(a1Bytes);
        RateLimitProof proof = RateLimitProof.of(a1.message());
        proofField = a1.message().rateLimitProof();
        a1X = HashToField.signal(a1.message());
        byte[] payload = new byte[payloadBytes];
        new SplittableRandom(42).nextBytes(payload);
        WakuMessage big = WakuMessage.parseFrom(a1Bytes).toBuilder()
                .setPayload(UnsafeByteOperations.unsafeWrap(payload)).build();
        sized = decode(big.toByteArray());
        proofBytes = proof.bytes();
        points = Groth16Proof.decode(proofBytes, 0);
        epoch = proof.epochBytes();
        identifier = proof.rlnIdentifier();
        inputs = new FieldElement[] {proof.fieldElement(5), proof.fieldElement(2), proof.fieldElement(6), a1X,
            ExternalNullifier.derive(epoch, identifier, NullifierDerivation.V038)};
        if (verifier.verify(proof, a1.message(), NullifierDerivation.V038) != ProofVerdict.VALID) {
            throw new IllegalStateException("A1 does not verify");
        }
    }

    private static Envelope decode(byte[] message) {
        ByteBuf buf = Unpooled.directBuffer(message.length).writeBytes(message);
        try {
            return new EnvelopeDecoder(new MessageValidator(ProtocolLimits.DEFAULTS, System::currentTimeMillis),
                    new PathCounters()).decode("/waku/2/rs/1/0", buf, buf);
        } finally {
            buf.release();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        a1.release();
        sized.release();
    }

    /**
     * The whole proof step for a message of {@code payloadBytes}: decode, cheap checks, x = H(signal) of the sized
     * message, then verification of A1's proof (whose x is A1's: the hash is paid, the verdict stays VALID).
     */
    @Benchmark
    public ProofVerdict verification(Blackhole blackhole) throws MalformedRateLimitProofException {
        RateLimitProof proof = RateLimitProof.decode(proofField);
        if (proof.checkFields() != FieldCheck.OK) {
            throw new IllegalStateException();
        }
        blackhole.consume(HashToField.signal(sized.message()));
        return verifier.verify(proof, a1X, NullifierDerivation.V038);
    }

    @Benchmark
    public FieldCheck cheapChecks() throws MalformedRateLimitProofException {
        return RateLimitProof.decode(proofField).checkFields();
    }

    @Benchmark
    public FieldElement signalHash() {
        return HashToField.signal(sized.message());
    }

    @Benchmark
    public Groth16Proof decodePoints() throws PointDecodingException {
        return Groth16Proof.decode(proofBytes, 0);
    }

    @Benchmark
    public boolean subgroupCheck() {
        return points.b.isInSubgroup();
    }

    @Benchmark
    public boolean pairing() {
        return backend.verify(points, inputs);
    }

    @Benchmark
    public FieldElement externalNullifier() {
        return ExternalNullifier.derive(epoch, identifier, NullifierDerivation.V038);
    }
}
