package io.wakurelay.p2p.bench;

import io.wakurelay.p2p.noise.ChaChaPoly;
import io.wakurelay.p2p.noise.CipherPair;
import io.wakurelay.p2p.noise.CipherState;
import io.wakurelay.p2p.noise.NoiseHandshake;
import io.wakurelay.p2p.noise.X25519;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One Noise transport message per operation, on the cipher states of a real handshake: {@code encrypt} alone,
 * and {@code encryptThenDecrypt} (the receiver's cost added). Plaintext and ciphertext live in reused buffers:
 * {@code heap}, {@code direct} (handed to the cipher as they are: the JDK copies them into new arrays), or
 * {@code directViaScratch} (direct buffers that the caller copies through one reused heap array, as a frame
 * codec could). Run with {@code -prof gc}: gc.alloc.rate.norm is the allocation per message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CipherStateBenchmark {

    @Param({"64", "1400", "16384", "65519"})
    int size;

    @Param({"heap", "direct", "directViaScratch"})
    String buffers;

    /** The ChaCha20-Poly1305: the JDK's or Conscrypt's ({@code -p provider=conscrypt}). */
    @Param({"jdk", "conscrypt"})
    String provider;

    private CipherState sender;
    private CipherState receiver;
    private ByteBuffer plaintext;
    private ByteBuffer ciphertext;
    private ByteBuffer decrypted;
    private ByteBuffer scratchIn; // heap, for directViaScratch
    private ByteBuffer scratchOut;

    @Setup
    public void handshake() {
        ChaChaPoly cipher = provider.equals("jdk") ? ChaChaPoly.JDK : ChaChaPoly.conscrypt().orElseThrow(
                () -> new IllegalStateException(ChaChaPoly.conscryptFailure()));
        NoiseHandshake initiator = NoiseHandshake.initiator(X25519.generate(), cipher);
        NoiseHandshake responder = NoiseHandshake.responder(X25519.generate(), cipher);
        responder.readMessage(initiator.writeMessage(new byte[0]));
        initiator.readMessage(responder.writeMessage(new byte[0]));
        responder.readMessage(initiator.writeMessage(new byte[0]));
        CipherPair dialer = initiator.split();
        sender = dialer.sender();
        receiver = responder.split().receiver();

        boolean direct = !buffers.equals("heap");
        scratchIn = ByteBuffer.allocate(CipherState.MAX_MESSAGE_LENGTH);
        scratchOut = ByteBuffer.allocate(CipherState.MAX_MESSAGE_LENGTH);
        plaintext = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        ciphertext = direct ? ByteBuffer.allocateDirect(size + CipherState.TAG_LENGTH)
                : ByteBuffer.allocate(size + CipherState.TAG_LENGTH);
        decrypted = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        byte[] data = new byte[size];
        new SplittableRandom(42).nextBytes(data);
        plaintext.put(data).flip();
    }

    @Benchmark
    public int encrypt() {
        plaintext.rewind();
        ciphertext.clear();
        return seal(plaintext, ciphertext);
    }

    @Benchmark
    public int encryptThenDecrypt() {
        plaintext.rewind();
        ciphertext.clear();
        seal(plaintext, ciphertext);
        ciphertext.flip();
        decrypted.clear();
        return open(ciphertext, decrypted);
    }

    private int seal(ByteBuffer in, ByteBuffer out) {
        if (!buffers.equals("directViaScratch")) {
            return sender.encrypt(in, out);
        }
        scratchIn.clear();
        scratchIn.put(in).flip();
        scratchOut.clear();
        int written = sender.encrypt(scratchIn, scratchOut);
        out.put(scratchOut.flip());
        return written;
    }

    private int open(ByteBuffer in, ByteBuffer out) {
        if (!buffers.equals("directViaScratch")) {
            return receiver.decrypt(in, out);
        }
        scratchIn.clear();
        scratchIn.put(in).flip();
        scratchOut.clear();
        int written = receiver.decrypt(scratchIn, scratchOut);
        out.put(scratchOut.flip());
        return written;
    }
}
