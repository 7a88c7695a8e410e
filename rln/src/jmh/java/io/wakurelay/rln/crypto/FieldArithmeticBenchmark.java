package io.wakurelay.rln.crypto;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Why {@link PrimeField} is on long limbs (docs/adr/0083): one product mod r on four 64-bit limbs in Montgomery form
 * against {@link BigInteger}'s multiply and remainder, and one Poseidon (t = 3), the unit RLN pays per external
 * nullifier and per Merkle node.
 *
 * <pre>
 * java -jar rln/target/rln-benchmarks.jar FieldArithmeticBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FieldArithmeticBenchmark {
    private static final PrimeField FR = PrimeField.SCALAR;

    private long[] a;
    private long[] b;
    private final long[] out = new long[4];
    private BigInteger x;
    private BigInteger y;
    private FieldElement left;
    private FieldElement right;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(1);
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        x = new BigInteger(1, bytes).mod(FR.modulus());
        random.nextBytes(bytes);
        y = new BigInteger(1, bytes).mod(FR.modulus());
        a = FR.fromBigInteger(x);
        b = FR.fromBigInteger(y);
        left = FieldElement.of(x);
        right = FieldElement.of(y);
    }

    @Benchmark
    public long[] montgomeryProduct() {
        FR.mul(a, b, out);
        return out;
    }

    @Benchmark
    public BigInteger bigIntegerProduct() {
        return x.multiply(y).mod(FR.modulus());
    }

    @Benchmark
    public FieldElement poseidon() {
        return Poseidon.hash(left, right);
    }
}
